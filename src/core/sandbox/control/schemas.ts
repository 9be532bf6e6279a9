import { z } from 'zod';
import { ApiError, type Issue } from '../ops/common';
import { FAULT_KINDS, JOURNAL_LIMIT, MAX_BODY_MATCHES, MAX_SCHEDULED_HITS, MAX_SEED_COUNT, MAX_TIMEOUT_MS } from './limits';

/**
 * The shapes of the control API's bodies and queries (docs/testing-your-application.md, Control API reference), as
 * strict zod objects: an unknown property or query parameter is refused like a bad value, with a 400 naming it
 * (`issues[].path`: the field, `query.<name>` for the query, `[i].<field>` in an array), so that a typo never
 * quietly becomes a default.
 */

/** One query value: a string given once. */
const once = z.string({ error: (i) => (i.input === undefined ? 'is required' : 'must be given once') });
const flag = once.pipe(z.enum(['true', 'false'], { error: 'must be true or false' }));
const bool = z.boolean({ error: 'must be true or false' });
const int = (min: number, max: number) => z.int({ error: 'must be an integer' }).min(min, `must be from ${min} to ${max} (the limit)`).max(max, `must be from ${min} to ${max} (the limit)`);
const text = z.string({ error: 'must be a string' }).min(1, 'must be a non-empty string').max(4096, 'must be at most 4096 characters');

/** Control calls that take no query parameter. */
export const noQuery = z.object({}).strict();

/** `POST /__tpp/reset`'s body (each may also be a query parameter `true`/`false`). */
export const resetBody = z
  .object({
    /** false: partners registered through `POST /__tpp/partners` are dropped too (default true). */
    keepPartners: bool.optional(),
    /** false: the partners the sandbox was started with are dropped too (default true: they are always restored). */
    keepStartupPartners: bool.optional(),
    /** false: the sample data loaded at start (`--seed`, `--seed-count`) is not loaded again (default true). */
    reloadSeed: bool.optional(),
  })
  .strict();
export const resetQuery = z.object({ keepPartners: flag.optional(), keepStartupPartners: flag.optional(), reloadSeed: flag.optional() }).strict();

/** `POST /__tpp/seed`: `?partner=`, and `{"count": n}` for sample data. */
export const seedQuery = z.object({ partner: once.optional() }).strict();
export const seedCountBody = z.object({ count: int(1, MAX_SEED_COUNT) }).strict();

/**
 * A journal filter on the request body: `body.` then a field path, in either notation (`body.invoiceNumber`,
 * `body.Registrations.0.ShopID`, `body.Registrations[0].ShopID`).
 */
export const BODY_FILTER = /^body\.[^.]+(\.[^.]+)*$/;

/** `GET /__tpp/requests`' named filters (values checked further by the journal); the descriptions are the OpenAPI export's. */
export const requestsFilters = {
  method: once
    .transform((m) => m.toUpperCase())
    .pipe(z.enum(['GET', 'POST', 'PATCH', 'PUT', 'DELETE'], { error: 'must be GET, POST, PATCH, PUT or DELETE' }))
    .optional()
    .meta({ description: 'HTTP method (any case)', enum: ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] }),
  path: once.optional().describe('Path pattern: * within a segment, ** across'),
  status: once.optional().describe('A code (503) or a class (5xx); 0: no answer was sent (a timeout or close fault)'),
  partner: once.optional().describe('Partner ID'),
  since: once.optional().meta({ description: 'Entries at or after this time (ISO 8601)', format: 'date-time' }),
  limit: once.optional().meta({ description: 'Entries answered (the total counts them all)', type: 'integer', minimum: 1, maximum: JOURNAL_LIMIT, default: 1000 }),
  fault: once
    .pipe(z.string().regex(/^(true|false|fault-rate|[1-9]\d{0,8})$/, "must be true, false, fault-rate or the id of a scheduled fault"))
    .optional()
    .meta({ description: 'true: entries answered by an injected fault (a delayMs alone included); false: the others; fault-rate: by --fault-rate; a number: by that scheduled fault (its id)', pattern: '^(true|false|fault-rate|[1-9][0-9]{0,8})$' }),
};

/**
 * `GET /__tpp/requests`' query: the named filters, and `body.<field path>=<value>` filters (at most
 * {@link MAX_BODY_MATCHES}); any other parameter is refused like an unknown property.
 */
export const requestsQuery = z
  .object(requestsFilters)
  .catchall(once)
  .superRefine((q, ctx) => {
    const unknown = Object.keys(q).filter((k) => !(k in requestsFilters) && !BODY_FILTER.test(k));
    if (unknown.length) ctx.addIssue({ code: 'unrecognized_keys', keys: unknown, input: q });
    const body = Object.keys(q).filter((k) => BODY_FILTER.test(k));
    if (body.length > MAX_BODY_MATCHES) ctx.addIssue({ code: 'custom', path: [body[MAX_BODY_MATCHES] as string], message: `at most ${MAX_BODY_MATCHES} body filters (the limit)`, input: q });
  });
