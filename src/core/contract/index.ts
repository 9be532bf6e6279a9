/**
 * The partner-interface contract (spec: ../shared/spec/partner-interface.md): zod schemas of every resource,
 * the endpoint table, payload kinds, JSON Schema and helpers. The single source of truth for paths, methods,
 * field names and limits.
 */
export * from './types';
export * from './primitives';
export * from './errors';
export * from './v2';
export * from './v3';
export * from './endpoints';
export type * from './endpointTypes';
export * from './kinds';
export * from './jsonSchema';
export * from './openapi';
