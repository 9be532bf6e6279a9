/**
 * Variable references in payload files: `{{name}}` inside JSON strings only, so a payload file
 * stays strict JSON and `JSON.parse`, the diagnostics and `tpp validate` read it as they always did. The syntax is
 * REST Client's: `{{$guid}}`, `{{$randomInt 1 5}}` (a dynamic value: `$` then its name, arguments separated by
 * spaces), `{{lastRegistration.id}}` (a value captured from an earlier answer) and `{{storeNumber}}` (a variable of
 * the `tpp.variables` setting).
 */

/** One `{{…}}` in a string. Offsets are UTF-16 indexes into that string. */
export interface VariableRef {
  /** The reference as written, braces included: `{{$randomInt 1 5}}`. */
  readonly raw: string;
  /** `$randomInt`, `lastRegistration.id`, `storeNumber`; '' when the braces hold nothing. */
  readonly name: string;
  /** Arguments after the name (dynamic values only): `['1', '5']`. */
  readonly args: readonly string[];
  readonly start: number;
  readonly end: number;
}

/** `{{` … `}}` with no brace inside. */
const REF_RE = /\{\{([^{}]*)\}\}/g;
/** A variable name: letters, digits, `_` and `-`, in dot-separated parts (`lastRegistration.id`). */
export const NAME_RE = /^[A-Za-z_][\w-]*(?:\.[\w-]+)*$/;
/** A dynamic value's name: `$` then a letter and letters or digits. */
export const DYNAMIC_NAME_RE = /^\$[A-Za-z][A-Za-z0-9]*$/;

/**
 * The name and arguments of the text between the braces, split at spaces. A first argument that starts with a quote
 * runs to the last such quote, spaces included, as REST Client's and httpyac's patterns read `{{$datetime 'DD MMM
 * YYYY' 1 d}}` (`'.+'` then an optional offset).
 */
export function splitReference(inner: string): { name: string; args: string[] } {
  const t = inner.trim();
  const space = t.search(/\s/);
  if (space < 0) return { name: t, args: [] };
  const name = t.slice(0, space);
  const rest = t.slice(space).trim();
  const quote = rest[0] === "'" || rest[0] === '"' ? rest[0] : undefined;
  const close = quote ? rest.lastIndexOf(quote) : -1;
  if (!quote || close <= 0) return { name, args: rest.split(/\s+/) };
  const after = rest.slice(close + 1).trim();
  return { name, args: [rest.slice(0, close + 1), ...(after ? after.split(/\s+/) : [])] };
}

/** True when `s` may hold a reference (the cheap test callers make before anything else). */
export function hasVariables(s: string): boolean {
  return s.includes('{{');
}

/** The references in `s`, in order (none when `s` has no `{{…}}`). */
export function parseRefs(s: string): VariableRef[] {
  if (!s.includes('{{')) return [];
  const out: VariableRef[] = [];
  REF_RE.lastIndex = 0;
  for (let m = REF_RE.exec(s); m; m = REF_RE.exec(s)) {
    const { name, args } = splitReference(m[1]!);
    out.push({ raw: m[0], name, args, start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/** The one reference that is the whole of `s` (`"{{$randomInt 1 5}}"`), or undefined. Such a string takes the variable's type. */
export function wholeRef(s: string): VariableRef | undefined {
  if (!s.startsWith('{{') || !s.endsWith('}}')) return undefined;
  const refs = parseRefs(s);
  return refs.length === 1 && refs[0]!.start === 0 && refs[0]!.end === s.length ? refs[0] : undefined;
}

/** Calls `visit` with every string of `value` (any depth) that holds a reference, and its path. Object keys are never read. */
export function forEachVariableString(value: unknown, visit: (s: string, path: (string | number)[]) => void, path: (string | number)[] = []): void {
  if (typeof value === 'string') {
    if (value.includes('{{') && holdsRef(value)) visit(value, path);
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) forEachVariableString(value[i], visit, [...path, i]);
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) forEachVariableString(v, visit, [...path, k]);
  }
}

function holdsRef(s: string): boolean {
  REF_RE.lastIndex = 0;
  return REF_RE.test(s);
}
