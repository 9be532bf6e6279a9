import type { z } from 'zod';
import { Gen as CodeGen } from '../contract/codegen';
import type { ZodDef } from '../contract/schemaWalk';

/**
 * Accept-only fast path for zod schemas (performance design of the diagnostics pipeline).
 *
 * zod's `safeParse` of the contract's request schemas costs 13-25 ms per MB of v2 Registrations (unions,
 * refinements and transforms per field), several times JSON.parse. Most documents are valid most of the
 * time, so this module compiles a zod schema into a plain predicate that answers one question: does
 * zod accept this value? The predicate is generated JavaScript (codegen.ts): one function per object or
 * array schema, each check an inline expression, patterns and refinement functions passed in as they are.
 * It is read off the schema's own definitions (no rule is written twice):
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

type Gen = CodeGen<z.ZodType>;

/** The internal definition of a zod 4 schema (`schema._zod.def`; zod is pinned exactly, zodInternals.test.ts guards it). */
export const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;
const optionalIn = (s: z.ZodType): boolean => (s as unknown as { _zod: { optin?: string } })._zod.optin === 'optional';

/** A refinement's result as zod reads it: truthy passes; a Promise needs parseAsync, which this path does not model. */
function refined(r: unknown): boolean {
  if (r instanceof Promise) throw new Unsupported('async refinement');
  return Boolean(r);
}

/** `pattern.test(v)`, from the start of the string also for a global or sticky pattern (as zod tests). */
function patternExpr(pattern: RegExp, v: string, g: Gen): string {
  const r = g.ref(pattern);
  return pattern.global || pattern.sticky ? `(${r}.lastIndex = 0, ${r}.test(${v}))` : `${r}.test(${v})`;
}

/** The expression of one check of a string, number or array schema over `v` (throws for a check it does not understand). */
function checkExpr(c: CheckDef, kind: 'string' | 'number' | 'array' | 'other', v: string, g: Gen): string {
  const sized = kind === 'string' || kind === 'array';
  switch (c.check) {
    case 'min_length':
      if (sized) return `${v}.length >= ${g.ref(c.minimum)}`;
      break;
    case 'max_length':
      if (sized) return `${v}.length <= ${g.ref(c.maximum)}`;
      break;
    case 'length_equals':
      if (sized) return `${v}.length === ${g.ref(c.length)}`;
      break;
    case 'string_format':
      if (kind === 'string' && c.pattern instanceof RegExp) return patternExpr(c.pattern, v, g);
      break;
    case 'number_format':
      if (kind === 'number' && c.format === 'safeint') return `Number.isSafeInteger(${v})`;
      break;
    case 'greater_than':
      if (kind === 'number') return `${v} ${c.inclusive ? '>=' : '>'} ${g.ref(c.value)}`;
      break;
    case 'less_than':
      if (kind === 'number') return `${v} ${c.inclusive ? '<=' : '<'} ${g.ref(c.value)}`;
      break;
    case 'custom':
      // .refine(fn): zod accepts when fn(value) is truthy (a Promise would need parseAsync: unsupported).
      if (c.type === 'custom' && typeof c.fn === 'function') return `((t = ${g.ref(c.fn)}(${v})) === true || (t !== false && ${g.ref(refined)}(t)))`;
      break;
  }
  throw new Unsupported(`check ${c.check ?? '?'}`);
}

/** `base` and then each of the schema's own checks, in zod's order, stopping at the first that fails. */
function withChecks(base: string, def: Def, kind: 'string' | 'number' | 'array' | 'other', v: string, g: Gen): string {
  const checks = (def.checks ?? []).map((c) => checkExpr(c._zod.def, kind, v, g));
  return checks.length === 0 ? base : `(${[base, ...checks].join(' && ')})`;
}

/** A test of `v` against literal values: `===` for strings (written as JSON), a Set (SameValueZero, as zod) for the rest. */
function oneOf(values: readonly unknown[], v: string, g: Gen): string {
  if (values.length > 0 && values.length <= 8 && values.every((x) => typeof x === 'string')) return `(${values.map((x) => `${v} === ${JSON.stringify(x)}`).join(' || ')})`;
  return `${g.ref(new Set(values))}.has(${v})`;
}

