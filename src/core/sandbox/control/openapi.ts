import type { z } from 'zod';
import { toJsonSchema } from '../../contract/toJsonSchema';
import { MAX_CLOCK_OFFSET_MS } from './clock';
import { clockBody, requestsFilters } from './schemas';
import { CONTROL_CALL_NAMES, CONTROL_PREFIX, FAULT_KINDS, JOURNAL_LIMIT, MAX_BODY_MATCHES, MAX_FIXTURES, MAX_RECORDS_PAGE, MAX_SCHEDULED_HITS, MAX_SEED_COUNT, MAX_SNAPSHOTS, MAX_TIMEOUT_MS, RECORDS_PAGE } from './limits';

/**
 * The control API in OpenAPI 3 terms (docs/testing-your-application.md, Control API reference): the tag
 * "Sandbox control", its paths and the admin security scheme, for the OpenAPI export to merge in. Not part of the
 * partner interface: only the Local sandbox answers these paths.
 */

type Json = Record<string, unknown>;

export const CONTROL_TAG = 'Sandbox control';

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Json, description: string): Json => ({ description, content: { 'application/json': { schema } } });
const err = (description: string): Json => json(ref('TppControlError'), description);
const obj = (properties: Json, required: string[] = []): Json => ({ type: 'object', properties, ...(required.length ? { required } : {}) });
/** A request body's object: the sandbox refuses unknown properties (./schemas.ts). */
const strict = (properties: Json, required: string[] = []): Json => ({ ...obj(properties, required), additionalProperties: false });

/** A control operation: tag, summary, the admin token (all but health), and its 400/401 answers. */
function op(summary: string, extra: Json, responses: Json, open = false): Json {
  return {
    tags: [CONTROL_TAG],
    summary,
    ...(open ? { security: [] } : { security: [{ tppAdmin: [] }, {}] }),
    ...extra,
    responses: { ...responses, ...(open ? {} : { 401: err('The admin token is required (--admin-token) and was missing or wrong; nothing changed') }) },
  };
}

const q = (name: string, description: string, schema: Json = { type: 'string' }): Json => ({ name, in: 'query', required: false, description, schema });
/** A body's or a query parameter's JSON Schema from its zod schema in ./schemas.ts, the one source of both. */
const fromZod = (schema: z.ZodType): Json => toJsonSchema(schema, 'draft-2020-12');
/** Optional query parameters from a zod shape, each described by its schema's description. */
const queryOf = (shape: Record<string, z.ZodType>): Json[] =>
  Object.entries(shape).map(([name, schema]) => {
    const { description, ...rest } = fromZod(schema);
    return q(name, String(description ?? ''), rest);
  });

/** Where the control API answers: the sandbox's origin (`tpp sandbox` prints it), not under a base of the spec. */
const CONTROL_SERVER: Json = {
  url: '{sandbox_origin}',
  description: 'The Local sandbox (tpp sandbox prints its address): the control API is not part of the administrator\'s interface.',
  variables: { sandbox_origin: { default: 'http://127.0.0.1:28463', description: 'The sandbox origin, without /api/v3.' } },
};

/**
 * `{ paths, components, tag }` of the control API, each path item with the sandbox origin as its own server and each
 * operation with an operationId (`tppControl<Method><Path>`) and a description, as OpenAPI linters expect.
 */
export function controlOpenApi(): { paths: Record<string, Json>; components: { schemas: Json; securitySchemes: Json }; tag: { name: string; description: string } } {
  const { paths, components, tags } = controlDescription();
  const out: Record<string, Json> = {};
  for (const [path, item] of Object.entries(paths as Record<string, Record<string, Json>>)) {
    // snapshots/{name}/restore → SnapshotsByNameRestore
    const name = path
      .slice(CONTROL_PREFIX.length + 1)
      .split('/')
      .map((seg) => seg.replace(/^\{(.+)\}$/, 'by-$1'))
      .join('-')
      .replace(/(^|-)(.)/g, (_m, _d, c: string) => c.toUpperCase());
    const ops: Json = { servers: [CONTROL_SERVER] };
    for (const [method, operation] of Object.entries(item)) {
      ops[method] = { operationId: `tppControl${method[0]?.toUpperCase()}${method.slice(1)}${name}`, description: operation.summary, ...operation };
    }
    out[path] = ops;
  }
  return { paths: out, components, tag: tags[0] as { name: string; description: string } };
}

