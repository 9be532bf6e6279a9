import type { z } from 'zod';
import type { ZodDef } from './schemaWalk';

/**
 * Accept-only fast path for zod schemas (performance design of the diagnostics pipeline).
 *
 * zod's `safeParse` of the contract's request schemas costs 13-25 ms per MB of v2 Registrations (unions,
 * refinements and transforms per field), several times JSON.parse. Most documents are valid most of the
 * time, so this module compiles a zod schema into a plain predicate that answers one question: does
 * zod accept this value? It is read off the schema's own definitions (no rule is written twice):
 * string/number/boolean/enum/literal/null, length, pattern and integer checks, refinements (`refine`
 * functions are called as zod calls them), optional/nullable/default/readonly, unions, pipes into
 * transforms, arrays and plain objects. Anything else (records, tuples, coercion, superRefine, formats
 * without a pattern, ...) makes {@link compileAccept} return undefined, and the caller always uses zod.
 *
 * The predicate never replaces zod's issues: when it answers false, zod runs and reports, on the failing
 * parts only (localizedIssues.ts). A property test checks that it agrees with `safeParse(...).success` on
 * mutated payloads of every kind.
 */

export type Accept = (value: unknown) => boolean;

interface CheckDef {
  check?: string;
  type?: string;
  format?: string;
  pattern?: RegExp;
  minimum?: number;
  maximum?: number;
  length?: number;
  value?: number;
  inclusive?: boolean;
  fn?: (v: unknown) => unknown;
}

interface Def extends Omit<ZodDef, 'type'>, CheckDef {
  type: string;
  checks?: { _zod: { def: CheckDef } }[];
  coerce?: boolean;
}

class Unsupported extends Error {}

/** The internal definition of a zod 4 schema (`schema._zod.def`; zod is pinned exactly, zodInternals.test.ts guards it). */
export const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;
const optionalIn = (s: z.ZodType): boolean => (s as unknown as { _zod: { optin?: string } })._zod.optin === 'optional';

/** `pattern.test`, from the start of the string also for a global or sticky pattern (as zod tests). */
function patternTest(pattern: RegExp): Accept {
  if (!pattern.global && !pattern.sticky) return (v) => pattern.test(v as string);
  return (v) => {
    pattern.lastIndex = 0;
    return pattern.test(v as string);
  };
}

/** A predicate for one check of a string, number or array schema (throws for a check it does not understand). */
export function compileCheck(c: CheckDef, kind: 'string' | 'number' | 'array' | 'other'): Accept {
  switch (c.check) {
    case 'min_length':
      if (kind !== 'string' && kind !== 'array') break;
      return (v) => (v as { length: number }).length >= c.minimum!;
    case 'max_length':
      if (kind !== 'string' && kind !== 'array') break;
      return (v) => (v as { length: number }).length <= c.maximum!;
    case 'length_equals':
      if (kind !== 'string' && kind !== 'array') break;
      return (v) => (v as { length: number }).length === c.length!;
    case 'string_format':
      if (kind !== 'string' || !(c.pattern instanceof RegExp)) break;
      return patternTest(c.pattern);
    case 'number_format':
      if (kind !== 'number' || c.format !== 'safeint') break;
      return (v) => Number.isSafeInteger(v);
    case 'greater_than':
      if (kind !== 'number') break;
      return c.inclusive ? (v) => (v as number) >= c.value! : (v) => (v as number) > c.value!;
    case 'less_than':
      if (kind !== 'number') break;
      return c.inclusive ? (v) => (v as number) <= c.value! : (v) => (v as number) < c.value!;
    case 'custom':
      // .refine(fn): zod accepts when fn(value) is truthy (a Promise would need parseAsync: unsupported).
      if (c.type !== 'custom' || typeof c.fn !== 'function') break;
      return (v) => {
        const r = c.fn!(v);
        if (r instanceof Promise) throw new Unsupported();
        return Boolean(r);
      };
  }
  throw new Unsupported(`check ${c.check ?? '?'}`);
}

function withChecks(base: Accept, def: Def, kind: 'string' | 'number' | 'array' | 'other'): Accept {
  const checks = (def.checks ?? []).map((c) => compileCheck(c._zod.def, kind));
  if (checks.length === 0) return base;
  if (checks.length === 1) {
    const only = checks[0]!;
    return (v) => base(v) && only(v);
  }
  const n = checks.length;
  return (v) => {
    if (!base(v)) return false;
    for (let i = 0; i < n; i++) if (!checks[i]!(v)) return false;
    return true;
  };
}

