import type { z } from 'zod';
import { ENDPOINTS } from '../contract';
import { BASE_PREFIX } from './addresses';
import type { EndpointDef } from '../contract';
import { ApiError, Issue, MAX_PAGE_SIZE } from './ops/common';

/**
 * Request parsing of the Local sandbox, driven by the contract's endpoint table (spec: Endpoints): routes grouped
 * by method and path, queries and bodies validated with the endpoint's zod schemas, 400 answers naming each bad
 * field.
 */

/** Path prefix of each base under the sandbox origin: v3 at /api/v3, v2 at the origin, eligibility at /api/v1. */
export { BASE_PREFIX };

/** Zod issues as `{path, message}` with dotted paths prefixed by `prefix` (e.g. "query."). */
export function zodIssues(err: z.ZodError, prefix = ''): Issue[] {
  const out: Issue[] = [];
  const seen = new Set<string>();
  for (const i of flatten(err.issues as readonly RawIssue[], [])) {
    const path = prefix + i.path.join('.');
    const key = `${path}\u0000${i.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push({ path, message: i.message });
    }
  }
  return out;
}

interface RawIssue {
  readonly code?: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly errors?: readonly (readonly RawIssue[])[];
}

/**
 * Replaces each union failure by the issues of the branch that got furthest (deepest issue path), so that
 * `{"Registrations":[{…bad…}]}` reports the bad Registrations fields rather than "no union branch matched".
 * When every branch fails at the same depth (none fits), all their issues are kept.
 */
function flatten(issues: readonly RawIssue[], base: readonly PropertyKey[]): { path: string[]; message: string }[] {
  const out: { path: string[]; message: string }[] = [];
  for (const i of issues) {
    const path = [...base, ...i.path];
    if (i.code === 'invalid_union' && i.errors && i.errors.length > 0) {
      const depth = (branch: readonly RawIssue[]) => Math.max(0, ...branch.map((x) => x.path.length));
      const best = Math.max(...i.errors.map(depth));
      const chosen = i.errors.filter((branch) => depth(branch) === best);
      if (best > 0 || chosen.length < i.errors.length) {
        for (const branch of chosen.length === i.errors.length ? chosen : chosen.slice(0, 1)) out.push(...flatten(branch, path));
        continue;
      }
    }
    out.push({ path: path.map(String), message: i.message });
  }
  return out;
}

/** Endpoints grouped by method and full path (motor-club PATCH update and cancel share one). */
export function routeGroups(): Map<string, EndpointDef[]> {
  const groups = new Map<string, EndpointDef[]>();
  for (const e of Object.values(ENDPOINTS) as EndpointDef[]) {
    const key = `${e.method} ${BASE_PREFIX[e.base]}${e.path}`;
    const g = groups.get(key);
    if (g) g.push(e);
    else groups.set(key, [e]);
  }
  return groups;
}

/** A raw query value by name, trying the aliases and then a case-insensitive match. */
function rawQuery(query: Record<string, unknown>, name: string, aliases: readonly string[] = []): unknown {
  for (const n of [name, ...aliases]) if (query[n] !== undefined) return query[n];
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(query)) if (k.toLowerCase() === lower) return v;
  return undefined;
}

/**
 * Validates the query of `e`: each declared parameter is taken (with its aliases, case-insensitively),
 * defaulted, and parsed with its schema. Returns the parsed values or throws a 400 naming every bad parameter.
 */
export function parseQuery(e: EndpointDef, query: Record<string, unknown>): Record<string, unknown> {
  // Eligibility lookup: "If vin, licensePlate and state are all sent, only vin is used."
  const vin = e.base === 'eligibility' ? rawQuery(query, 'vin') : undefined;
  if (vin !== undefined) query = { vin };
  const out: Record<string, unknown> = {};
  const issues: Issue[] = [];
  for (const [name, def] of Object.entries(e.query)) {
    let raw = rawQuery(query, name, def.aliases);
    if (raw === undefined && def.default !== undefined) raw = String(def.default);
    if (raw === undefined) {
      if (def.required) issues.push({ path: `query.${name}`, message: 'required query parameter is missing' });
      continue;
    }
    if (Array.isArray(raw)) {
      issues.push({ path: `query.${name}`, message: 'given more than once' });
      continue;
    }
    const r = def.schema.safeParse(raw);
    if (r.success) out[name] = r.data;
    else for (const i of zodIssues(r.error)) issues.push({ path: i.path ? `query.${name}.${i.path}` : `query.${name}`, message: i.message });
  }
  if (typeof out.pageSize === 'number' && out.pageSize > MAX_PAGE_SIZE) {
    issues.push({ path: 'query.pageSize', message: `at most ${MAX_PAGE_SIZE}` });
  }
  if (issues.length > 0) throw new ApiError(400, 'bad_request', `Invalid query: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues);
  return out;
}