/**
 * The control API alone as an OpenAPI 3.1 document (`tpp openapi --interface control`): its reference wherever `tpp`
 * is installed, docs/ included or not (docs/testing-your-application.md, Control API reference). `version` is the
 * toolkit's.
 */
export function controlOpenApiDocument(version: string): Json {
  const { paths, components, tag } = controlOpenApi();
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tire Protection Partner Toolkit: Local sandbox control API',
      version,
      description:
        `The control API of tpp sandbox under /__tpp/, for an application's automated tests: ${CONTROL_CALL_NAMES.join(', ')} ` +
        '(readiness, reset, seeding, the request journal, scheduled faults, the clock, partners, named snapshots and the stored records). ' +
        'Bodies and queries are checked strictly (an unknown property is a 400 naming it; a body sent to a call that takes none too). On by default on a loopback --host; elsewhere only with --admin-token (health answers on every bind). ' +
        'Reference, fixture pattern per language and what each fault means for a client: tpp docs testing.',
    },
    servers: [CONTROL_SERVER],
    tags: [tag],
    paths,
    components,
  };
}

const FAULT: Json = strict(
  {
    method: { type: 'string', enum: ['*', 'GET', 'POST', 'PATCH', 'PUT', 'DELETE'], default: '*' },
    path: { type: 'string', description: 'Path pattern: * within a segment, ** across, e.g. /api/v3/tire-protection/registrations' },
    partner: { type: 'string', description: "Only this partner's requests (Partner ID)" },
    body: { type: 'object', maxProperties: MAX_BODY_MATCHES, description: 'Only requests whose JSON body has these values at these field paths, e.g. {"invoiceNumber": "INV-1", "customer.state": "CA"}' },
    fault: {
      description: 'A status; timeout or close (no answer); truncated-json or wrong-content-type (the real answer, processed and stored, then cut in its JSON or sent as text/html). Optional with delayMs.',
      oneOf: [{ type: 'integer', enum: FAULT_KINDS.filter((k) => typeof k === 'number') }, { type: 'string', enum: FAULT_KINDS.filter((k) => typeof k === 'string') }],
    },
    delayMs: { type: 'integer', minimum: 0, maximum: MAX_TIMEOUT_MS, description: 'Hold the answer back this long first; alone: slow, then the real answer' },
    times: { type: 'integer', minimum: 1, maximum: MAX_SCHEDULED_HITS, default: 1, description: 'Hits; with probability, the most hits (default: until cleared)' },
    probability: { type: 'number', exclusiveMinimum: 0, maximum: 1, description: 'The chance that a matching request is hit, instead of every one' },
    seed: { type: 'integer', minimum: 0, maximum: 2147483647, description: 'Seeds the draws of probability: the same seed, the same hits' },
    when: { type: 'string', enum: ['before', 'after-commit'], default: 'before' },
    retryAfter: { type: 'integer', minimum: 0, maximum: 86400, description: 'Retry-After seconds (default 1 with 429)' },
    timeoutMs: { type: 'integer', minimum: 0, maximum: MAX_TIMEOUT_MS, default: 30000 },
  },
  ['path'],
);

const p = (path: string) => `${CONTROL_PREFIX}/${path}`;

