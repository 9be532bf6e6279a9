/**
 * Values a code sample generates afresh each time it runs, where the payload file had a dynamic value
 * (`{{$guid}}`, `{{$timestamp}}`, `{{$randomInt min max}}`): a program copied once must not send the same invoice
 * number twice (spec: a second create with the same `invoiceNumber` answers 409). The sample's body keeps the
 * reference as written (`"INV-{{$timestamp}}-{{$randomInt 1000 10000}}"`) and the program replaces each occurrence,
 * in document order, before sending. Other variables (environment, captures, `$datetime`, `$date`, offsets in months
 * or years) keep the value they had when the sample was made. No editor, no I/O.
 */
import { dynamicVariable, parseRefs, resolvePayloadVariables, wholeRef, type VariableRef, type VariableScope } from '../variables';

/** What a program generates for one reference. */
export type FreshKind = { readonly kind: 'guid' } | { readonly kind: 'timestamp'; readonly offsetSeconds: number } | { readonly kind: 'randomInt'; readonly min: number; readonly max: number };

/** One occurrence of a reference in the body's JSON text, in document order. */
export interface FreshValue {
  /** The reference as written: `{{$randomInt 1 5}}`. */
  readonly raw: string;
  /**
   * True when the whole JSON string `"{{…}}"` (quotes included) stands for a number (`"TiresCovered":
   * "{{$randomInt 1 5}}"` sends an int): the program replaces the quoted text with the number.
   */
  readonly quoted: boolean;
  readonly value: FreshKind;
}

const SECONDS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

/** The fresh kind of a reference, or undefined when it keeps its copy-time value. */
function freshKind(ref: VariableRef): FreshKind | undefined {
  const dyn = ref.name.startsWith('$') ? dynamicVariable(ref.name) : undefined;
  if (!dyn || dyn.check(ref.args)) return undefined;
  if (ref.name === '$guid') return { kind: 'guid' };
  if (ref.name === '$randomInt') return { kind: 'randomInt', min: Number(ref.args[0]), max: Number(ref.args[1]) };
  if (ref.name === '$timestamp') {
    if (ref.args.length === 0) return { kind: 'timestamp', offsetSeconds: 0 };
    const unit = SECONDS[ref.args[1]!];
    return unit === undefined ? undefined : { kind: 'timestamp', offsetSeconds: Number(ref.args[0]) * unit };
  }
  return undefined;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));

/**
 * The body a sample sends, with fresh references kept, and their occurrences in JSON order.
 *
 * @param original the body as the file writes it (meta properties removed), `{{…}}` unresolved.
 * @param resolved the same body resolved (as routed and validated): its types decide number or string.
 * @param scope resolves the references that stay fixed.
 * @returns `resolved` itself and no occurrence when the file has no fresh reference.
 */
export function freshBody(original: unknown, resolved: unknown, scope: VariableScope): { body: unknown; fresh: FreshValue[] } {
  const fresh: FreshValue[] = [];
  // Object.entries and arrays walk in the order JSON.stringify (and Python's json.dumps of the same dict) writes.
  const walk = (o: unknown, r: unknown): unknown => {
    if (typeof o === 'string') {
      const refs = parseRefs(o).map((ref) => ({ ref, kind: freshKind(ref) }));
      if (!refs.some((x) => x.kind)) return r;
      const whole = wholeRef(o);
      if (whole && (typeof r === 'number' || typeof r === 'string')) {
        fresh.push({ raw: whole.raw, quoted: typeof r === 'number', value: refs[0]!.kind! });
        return o;
      }
      if (typeof r !== 'string') return r;
      let out = '';
      let at = 0;
      for (const { ref, kind } of refs) {
        out += o.slice(at, ref.start);
        if (kind) {
          fresh.push({ raw: ref.raw, quoted: false, value: kind });
          out += ref.raw;
        } else out += text(resolvePayloadVariables(ref.raw, undefined, scope));
        at = ref.end;
      }
      return out + o.slice(at);
    }
    if (Array.isArray(o) && Array.isArray(r) && o.length === r.length) return o.map((x, i) => walk(x, r[i]));
    if (o && r && typeof o === 'object' && typeof r === 'object' && !Array.isArray(o) && !Array.isArray(r)) {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(r as Record<string, unknown>)) out[k] = Object.hasOwn(o, k) ? walk((o as Record<string, unknown>)[k], x) : x;
      return out;
    }
    return r;
  };
  const body = walk(original, resolved);
  return fresh.length ? { body, fresh } : { body: resolved, fresh };
}

/**
 * The statements of a program that fill the fresh values into its body text, one per occurrence in order.
 *
 * @param fresh the occurrences; @param stmt one statement replacing the first `find` (a literal of the target
 *   language is the generator's job) with the text of `expr`.
 */
export function fillStatements(fresh: readonly FreshValue[], expr: (v: FreshKind) => string, stmt: (find: string, expr: string) => string): string[] {
  return fresh.map((f) => stmt(f.quoted ? `"${f.raw}"` : f.raw, expr(f.value)));
}