/** The boolean expression over the identifier `v` that is true when zod accepts its value. */
function expr(schema: z.ZodType, v: string, g: Gen, depth: number): string {
  if (depth > 64) throw new Unsupported('depth');
  const def = defOf(schema);
  if (def.coerce) throw new Unsupported('coerce');
  switch (def.type) {
    case 'string': {
      let base = `typeof ${v} === "string"`;
      if (def.format !== undefined) {
        // z.email() and friends: the schema is its own string_format check.
        if (!(def.pattern instanceof RegExp)) throw new Unsupported(`format ${def.format}`);
        base = `(${base} && ${patternExpr(def.pattern, v, g)})`;
      }
      return withChecks(base, def, 'string', v, g);
    }
    case 'number':
      if (def.format !== undefined && def.format !== 'safeint') throw new Unsupported(`number format ${def.format}`);
      return withChecks(def.format === 'safeint' ? `Number.isSafeInteger(${v})` : `(typeof ${v} === "number" && Number.isFinite(${v}))`, def, 'number', v, g);
    case 'boolean':
      return withChecks(`typeof ${v} === "boolean"`, def, 'other', v, g);
    case 'null':
      return `${v} === null`;
    case 'never':
      return 'false';
    case 'any':
    case 'unknown':
      return withChecks('true', def, 'other', v, g);
    case 'enum':
      return withChecks(oneOf(Object.values(def.entries ?? {}), v, g), def, 'other', v, g);
    case 'literal':
      return withChecks(oneOf(def.values ?? [], v, g), def, 'other', v, g);
    case 'optional':
    case 'default':
    case 'prefault':
      return withChecks(`(${v} === undefined || ${expr(def.innerType!, v, g, depth + 1)})`, def, 'other', v, g);
    case 'nullable':
      return withChecks(`(${v} === null || ${expr(def.innerType!, v, g, depth + 1)})`, def, 'other', v, g);
    case 'readonly':
      return expr(def.innerType!, v, g, depth + 1);
    case 'nonoptional':
      return `(${v} !== undefined && ${expr(def.innerType!, v, g, depth + 1)})`;
    case 'lazy':
      return expr(def.getter!(), v, g, depth + 1);
    case 'pipe':
      // Only a pipe into a transform (whose output is not validated further) is understood.
      if (!def.out || defOf(def.out).type !== 'transform' || !def.in) throw new Unsupported('pipe');
      return expr(def.in, v, g, depth + 1);
    case 'union': {
      const options = (def.options ?? []).map((o) => expr(o, v, g, depth + 1));
      return withChecks(options.length ? `(${options.join(' || ')})` : 'false', def, 'other', v, g);
    }
    case 'intersection':
      return `(${expr(def.left!, v, g, depth + 1)} && ${expr(def.right!, v, g, depth + 1)})`;
    case 'array': {
      const name = g.fn(schema, () =>
        [
          '  if (!Array.isArray(v)) return false;',
          ...(def.checks ?? []).map((c) => `  if (!(${checkExpr(c._zod.def, 'array', 'v', g)})) return false;`),
          `  for (let i = 0; i < v.length; i++) { x = v[i]; if (!(${expr(def.element!, 'x', g, depth + 1)})) return false; }`,
          '  return true;',
        ].join('\n'),
      );
      return `${name}(${v})`;
    }
    case 'object': {
      const catchall = def.catchall ? defOf(def.catchall).type : undefined;
      if (catchall !== undefined && catchall !== 'never' && catchall !== 'unknown') throw new Unsupported('catchall');
      const entries = Object.entries(def.shape ?? {});
      const name = g.fn(schema, () => objectBody(entries, catchall === 'never', g, depth));
      return withChecks(`${name}(${v})`, def, 'other', v, g);
    }
  }
  throw new Unsupported(`type ${def.type}`);
}

/**
 * The body of a plain object schema's function: one property read by name and one inline test per line, so
 * each read sees a single shape (V8 caches it) and no predicate is called through a shared site. Only the
 * property names enter the code, as JSON string literals.
 */
function objectBody(entries: readonly (readonly [string, z.ZodType])[], strict: boolean, g: Gen, depth: number): string {
  const lines = ['  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;'];
  for (const [k, s] of entries) {
    const test = expr(s, 'x', g, depth + 1);
    lines.push(`  x = v[${JSON.stringify(k)}]; if (${optionalIn(s) ? '' : 'x === undefined || '}!(${test})) return false;`);
  }
  if (strict) lines.push(`  for (const k in v) if (!${g.ref(new Set(entries.map(([k]) => k)))}.has(k)) return false;`);
  lines.push('  return true;');
  return lines.join('\n');
}

/** A predicate for one check of a string, number or array schema (throws for a check it does not understand). */
export function compileCheck(c: CheckDef, kind: 'string' | 'number' | 'array' | 'other'): Accept {
  const g: Gen = new CodeGen();
  return g.link(checkExpr(c, kind, 'v', g));
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
    const g: Gen = new CodeGen();
    accept = g.link(expr(schema, 'v', g, 0));
  } catch (err) {
    if (!(err instanceof Unsupported)) throw err;
    accept = null;
  }
  cache.set(schema, accept);
  return accept ?? undefined;
}