/** Health, reset and seed. */
function lifecyclePaths(): Json {
  const health = (status: string): Json => obj({ status: { type: 'string', enum: [status] }, version: { type: 'string' }, storage: { type: 'string', enum: ['memory', 'data-dir', 'postgres'] } }, ['status', 'version', 'storage']);
  const resetChoices: [string, string][] = [
    ['keepPartners', 'false drops the partners registered since start (POST partners)'],
    ['keepStartupPartners', 'false drops the partners the sandbox was started with (--partner); true restores their keys'],
    ['reloadSeed', 'false leaves out the sample data loaded at start (--seed, --seed-count)'],
  ];
  return {
    [p('health')]: {
      get: op('Readiness, version and storage kind (no token, on every bind)', {}, { 200: json(health('ready'), 'Ready'), 503: json(health('starting'), 'Starting (Retry-After: 1); ask again') }, true),
    },
    [p('reset')]: {
      post: op(
        'Back to the state the sandbox started in: records gone, journal and faults cleared, clock back to real time; startup partners and sample data back, partners registered since kept; snapshots kept',
        {
          parameters: resetChoices.map(([name, d]) => q(name, d, { type: 'boolean', default: true })),
          requestBody: { required: false, content: { 'application/json': { schema: strict(Object.fromEntries(resetChoices.map(([name, d]) => [name, { type: 'boolean', default: true, description: d }]))) } } },
        },
        { 200: json(obj({ reset: { type: 'boolean' }, keptPartners: { type: 'array', items: { type: 'string' } }, reloaded: { type: 'array', items: obj({ partner: { type: 'string' }, registrations: { type: 'integer' } }) }, ms: { type: 'number' } }), 'Done'), 400: err('An unknown or malformed choice, naming it') },
      ),
    },
    [p('seed')]: {
      post: op(
        'Load sample data ({"count": n}) or fixtures (a JSON array or NDJSON of payload files; no $schema: a tire-protection registration) in one transaction',
        {
          parameters: [q('partner', 'Partner ID (default: the only registered partner)')],
          requestBody: { content: { 'application/json': { schema: { oneOf: [strict({ count: { type: 'integer', minimum: 1, maximum: MAX_SEED_COUNT } }, ['count']), { type: 'array', maxItems: MAX_FIXTURES, items: { type: 'object' } }] } }, 'application/x-ndjson': { schema: { type: 'string' } } } },
        },
        { 201: json({ type: 'object' }, 'What was created'), 400: err('A bad count, fixture or partner, naming it'), 409: err('A fixture collides; nothing stored') },
      ),
    },
  };
}

/** Snapshots and stored records. */
function statePaths(): Json {
  const name: Json = { name: 'name', in: 'path', required: true, description: 'Snapshot name', schema: ref('TppSnapshotName') };
  const info = ref('TppSnapshot');
  return {
    [p('snapshots')]: {
      get: op('The snapshots kept, by name', {}, { 200: json(obj({ snapshots: { type: 'array', items: info } }), 'Snapshots') }),
      post: op(
        `Take (or replace) a named snapshot of every record, partner and id counter, in one statement (consistent while writes are in flight); kept in the sandbox's database: in memory, under --data-dir on disk, or on the --database server; at most ${MAX_SNAPSHOTS}`,
        { requestBody: { required: true, content: { 'application/json': { schema: strict({ name: ref('TppSnapshotName') }, ['name']) } } } },
        { 201: json(info, 'Taken'), 400: err('A bad name, an unknown property or the limit, naming it') },
      ),
    },
    [p('snapshots/{name}/restore')]: {
      post: op('Put every record back as the snapshot holds it (one transaction); startup partners keep their keys', { parameters: [name] }, { 200: json(info, 'Restored'), 404: err('No snapshot of that name') }),
    },
    [p('snapshots/{name}')]: {
      delete: op('Remove a snapshot', { parameters: [name] }, { 200: json(obj({ deleted: { type: 'string' } }), 'Removed'), 404: err('No snapshot of that name') }),
    },
    [p('records')]: {
      get: op(
        'Stored rows of one table (database column names), in primary-key order, one page at a time, without signing a partner request',
        { parameters: [{ ...q('kind', 'Table: registrations, claims, cancellations, motor_club, shops, parts, sales, transactions, partners'), required: true }, q('partner', 'Partner ID'), q('limit', 'Rows per page', { type: 'integer', minimum: 1, maximum: MAX_RECORDS_PAGE, default: RECORDS_PAGE }), q('after', 'The next of the page before')] },
        { 200: json(obj({ kind: { type: 'string' }, records: { type: 'array', items: { type: 'object' } }, next: { type: 'string' } }, ['kind', 'records']), 'One page'), 400: err('A bad query, naming it') },
      ),
    },
  };
}

