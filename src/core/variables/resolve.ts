import type { z } from 'zod';
import { PAYLOAD_KINDS } from '../contract/kinds';
import type { PayloadKind } from '../contract/types';
import { fieldName } from '../contract/paths';
import { schemaAt } from '../contract/schemaWalk';
import { wantsOf } from './wants';
import { isCaptureName, isCaptureRoot, type Captures } from './captures';
import { dynamicVariable, type DynamicContext } from './dynamic';
import { DYNAMIC_NAME_RE, NAME_RE, parseRefs, wholeRef, type VariableRef } from './syntax';

/**
 * Resolution of payload variables at send time. Spec: field types and formats of
 * ../shared/spec/partner-interface.md (Resources and their fields); the `{{…}}` syntax and dynamic values are
 * REST Client's (see syntax.ts, dynamic.ts).
 */

/** Where variable values come from. */
export interface VariableScope {
  /** Variables of the active environment, `$shared` merged under them (see {@link environmentVariables}). */
  readonly environment?: Readonly<Record<string, unknown>>;
  /** Values captured from earlier answers (see captureFromResponse). */
  readonly captured?: Captures;
  /** Clock of dynamic values (default: now). */
  readonly now?: Date;
  /** Random source in [0, 1) (default: Math.random). */
  readonly random?: () => number;
}

/** A variable that cannot be resolved. `message` names the field path and the reference. */
export class VariableError extends Error {
  override readonly name = 'VariableError';
  constructor(
    /** The reference as written: `{{$randomInt a}}`. */
    readonly variable: string,
    /** JSON path of the string holding it (`['Registrations', 0, 'TiresCovered']`). */
    readonly path: readonly (string | number)[],
    /** Why, one sentence without the path. */
    readonly reason: string,
  ) {
    super(`${fieldName(path)}: ${variable}: ${reason}`);
  }
}

/** How deep a variable of the setting may refer to others (`{"base": "INV-{{year}}"}`) before it is called circular. */
const MAX_DEPTH = 8;

/**
 * The variables of environment `env` from the `tpp.variables` setting's value
 * (`{ "$shared": {…}, "local": {…}, "sandbox": {…}, "production": {…} }`): `$shared`'s, overridden by the
 * environment's. Anything that is not an object is ignored.
 */
export function environmentVariables(setting: unknown, env: string): Record<string, unknown> {
  const obj = (v: unknown): Record<string, unknown> => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
  const all = obj(setting);
  return { ...obj(all.$shared), ...obj(all[env]) };
}

/** Reads `a.b.c` in an object: the flat key first (`"a.b.c"`), else the dotted path. */
export function readPath(obj: Readonly<Record<string, unknown>> | undefined, name: string): { found: boolean; value?: unknown } {
  if (!obj) return { found: false };
  if (Object.hasOwn(obj, name)) return { found: true, value: obj[name] };
  let v: unknown = obj;
  for (const part of name.split('.')) {
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, part)) return { found: false };
    v = (v as Record<string, unknown>)[part];
  }
  return { found: true, value: v };
}

/** The value of one reference (any JSON type); throws VariableError. */
function refValue(ref: VariableRef, path: readonly (string | number)[], scope: VariableScope, ctx: DynamicContext, depth: number): unknown {
  const fail = (reason: string) => new VariableError(ref.raw, path, reason);
  if (ref.name.startsWith('$')) {
    const dyn = DYNAMIC_NAME_RE.test(ref.name) ? dynamicVariable(ref.name) : undefined;
    if (!dyn) throw fail(`unknown dynamic value ${ref.name} (known: $guid, $timestamp, $datetime, $randomInt, $date)`);
    const bad = dyn.check(ref.args);
    if (bad) throw fail(bad);
    try {
      return dyn.generate(ref.args, ctx);
    } catch (err) {
      throw fail(err instanceof Error ? err.message : String(err));
    }
  }
  if (!NAME_RE.test(ref.name)) throw fail(ref.name ? `'${ref.name}' is not a variable name` : 'empty variable');
  if (ref.args.length) throw fail(`only dynamic values ($…) take arguments`);
  if (isCaptureRoot(ref.name)) {
    const [head, ...rest] = ref.name.split('.');
    const got = readPath(scope.captured?.[head!], rest.join('.'));
    if (!got.found || got.value === undefined || got.value === null) {
      throw fail(isCaptureName(ref.name) ? `no value yet: send a payload that creates it first (a 2xx create is captured as ${head})` : `${head} has no field ${rest.join('.')}`);
    }
    return got.value;
  }
  const got = readPath(scope.environment, ref.name);
  if (!got.found) throw fail('unknown variable: define it in the tpp.variables setting (under $shared or the environment)');
  if (typeof got.value === 'string' && got.value.includes('{{')) {
    if (depth >= MAX_DEPTH) throw fail('variables refer to each other in a circle (or more than 8 deep)');
    return resolveString(got.value, path, undefined, scope, ctx, depth + 1);
  }
  return got.value;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));