/**
 * Picks the endpoint of a group for this body and validates it. The motor-club PATCH forms share method and path and
 * are told apart by the body's required property (`customer` or `cancelledOn`; spec: Endpoints). Each body refuses the
 * other's property (the contract's `forbidden`), so a body carrying both is a 400 naming why, never half applied; a
 * body carrying neither is a 400 naming the accepted shapes.
 */
export function chooseAndParseBody(group: readonly EndpointDef[], body: unknown): { endpoint: EndpointDef; body: unknown } {
  const first = group[0] as EndpointDef;
  if (group.length === 1) {
    if (!first.body) return { endpoint: first, body: undefined };
    return { endpoint: first, body: parseBody(first.body, body) };
  }
  const keys = body !== null && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : [];
  const chosen = group.find((e) => requiredKeys(e).some((k) => keys.includes(k)));
  if (chosen) return { endpoint: chosen, body: chosen.body ? parseBody(chosen.body, body) : undefined };
  if (body === undefined) return { endpoint: first, body: first.body ? parseBody(first.body, body) : undefined };
  const shapes = group.map((e) => `{${requiredKeys(e).join(', ')}} (${e.summary.replace(/\.$/, '')})`);
  const message = `the body matches none of the accepted shapes: ${shapes.join(' or ')}`;
  throw new ApiError(400, 'bad_request', `Invalid body: ${message}`, [{ path: '', message }]);
}

/** The required top-level properties of an endpoint's body schema (a zod object's non-optional keys). */
function requiredKeys(e: EndpointDef): string[] {
  const shape = (e.body as unknown as { shape?: Record<string, { _zod?: { optin?: string } }> } | undefined)?.shape ?? {};
  return Object.entries(shape)
    .filter(([, s]) => s._zod?.optin !== 'optional')
    .map(([k]) => k);
}

function parseBody(schema: z.ZodType, body: unknown): unknown {
  if (body === undefined) throw new ApiError(400, 'bad_request', 'A JSON body is required (Content-Type: application/json)', [{ path: '', message: 'body is missing' }]);
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  const issues = zodIssues(r.error);
  throw new ApiError(400, 'bad_request', `Invalid body: ${issues.map((i) => `${i.path || '(body)'}: ${i.message}`).join('; ')}`, issues);
}

/** Success statuses already worked out, per endpoint: the contract is fixed, and a read is asked for per request. */
const SUCCESS = new WeakMap<EndpointDef, number>();

/** Success status of an endpoint: the endpoint table's `sandboxStatus`, else the lowest 2xx of its contract responses. */
export function successStatus(e: EndpointDef): number {
  let status = SUCCESS.get(e);
  if (status === undefined) {
    const codes = Object.keys(e.responses)
      .map(Number)
      .filter((c) => c >= 200 && c < 300)
      .sort((a, b) => a - b);
    status = e.sandboxStatus ?? codes[0] ?? 200;
    SUCCESS.set(e, status);
  }
  return status;
}