/** The journal, the fault schedule, the clock and partners. */
function testAidPaths(): Json {
  return {
    [p('requests')]: {
      get: op(
        `The journal of partner requests (at most ${JOURNAL_LIMIT}), masked as tpp sandbox --log json, oldest first. Also body.<field path>=<value> (e.g. body.invoiceNumber=INV-1, body.Registrations.0.ShopID=S1; at most ${MAX_BODY_MATCHES}): the JSON request body's field equals the value (a string as text, anything else as its JSON text)`,
        { parameters: queryOf(requestsFilters) },
        { 200: json(obj({ total: { type: 'integer' }, entries: { type: 'array', items: { type: 'object' } } }), 'Matching entries'), 400: err('A bad filter or an unknown parameter, naming it') },
      ),
      delete: op('Empty the journal', {}, { 200: json(obj({ cleared: { type: 'integer' } }), 'Entries removed') }),
    },
    [p('faults')]: {
      get: op('Pending scheduled faults, in the order they are consumed', {}, { 200: json(obj({ faults: { type: 'array', items: ref('TppFault') } }), 'Schedule') }),
      post: op(
        `Schedule faults (one or an array; at most ${MAX_SCHEDULED_HITS} pending hits)`,
        { requestBody: { required: true, content: { 'application/json': { schema: { oneOf: [ref('TppFault'), { type: 'array', items: ref('TppFault') }] } } } } },
        { 201: json(obj({ scheduled: { type: 'array', items: ref('TppFault') } }), 'Scheduled'), 400: err('A malformed fault or the limit, naming the field') },
      ),
      delete: op('Drop every pending fault', {}, { 200: json(obj({ cleared: { type: 'integer' } }), 'Entries removed') }),
    },
    [p('clock')]: {
      get: op("The sandbox's time, its offset from real time and whether it is frozen", {}, { 200: json(ref('TppClock'), 'Clock') }),
      post: op(
        `Set the clock to an instant (at), to real time plus offsetSeconds (0 goes back), or move it by advanceSeconds (at most one of the three), and/or freeze it (true) or let it run (false); within ±${MAX_CLOCK_OFFSET_MS / 1000} s (10 years) of real time, never back before the newest stored record`,
        { requestBody: { required: true, content: { 'application/json': { schema: fromZod(clockBody) } } } },
        {
          200: json(ref('TppClock'), 'Clock'),
          400: err('A bad body, more than one move, or an instant beyond 10 years, naming the field'),
          409: json({ allOf: [ref('TppControlError'), obj({ newestRecord: { type: 'string', format: 'date-time' } }, ['newestRecord'])] }, 'The move would put the clock before the newest stored record (newestRecord: its creation); nothing changed. POST reset goes back to real time'),
        },
      ),
    },
    [p('partners')]: {
      post: op(
        'Register (or replace) a partner: Partner ID, version 2 name segment, public key (SPKI PEM: P-256, P-384, P-521)',
        { requestBody: { required: true, content: { 'application/json': { schema: strict({ id: { type: 'string' }, company_name: { type: 'string' }, spki_pem: { type: 'string' } }, ['id', 'spki_pem']) } } } },
        { 201: json(obj({ id: { type: 'string' }, company_name: { type: 'string' } }), 'Registered'), 400: err('A bad id or key, naming the field') },
      ),
    },
  };
}

function controlDescription(): { paths: Json; components: { schemas: Json; securitySchemes: Json }; tags: Json[] } {
  return {
    tags: [{ name: CONTROL_TAG, description: 'Local sandbox only: state of the sandbox for automated tests (tpp docs testing).' }],
    components: {
      securitySchemes: { tppAdmin: { type: 'http', scheme: 'bearer', description: 'The --admin-token of tpp sandbox (required off loopback)' } },
      schemas: {
        TppControlError: obj({ error: { type: 'string' }, statusCode: { type: 'integer' }, message: { type: 'string' }, issues: { type: 'array', items: obj({ path: { type: 'string' }, message: { type: 'string' } }) } }, ['error', 'statusCode']),
        TppFault: FAULT,
        TppClock: obj({ now: { type: 'string', format: 'date-time' }, offsetSeconds: { type: 'number', description: 'From real time (a frozen clock\'s grows as real time passes)' }, frozen: { type: 'boolean' } }, ['now', 'offsetSeconds', 'frozen']),
        TppSnapshotName: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,64}$' },
        TppSnapshot: obj({ name: { type: 'string' }, taken: { type: 'string', format: 'date-time' }, records: { type: 'object', additionalProperties: { type: 'integer' }, description: 'Rows per table' } }, ['name', 'taken', 'records']),
      },
    },
    paths: { ...lifecyclePaths(), ...statePaths(), ...testAidPaths() },
  };
}