/**
 * The value of a string that is exactly one variable, typed for its field (docs/variables.md): a number where the
 * contract's `schema` wants a number or int (from numeric text), a string where it wants a string (from a number);
 * anything else as it is. `schema` undefined: the value as it is, numbers as text.
 */
export function asFieldType(v: unknown, schema: z.ZodType | undefined): unknown {
  const w = wantsOf(schema);
  if (typeof v === 'number' && !w.number) return String(v);
  if (typeof v === 'string' && w.number && !w.string && /^-?\d+(\.\d+)?$/.test(v)) return Number(v);
  return v;
}

/**
 * Resolves one string. A string that is exactly one reference takes the variable's type where the field wants it (a
 * number where the contract wants a number or int, a string where it wants a string); otherwise substitution is
 * textual.
 */
function resolveString(s: string, path: readonly (string | number)[], schema: z.ZodType | undefined, scope: VariableScope, ctx: DynamicContext, depth = 0): unknown {
  const whole = wholeRef(s);
  if (whole) {
    return asFieldType(refValue(whole, path, scope, ctx, depth), schema);
  }
  const refs = parseRefs(s);
  if (refs.length === 0) return s;
  let out = '';
  let at = 0;
  for (const ref of refs) {
    out += s.slice(at, ref.start) + text(refValue(ref, path, scope, ctx, depth));
    at = ref.end;
  }
  return out + s.slice(at);
}

/**
 * Resolves every `{{…}}` of a payload value (the file's JSON, meta properties included) at send time.
 *
 * @param value the parsed payload file.
 * @param kind its kind: the contract's field types decide the type of a string that is exactly one variable.
 * @param scope environment variables, captures, clock and random source.
 * @returns a new value with every reference replaced (strings without `{{` are kept as they are; `value` is not
 *   modified; top-level `$` meta data stays text). Each occurrence of a dynamic value is generated afresh.
 * @throws VariableError for an unknown or malformed variable, a capture with no value yet, or arguments out of bounds.
 */
export function resolvePayloadVariables(value: unknown, kind: PayloadKind | undefined, scope: VariableScope = {}): unknown {
  const ctx: DynamicContext = { now: scope.now ?? new Date(), random: scope.random ?? Math.random };
  const root = kind ? PAYLOAD_KINDS[kind].schema : undefined;
  const walk = (v: unknown, path: (string | number)[], schema: z.ZodType | undefined): unknown => {
    if (typeof v === 'string') return v.includes('{{') ? resolveString(v, path, schema, scope, ctx) : v;
    if (Array.isArray(v)) return v.map((x, i) => walk(x, [...path, i], schema ? childSchema(schema, i) : undefined));
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = walk(x, [...path, k], schema && !(path.length === 0 && k.startsWith('$')) ? childSchema(schema, k) : undefined);
      return out;
    }
    return v;
  };
  const out = walk(value, [], root);
  // Meta data (`$registrationId`, `$uniqueId`) fills paths and queries: text, whatever the variable's type.
  if (out !== null && typeof out === 'object' && !Array.isArray(out)) {
    const o = out as Record<string, unknown>;
    for (const k of Object.keys(o)) if (k.startsWith('$') && typeof o[k] === 'number') o[k] = String(o[k]);
  }
  return out;
}

/** The schema of a child (property or item), from schemaWalk's view of the schema. */
const childSchema = (schema: z.ZodType, seg: string | number): z.ZodType | undefined => schemaAt(schema, [seg]);

/** The variable names a value uses (`$guid`, `lastRegistration.id`), each once, in order of first use. */
export function variablesUsed(value: unknown): string[] {
  const names = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === 'string') {
      for (const r of parseRefs(v)) if (r.name) names.add(r.name);
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(value);
  return [...names];
}
