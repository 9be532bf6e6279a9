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
 * The predicate never replaces zod's issues: when it answers false, zod runs and reports. A property
 * test checks that it agrees with `safeParse(...).success` on mutated payloads of every kind.
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

const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;
const optionalIn = (s: z.ZodType): boolean => (s as unknown as { _zod: { optin?: string } })._zod.optin === 'optional';

/** A predicate for one check of a string, number or array schema. */
function compileCheck(c: CheckDef, kind: 'string' | 'number' | 'array' | 'other'): Accept {
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
      return (v) => {
        c.pattern!.lastIndex = 0;
        return c.pattern!.test(v as string);
      };
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
        const p = def.pattern;
        base = (v) => {
          if (typeof v !== 'string') return false;
          p.lastIndex = 0;
          return p.test(v);
        };
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
      return withChecks((v) => options.some((o) => o(v)), def, 'other');
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
      const keys = entries.map(([k]) => k);
      const accepts = entries.map(([, s]) => compile(s, depth + 1));
      const optional = entries.map(([, s]) => optionalIn(s));
      const known = new Set(keys);
      const n = keys.length;
      return withChecks(
        (v) => {
          if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
          const o = v as Record<string, unknown>;
          for (let i = 0; i < n; i++) {
            const x = o[keys[i]!];
            if (x === undefined && !optional[i]) return false;
            if (!accepts[i]!(x)) return false;
          }
          if (strict) for (const k in o) if (!known.has(k)) return false;
          return true;
        },
        def,
        'other',
      );
    }
  }
  throw new Unsupported(`type ${def.type}`);
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

/** A zod issue with its path from the value passed to {@link localizedIssues}. */
export interface LocatedIssue {
  readonly code: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly [k: string]: unknown;
}

/**
 * zod's issues for `value`, computed only where the accept-only predicates fail: the walk descends into
 * plain objects (no object-level checks, not strict) and arrays (whose own checks pass), and runs zod's
 * `safeParse` on each smallest failing part, prefixing the issues' paths. For 100 bad records in a
 * 10 MB array, zod sees 100 records instead of the whole array. The issues are the ones zod gives for
 * the whole value (same paths, codes and messages), in document order.
 */
export function localizedIssues(schema: z.ZodType, value: unknown, path: readonly PropertyKey[] = []): LocatedIssue[] {
  const accept = compileAccept(schema);
  if (accept) {
    let ok = false;
    try {
      ok = accept(value);
    } catch {
      return zodIssues(schema, value, path);
    }
    if (ok) return [];
    let s = schema;
    let def = defOf(s);
    while ((def.type === 'optional' || def.type === 'nullable' || def.type === 'default' || def.type === 'prefault' || def.type === 'readonly') && value !== undefined && value !== null && !def.checks?.length) {
      s = def.innerType!;
      def = defOf(s);
    }
    if (def.type === 'object' && !def.checks?.length && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const catchall = def.catchall ? defOf(def.catchall).type : undefined;
      if (catchall === undefined || catchall === 'unknown') {
        const out: LocatedIssue[] = [];
        for (const [k, child] of Object.entries(def.shape ?? {})) append(out, localizedIssues(child, (value as Record<string, unknown>)[k], [...path, k]));
        return out;
      }
    }
    if (def.type === 'array' && Array.isArray(value) && def.element) {
      const own = (def.checks ?? []).map((c) => compileCheck(c._zod.def, 'array'));
      if (own.every((c) => c(value))) {
        const out: LocatedIssue[] = [];
        const el = compileAccept(def.element);
        for (let i = 0; i < value.length; i++) if (!el || !el(value[i])) append(out, localizedIssues(def.element, value[i], [...path, i]));
        return out;
      }
    }
  }
  return zodIssues(schema, value, path);
}

/** Appends `items` to `out` one by one: `out.push(...items)` overflows the stack beyond ~100,000 items. */
function append<T>(out: T[], items: readonly T[]): void {
  for (let i = 0; i < items.length; i++) out.push(items[i]!);
}

function zodIssues(schema: z.ZodType, value: unknown, path: readonly PropertyKey[]): LocatedIssue[] {
  const r = schema.safeParse(value);
  if (r.success) return [];
  const issues = r.error.issues as unknown as LocatedIssue[];
  return path.length === 0 ? issues : issues.map((i) => ({ ...i, path: [...path, ...i.path] }));
}
