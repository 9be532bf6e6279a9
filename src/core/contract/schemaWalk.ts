import type { z } from 'zod';
import { Gen } from './codegen';
import type { JsonPath } from './paths';

/**
 * Introspection of zod 4 schemas for what zod itself does not report on a plain `z.object`:
 * properties the schema does not know (spec field tables list every property), and typed
 * placeholders for quick fixes. Wrappers (optional, nullable, default, pipe/transform, readonly,
 * catch, lazy) are looked through; unions and intersections of objects merge their properties.
 */

/** The parts of a zod 4 schema's internal definition (`schema._zod.def`) that the walkers read. */
export interface ZodDef {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  getter?: () => z.ZodType;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  left?: z.ZodType;
  right?: z.ZodType;
  values?: unknown[];
  entries?: Record<string, unknown>;
  defaultValue?: unknown;
}

type Def = ZodDef;

const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly', 'nonoptional', 'success']);

/** The schemas a value is checked against once wrappers are removed (a union gives several). */
export function leaves(schema: z.ZodType, out: z.ZodType[] = [], depth = 0): z.ZodType[] {
  if (depth > 32) return out;
  const def = defOf(schema);
  if (WRAPPERS.has(def.type) && def.innerType) return leaves(def.innerType, out, depth + 1);
  if (def.type === 'pipe' && def.in) {
    // A transform's output is not the JSON shape: the input side is.
    // (z.preprocess puts the transform first: then the output side is the shape.)
    const input = defOf(def.in).type === 'transform' && def.out ? def.out : def.in;
    return leaves(input, out, depth + 1);
  }
  if (def.type === 'lazy' && def.getter) return leaves(def.getter(), out, depth + 1);
  if (def.type === 'union' && def.options) {
    for (const o of def.options) leaves(o, out, depth + 1);
    return out;
  }
  if (def.type === 'intersection' && def.left && def.right) {
    leaves(def.left, out, depth + 1);
    leaves(def.right, out, depth + 1);
    return out;
  }
  out.push(schema);
  return out;
}

/** What the walk needs of a schema node: its known properties (objects) and its item schema (arrays). */
interface NodeInfo {
  /** undefined: not an object schema, or one that accepts any property (record, loose object, any). */
  readonly properties?: ReadonlyMap<string, z.ZodType>;
  readonly element?: z.ZodType;
}

const infoCache = new WeakMap<z.ZodType, NodeInfo>();

function infoOf(schema: z.ZodType): NodeInfo {
  const cached = infoCache.get(schema);
  if (cached) return cached;
  let properties: Map<string, z.ZodType> | undefined;
  let open = false;
  let element: z.ZodType | undefined;
  for (const leaf of leaves(schema)) {
    const def = defOf(leaf);
    if (def.type === 'object' && def.shape) {
      const catchall = def.catchall ? defOf(def.catchall).type : undefined;
      if (catchall && catchall !== 'never') open = true;
      properties ??= new Map();
      for (const [k, v] of Object.entries(def.shape)) if (!properties.has(k)) properties.set(k, v);
    } else if (def.type === 'record' || def.type === 'any' || def.type === 'unknown' || def.type === 'custom') open = true;
    else if (def.type === 'array' && def.element && !element) element = def.element;
  }
  const info: NodeInfo = { properties: open ? undefined : properties, element };
  infoCache.set(schema, info);
  return info;
}

/** The known property names of the object schema at the root of `schema` (empty if none). */
export function knownProperties(schema: z.ZodType): string[] {
  return [...(infoOf(schema).properties?.keys() ?? [])];
}

/** The schema of the value at `path` below `schema`, if the schema describes that path. */
export function schemaAt(schema: z.ZodType, path: JsonPath): z.ZodType | undefined {
  let s: z.ZodType | undefined = schema;
  for (const seg of path) {
    if (!s) return undefined;
    const info = infoOf(s);
    s = typeof seg === 'number' ? info.element : info.properties?.get(seg);
  }
  return s;
}

/** An unknown property found by {@link findUnknownProperties}. */
export interface UnknownProperty {
  /** Path of the property itself (its parent's path plus its name). */
  readonly path: JsonPath;
  /** The nearest known property name, when one is close enough to be a likely typo. */
  readonly suggestion?: string;
  readonly known: readonly string[];
}

const knownKeysCache = new WeakMap<z.ZodType, (value: unknown) => boolean>();

/**
 * A generated predicate (codegen.ts) that is true when `value`, below the root, holds no property `schema` does
 * not declare: it counts the declared properties present against the object's own keys, at every depth. False
 * may also mean a declared property holding `undefined` (never in parsed JSON); the walk then decides. A record
 * of 25 properties costs about as much as reading them, where the walk looks each key up in a map.
 */