function compile(schema: z.ZodType, depth: number): Accept {
  if (depth > 64) throw new Unsupported('depth');
  const def = defOf(schema);
  if (def.coerce) throw new Unsupported('coerce');
  switch (def.type) {
    case 'string': {
      let base: Accept = (v) => typeof v === 'string';
      if (def.format !== undefined) {
        // z.email() and friends: the schema is its own string_format check.
        if (!(def.pattern instanceof RegExp)) throw new Unsupported(`format ${def.format}`);
        const test = patternTest(def.pattern);
        base = (v) => typeof v === 'string' && test(v);
      }
      return withChecks(base, def, 'string');
    }
    case 'number':
      if (def.format !== undefined && def.format !== 'safeint') throw new Unsupported(`number format ${def.format}`);
      return withChecks(def.format === 'safeint' ? (v) => Number.isSafeInteger(v) : (v) => typeof v === 'number' && Number.isFinite(v), def, 'number');
    case 'boolean':
      return withChecks((v) => typeof v === 'boolean', def, 'other');
    case 'null':
      return (v) => v === null;
    case 'any':
    case 'unknown':
      return withChecks(() => true, def, 'other');
    case 'enum': {
      const allowed = new Set(Object.values(def.entries ?? {}));
      return withChecks((v) => allowed.has(v), def, 'other');
    }
    case 'literal': {
      const allowed = new Set(def.values ?? []);
      return withChecks((v) => allowed.has(v), def, 'other');
    }
    case 'optional': {
      const inner = compile(def.innerType!, depth + 1);
      return withChecks((v) => v === undefined || inner(v), def, 'other');
    }
    case 'nullable': {
      const inner = compile(def.innerType!, depth + 1);
      return withChecks((v) => v === null || inner(v), def, 'other');
    }
    case 'default':
    case 'prefault': {
      const inner = compile(def.innerType!, depth + 1);
      return withChecks((v) => v === undefined || inner(v), def, 'other');
    }
    case 'readonly':
    case 'nonoptional': {
      const inner = compile(def.innerType!, depth + 1);
      return def.type === 'nonoptional' ? (v) => v !== undefined && inner(v) : inner;
    }
    case 'lazy':
      return compile(def.getter!(), depth + 1);
    case 'pipe': {
      // Only a pipe into a transform (whose output is not validated further) is understood.
      if (!def.out || defOf(def.out).type !== 'transform' || !def.in) throw new Unsupported('pipe');
      return compile(def.in, depth + 1);
    }
    case 'union': {
      const options = (def.options ?? []).map((o) => compile(o, depth + 1));
      const n = options.length;
      return withChecks(
        (v) => {
          for (let i = 0; i < n; i++) if (options[i]!(v)) return true;
          return false;
        },
        def,
        'other',
      );
    }
    case 'intersection': {
      const l = compile(def.left!, depth + 1);
      const r = compile(def.right!, depth + 1);
      return (v) => l(v) && r(v);
    }
    case 'array': {
      const el = compile(def.element!, depth + 1);
      return withChecks(
        (v) => {
          if (!Array.isArray(v)) return false;
          for (let i = 0; i < v.length; i++) if (!el(v[i])) return false;
          return true;
        },
        def,
        'array',
      );
    }
    case 'object': {
      const catchall = def.catchall ? defOf(def.catchall).type : undefined;
      if (catchall !== undefined && catchall !== 'never' && catchall !== 'unknown') throw new Unsupported('catchall');
      const strict = catchall === 'never';
      const entries = Object.entries(def.shape ?? {});
      return withChecks(
        objectAccept(
          entries.map(([k]) => k),
          entries.map(([, s]) => compile(s, depth + 1)),
          entries.map(([, s]) => optionalIn(s)),
          strict,
        ),
        def,
        'other',
      );
    }
  }
  throw new Unsupported(`type ${def.type}`);
}

/**
 * The predicate of a plain object schema, written out per schema: one property read by name and one call of
 * that property's own predicate per line, so each read and call site sees a single shape and function (V8
 * caches and inlines them) instead of one loop reading 25 names through the same site. Only the property
 * names enter the code, as JSON string literals; the predicates are passed in.
 */
function objectAccept(keys: readonly string[], accepts: readonly Accept[], optional: readonly boolean[], strict: boolean): Accept {
  const names = accepts.map((_, i) => `a${i}`);
  const body = [
    'return function accept(o) {',
    '  if (o === null || typeof o !== "object" || Array.isArray(o)) return false;',
    '  let x;',
    ...keys.map((k, i) => `  x = o[${JSON.stringify(k)}]; if (${optional[i] ? '' : 'x === undefined || '}!${names[i]}(x)) return false;`),
    strict ? '  for (const k in o) if (!known.has(k)) return false;' : '',
    '  return true;',
    '};',
  ].join('\n');
  return new Function('known', ...names, body)(new Set(keys), ...accepts) as Accept;
}

const cache = new WeakMap<z.ZodType, Accept | null>();

/**
 * The accept-only predicate of `schema`, or undefined when the schema uses something this module does
 * not understand (then always use zod). Cached per schema. A predicate that meets an async refinement
 * throws; callers treat a throw as "unknown" and use zod.
 */
export function compileAccept(schema: z.ZodType): Accept | undefined {
  const cached = cache.get(schema);
  if (cached !== undefined) return cached ?? undefined;
  let accept: Accept | null;
  try {
    accept = compile(schema, 0);
  } catch (err) {
    if (!(err instanceof Unsupported)) throw err;
    accept = null;
  }
  cache.set(schema, accept);
  return accept ?? undefined;
}
