import { config as zodConfig, core, type z } from 'zod';
import { compileAccept, compileCheck, defOf, type Accept } from './fastAccept';

const { finalizeIssue } = core.util;

/** Wrappers the walk looks through to the object or array they hold. */
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly']);

/**
 * zod's issues of a value, with zod run only on the parts the accept-only predicates (fastAccept.ts) reject
 * (performance design of the diagnostics pipeline): a document of 15,000 records with 100 bad ones costs one
 * predicate call per record and zod on the 100 failing values, not zod on the whole document.
 */

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
 * 10 MB array, zod sees 100 records instead of the whole array, and each predicate runs once per value.
 * The issues are the ones zod gives for the whole value (same paths, codes and messages), in document order.
 * The walk stops once it holds `limit` issues (it may hold a few more: those of the last part read), so
 * 15,000 failing records under a problem cap cost only the ones read; the issues it returns are then the
 * first ones of the unlimited walk. A plain recursion filling one array (no generator per part).
 */
export function localizedIssues(schema: z.ZodType, value: unknown, path: readonly PropertyKey[] = [], limit = Infinity): LocatedIssue[] {
  const out: LocatedIssue[] = [];
  collect(schema, value, path, undefined, out, limit);
  return out;
}

/** Whether `accept` takes `value`: true, false, or undefined when it cannot tell (an async refinement). */
function verdict(accept: Accept, value: unknown): boolean | undefined {
  try {
    return accept(value);
  } catch {
    return undefined;
  }
}

/**
 * Adds zod's issues for `value` at `path` to `out`. `known` is the verdict of `schema`'s predicate on
 * `value` when the caller already has it (false: a failing part is not checked twice).
 */
function collect(schema: z.ZodType, value: unknown, path: readonly PropertyKey[], known: boolean | undefined, out: LocatedIssue[], limit: number): void {
  if (out.length >= limit) return;
  const accept = compileAccept(schema);
  const ok = accept ? (known ?? verdict(accept, value)) : undefined;
  if (ok === true) return;
  if (ok === false) {
    let def = defOf(schema);
    while (WRAPPERS.has(def.type) && value !== undefined && value !== null && !def.checks?.length) def = defOf(def.innerType!);
    if (def.type === 'object' && !def.checks?.length && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const catchall = def.catchall ? defOf(def.catchall).type : undefined;
      if (catchall === undefined || catchall === 'unknown') {
        for (const f of fieldsOf(schema, def.shape ?? {})) {
          if (out.length >= limit) return;
          const v = (value as Record<string, unknown>)[f.key];
          const fine = f.accept ? verdict(f.accept, v) : undefined;
          if (fine === true) continue;
          // A field zod checks as a whole (not an object or array this walk descends into) goes to zod directly.
          if (fine === false && !f.composite) zodIssues(f.schema, v, [...path, f.key], out);
          else collect(f.schema, v, [...path, f.key], fine, out, limit);
        }
        return;
      }
    }
    if (def.type === 'array' && Array.isArray(value) && def.element) {
      if (ownChecksOf(schema, def.checks).every((c) => c(value))) {
        const element = def.element;
        const el = compileAccept(element);
        for (let i = 0; i < value.length && out.length < limit; i++) {
          const v = el ? verdict(el, value[i]) : undefined;
          if (v !== true) collect(element, value[i], [...path, i], v, out, limit);
        }
        return;
      }
    }
  }
  zodIssues(schema, value, path, out);
}

/** A property of an object schema as the walk reads it: its predicate, and whether the walk may descend into it. */
interface Field {
  readonly key: string;
  readonly schema: z.ZodType;
  readonly accept: Accept | undefined;
  /** An object or array schema (once optional, nullable, default and readonly are looked through). */
  readonly composite: boolean;
}

const fieldsCache = new WeakMap<z.ZodType, readonly Field[]>();

/** The properties of an object schema, read once per schema (a failing record of 25 fields visits them all). */
function fieldsOf(schema: z.ZodType, shape: Record<string, z.ZodType>): readonly Field[] {
  let fields = fieldsCache.get(schema);
  if (fields) return fields;
  fields = Object.entries(shape).map(([key, child]) => {
    let def = defOf(child);
    while (WRAPPERS.has(def.type) && def.innerType) def = defOf(def.innerType);
    return { key, schema: child, accept: compileAccept(child), composite: def.type === 'object' || def.type === 'array' };
  });
  fieldsCache.set(schema, fields);
  return fields;
}

const ownChecksCache = new WeakMap<z.ZodType, readonly Accept[]>();

/** The predicates of an array schema's own checks (at least one item, ...), compiled once per schema. */
function ownChecksOf(schema: z.ZodType, checks: readonly { _zod: { def: Parameters<typeof compileCheck>[0] } }[] = []): readonly Accept[] {
  let own = ownChecksCache.get(schema);
  if (!own) ownChecksCache.set(schema, (own = checks.map((c) => compileCheck(c._zod.def, 'array'))));
  return own;
}

/** What zod's internal run of a schema reads and gives back (zod pinned; zodInternals.test.ts guards it). */
interface RunPayload {
  value: unknown;
  issues: unknown[];
}
type Run = (payload: RunPayload, ctx: { async: false }) => RunPayload | Promise<RunPayload>;
const CTX = { async: false } as const;

/**
 * Adds zod's own issues for `value` to `out`, their paths prefixed with `path`: what `safeParse(value).error.issues`
 * holds, read from zod's run and finalized as safeParse does, without building the ZodError (an Error subclass)
 * around them, which was most of a small failing parse. An asynchronous schema goes to `safeParse`, which throws.
 */
function zodIssues(schema: z.ZodType, value: unknown, path: readonly PropertyKey[], out: LocatedIssue[]): void {
  const result = ((schema as unknown as { _zod: { run: Run } })._zod.run)({ value, issues: [] }, CTX);
  if (result instanceof Promise) {
    schema.safeParse(value);
    return;
  }
  if (result.issues.length === 0) return;
  const config = zodConfig();
  for (const raw of result.issues) {
    const i = finalizeIssue(raw as Parameters<typeof finalizeIssue>[0], CTX, config) as unknown as LocatedIssue;
    out.push(path.length === 0 ? i : { ...i, path: [...path, ...i.path] });
  }
}