/** One scheduled fault of `POST /__tpp/faults`. */
export const faultBody = z
  .object({
    method: z
      .string({ error: 'must be a string' })
      .transform((m) => m.toUpperCase())
      .pipe(z.enum(['*', 'GET', 'POST', 'PATCH', 'PUT', 'DELETE'], { error: 'must be GET, POST, PATCH, PUT, DELETE or *' }))
      .optional(),
    path: text,
    partner: text.optional(),
    body: z
      .record(z.string().min(1, 'must name a field').max(256), z.json(), { error: 'must be an object of field paths (a.b.c) and the values they must equal' })
      .refine((o) => Object.keys(o).length <= MAX_BODY_MATCHES, `must have at most ${MAX_BODY_MATCHES} fields (the limit)`)
      .optional(),
    fault: z.literal(FAULT_KINDS, { error: `must be one of ${FAULT_KINDS.map((k) => JSON.stringify(k)).join(', ')}` }).optional(),
    delayMs: int(0, MAX_TIMEOUT_MS).optional(),
    when: z.enum(['before', 'after-commit'], { error: "must be 'before' or 'after-commit'" }).optional(),
    times: int(1, MAX_SCHEDULED_HITS).optional(),
    probability: z.number({ error: 'must be a number from 0 to 1' }).gt(0, 'must be above 0 and at most 1').max(1, 'must be above 0 and at most 1').optional(),
    seed: int(0, 2 ** 31 - 1).optional(),
    retryAfter: int(0, 86_400).optional(),
    timeoutMs: int(0, MAX_TIMEOUT_MS).optional(),
  })
  .strict();

const seconds = z.number({ error: 'must be a number of seconds' }).refine(Number.isFinite, 'must be a number of seconds');
/** The moves of `POST /__tpp/clock`, at most one per call (checked by control/clockRoutes.ts). */
export const CLOCK_MOVES = ['at', 'offsetSeconds', 'advanceSeconds'] as const;
/**
 * `POST /__tpp/clock`: at most one move, and/or `freeze` (at least one of them; checked by control/clockRoutes.ts). The
 * descriptions are the OpenAPI export's (control/openapi.ts).
 */
export const clockBody = z
  .object({
    at: z.iso
      .datetime({ offset: true, error: 'must be an ISO 8601 time such as 2027-01-31T12:00:00Z' })
      .optional()
      .describe('Set the clock to this instant (ISO 8601, e.g. 2027-01-31T12:00:00Z)'),
    offsetSeconds: seconds.optional().describe('Set the clock to real time plus this many seconds (0: real time)'),
    advanceSeconds: seconds.optional().describe('Move the clock by this many seconds from where it is (negative: back)'),
    freeze: bool.optional().describe('true: hold the clock at one instant (after the move, if any) until unfrozen; false: let it run on from there'),
  })
  .strict();

/** `POST /__tpp/snapshots`: a name of letters, digits, `.`, `_` and `-` (it is also a path segment). */
export const snapshotName = z.string({ error: 'must be a string' }).regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be 1 to 64 letters, digits, ".", "_" or "-"');
export const snapshotBody = z.object({ name: snapshotName }).strict();

/** `GET /__tpp/records`' query (values checked further by control/records.ts). */
export const recordsQuery = z.object({ kind: once, partner: once.optional(), limit: once.optional(), after: once.optional() }).strict();

/** `POST /__tpp/partners`. */
export const partnersBody = z.object({ id: text, company_name: text.optional(), spki_pem: z.string({ error: 'must be a string' }).min(1, 'is required').max(65_536) }).strict();

/** Issues of a failed parse: an unknown property is one issue per property, at its own path. */
function issuesOf(err: z.ZodError, prefix: string): Issue[] {
  const out: Issue[] = [];
  for (const i of err.issues) {
    const at = i.path.map(String);
    if (i.code === 'unrecognized_keys') {
      for (const key of i.keys) out.push({ path: prefix + [...at, key].join('.'), message: 'is not a property of this call (its reference: tpp docs testing, Control API reference)' });
    } else {
      out.push({ path: prefix + at.join('.'), message: i.path.length === 0 && i.code === 'invalid_type' ? 'must be a JSON object' : i.message });
    }
  }
  return out;
}

/**
 * `value` parsed by `schema`. `prefix` goes before every issue path (`query.`, `[2].`).
 * @throws ApiError 400 `bad_request` naming every bad or unknown field.
 */
export function parseControl<S extends z.ZodType>(schema: S, value: unknown, prefix = ''): z.output<S> {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  const issues = issuesOf(parsed.error, prefix);
  throw new ApiError(400, 'bad_request', issues.map((i) => `${i.path || 'body'}: ${i.message}`).join('; '), issues);
}
