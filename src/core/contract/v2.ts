/**
 * Version 2 record schemas (spec: Resources and their fields > Version 2 records; Data type formats (v2)), one
 * module per record in v2/. Importing this barrel builds all of them; code that needs one kind's schema goes
 * through PAYLOAD_KINDS or ENDPOINTS, which load each module on first use (see lazy.ts).
 *
 * Request schemas (what a partner sends) are plain `z.object`s: unknown keys are stripped, not rejected, so the
 * diagnostics layer can report them as warnings by walking `.shape`. Read schemas (records read back) are
 * `z.looseObject`s with every field optional and tolerant types (numbers or numeric strings, '' or null dates).
 */
export {
  COMMERCIAL_VEHICLE_RE,
  COMMERCIAL_VEHICLE_VALUES,
  SERVICE_TYPES,
  SERVICE_TYPE_MESSAGE,
  V2_CANCELLATION_DEPRECATED,
  V2_POST_KEYS,
  V2_REC_VALUES,
  WARRANTY_STATUS,
  YES_NO_MESSAGE,
  v2FieldInfo,
  type V2FieldInfo,
  type V2FieldType,
  type V2Rec,
} from './v2/fields';
export * from './v2/registration';
export * from './v2/claim';
export * from './v2/sale';
export * from './v2/cancellation';
export * from './v2/bodies';
export * from './v2/records';
