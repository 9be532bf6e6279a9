import { z } from 'zod';
import { MESSAGES, errorFor, isoDate, str } from '../primitives';

/**
 * Small builders of the version 3 schemas (spec: Resources and their fields > Version 3 objects), shared by the
 * resource modules beside this file. Internal to the contract: not re-exported by its index.
 */

/** A version 3 date: "Dates are ISO 8601 strings" (no zone required). */
export const date3 = () => isoDate({ zone: 'optional' });
/**
 * Required string. '' is accepted: the spec makes an empty required field a 400 only in version 2 ("in version
 * 2, a required field empty or malformed"); the diagnostics warn about it (code empty-value).
 */
export const rs = (description: string) => str().meta({ description });
/** Optional string. */
export const os = (description: string) => str().optional().meta({ description });
/** Optional wrapper with a description. */
export const opt = <T extends z.ZodType>(schema: T, description: string) => schema.optional().meta({ description });
/** Required wrapper with a description. */
export const req = <T extends z.ZodType>(schema: T, description: string) => schema.meta({ description });

/** A request object: unknown keys are stripped, not rejected (the diagnostics warn about them). */
export const obj = <S extends z.core.$ZodLooseShape>(shape: S) => z.object(shape, { error: errorFor(MESSAGES.object) });
/**
 * A property the body must not carry, with the message saying why: a field of the other body of a PATCH that shares
 * its path (spec: Endpoints), which the request object would otherwise strip as unknown, silently. JSON Schema:
 * `not: {}` (the editor's completion schema leaves such a property out).
 */
export const forbidden = (message: string, description: string) => z.never({ error: message }).optional().meta({ description });
/** An array with the contract's "expected an array" message. */
export const arr = <T extends z.ZodType>(item: T) => z.array(item, { error: errorFor(MESSAGES.array) });

/** Four-digit year as a JSON number (spec: Vehicle: year 4-digit number). */
export const year = () =>
  z
    .number({ error: errorFor(MESSAGES.vehicleYear.replace('"2021"', '2021')) })
    .int({ error: 'four-digit year (e.g. 2021)' })
    .min(1000, { error: 'four-digit year (e.g. 2021)' })
    .max(9999, { error: 'four-digit year (e.g. 2021)' });