function knownKeysOf(schema: z.ZodType): (value: unknown) => boolean {
  let test = knownKeysCache.get(schema);
  if (test) return test;
  const g = new Gen<z.ZodType>();
  const nameOf = (s: z.ZodType): string | undefined => {
    const info = infoOf(s);
    if (!info.properties && !info.element) return undefined;
    return g.fn(s, () => {
      const lines = ['  if (v === null || typeof v !== "object") return true;'];
      const element = info.element && nameOf(info.element);
      lines.push(`  if (Array.isArray(v)) {${element ? ` for (let i = 0; i < v.length; i++) if (!${element}(v[i])) return false;` : ''} return true; }`);
      if (!info.properties) return [...lines, '  return true;'].join('\n');
      lines.push('  let n = 0;');
      for (const [k, child] of info.properties) {
        const name = nameOf(child);
        lines.push(`  x = v[${JSON.stringify(k)}]; if (x !== undefined) { n++;${name ? ` if (!${name}(x)) return false;` : ''} }`);
      }
      return [...lines, '  for (const k in v) if (--n < 0) return false;', '  return true;'].join('\n');
    });
  };
  const name = nameOf(schema);
  test = name ? g.link(`${name}(v)`) : () => true;
  knownKeysCache.set(schema, test);
  return test;
}

/**
 * Walks `value` along `schema` and reports every property the schema does not declare.
 * Top-level properties starting with `$` are meta data ("$schema", "$registrationId"), never unknown.
 * Cost: one visit per object property of the value; nothing is allocated for known properties.
 */
export function findUnknownProperties(value: unknown, schema: z.ZodType, limit = Infinity): UnknownProperty[] {
  const out: UnknownProperty[] = [];
  // One suggestion per (object schema, unknown name): a file repeating a typo pays for it once.
  const suggestions = new Map<ReadonlyMap<string, z.ZodType>, Map<string, string | undefined>>();
  const suggest = (props: ReadonlyMap<string, z.ZodType>, key: string, known: readonly string[]) => {
    let m = suggestions.get(props);
    if (!m) suggestions.set(props, (m = new Map()));
    if (!m.has(key)) m.set(key, nearest(key, known));
    return m.get(key);
  };
  const walk = (v: unknown, s: z.ZodType, path: (string | number)[]): void => {
    if (out.length >= limit || v === null || typeof v !== 'object') return;
    const info = infoOf(s);
    if (Array.isArray(v)) {
      if (!info.element) return;
      const known = knownKeysOf(info.element);
      for (let i = 0; i < v.length; i++) if (!known(v[i])) walk(v[i], info.element, [...path, i]);
      return;
    }
    const props = info.properties;
    if (!props) return;
    for (const key in v as Record<string, unknown>) {
      const child = props.get(key);
      if (child) {
        const cv = (v as Record<string, unknown>)[key];
        if (cv !== null && typeof cv === 'object') walk(cv, child, [...path, key]);
      } else if (!(path.length === 0 && key.startsWith('$'))) {
        const known = [...props.keys()];
        // A suggestion the object already holds would only duplicate that property.
        const suggestion = suggest(props, key, known);
        out.push({ path: [...path, key], suggestion: suggestion !== undefined && !Object.hasOwn(v, suggestion) ? suggestion : undefined, known });
        if (out.length >= limit) return;
      }
    }
  };
  walk(value, schema, []);
  return out;
}

/** Levenshtein distance (small strings only). */
function distance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j]!;
      prev[j] = Math.min(up + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length]!;
}

/**
 * The candidate closest to `name` if it is a likely typo: same name in another case, or an edit
 * distance of at most 1 for names up to 4 characters, 2 up to 8, and 3 beyond. Undefined otherwise.
 */
export function nearest(name: string, candidates: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  const sameCase = candidates.find((c) => c.toLowerCase() === lower);
  if (sameCase) return sameCase;
  const max = name.length <= 4 ? 1 : name.length <= 8 ? 2 : 3;
  let best: string | undefined;
  let bestD = max + 1;
  for (const c of candidates) {
    if (Math.abs(c.length - name.length) > max) continue;
    const d = distance(lower, c.toLowerCase());
    if (d < bestD) {
      best = c;
      bestD = d;
    }
  }
  return best;
}

/** True when `schema` accepts a missing value (optional, default). */
export function isOptional(schema: z.ZodType): boolean {
  return (schema as unknown as { _zod: { optin?: string } })._zod.optin === 'optional';
}

/** Allowed literal values of an enum/literal schema (looking through wrappers), or undefined. */
export function enumValues(schema: z.ZodType): unknown[] | undefined {
  const out: unknown[] = [];
  for (const leaf of leaves(schema)) {
    const def = defOf(leaf);
    if (def.type === 'enum' && def.entries) out.push(...Object.values(def.entries));
    else if (def.type === 'literal' && def.values) out.push(...def.values);
    else return undefined;
  }
  return out.length ? out : undefined;
}

/**
 * A typed placeholder for a missing value of `schema`: "" for strings, 0 for numbers, false, [] for
 * arrays, the first allowed value of an enum, and for objects an object holding placeholders for its
 * required properties.
 */
export function placeholderFor(schema: z.ZodType, depth = 0): unknown {
  const [leaf] = leaves(schema);
  if (!leaf || depth > 8) return null;
  const def = defOf(leaf);
  switch (def.type) {
    case 'string':
      return '';
    case 'number':
    case 'int':
    case 'bigint':
      return 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'enum':
      return def.entries ? Object.values(def.entries)[0] : '';
    case 'literal':
      return def.values?.[0] ?? null;
    case 'object': {
      const obj: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(def.shape ?? {})) if (!isOptional(v)) obj[k] = placeholderFor(v, depth + 1);
      return obj;
    }
    default:
      return null;
  }
}
