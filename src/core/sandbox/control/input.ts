import { ApiError } from '../ops/common';

/**
 * Reading the control API's request bodies and query values (docs/testing-your-application.md, Control API): every
 * problem is a 400 naming the field (`issues[].path`) and, for a limit, the limit.
 */

/** 400 naming `path`. */
export function bad(path: string, message: string): ApiError {
  return new ApiError(400, 'bad_request', `${path}: ${message}`, [{ path, message }]);
}

/** The body as an object; 400 when it is anything else. */
export function objectBody(body: unknown, what: string): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw bad('', `the body of ${what} must be a JSON object`);
  return body as Record<string, unknown>;
}

/** An integer field within [min, max]; `fallback` when absent. */
export function intField(o: Record<string, unknown>, name: string, min: number, max: number, fallback?: number): number {
  const v = o[name];
  if (v === undefined && fallback !== undefined) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw bad(name, v === undefined ? 'is required' : `must be an integer, not ${JSON.stringify(v)}`);
  if (v < min || v > max) throw bad(name, `must be from ${min} to ${max} (the limit), not ${v}`);
  return v;
}

/** A non-empty string field; undefined when absent and not required. */
export function stringField(o: Record<string, unknown>, name: string, required: true): string;
export function stringField(o: Record<string, unknown>, name: string, required?: false): string | undefined;
export function stringField(o: Record<string, unknown>, name: string, required = false): string | undefined {
  const v = o[name];
  if (v === undefined && !required) return undefined;
  if (typeof v !== 'string' || v === '') throw bad(name, v === undefined ? 'is required' : 'must be a non-empty string');
  if (v.length > 4096) throw bad(name, 'must be at most 4096 characters');
  return v;
}

/** One query value (a repeated parameter is 400). */
export function queryValue(query: Record<string, unknown>, name: string): string | undefined {
  const v = query[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw bad(`query.${name}`, 'must be given once');
  return v;
}

/**
 * A path pattern as a RegExp over a request path without its query: `*` stands for any characters within one path
 * segment, `**` for any characters across segments; everything else is literal.
 */
export function pathPattern(pattern: string, field: string): RegExp {
  if (!pattern.startsWith('/')) throw bad(field, `must be a path starting with / (e.g. /api/v3/tire-protection/registrations), not '${pattern}'`);
  const source = pattern
    .split('**')
    .map((part) => part.split('*').map((lit) => lit.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*'))
    .join('.*');
  return new RegExp(`^${source}$`);
}

/** A request path without its query string. */
export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}
