import { BASE_VARIABLES } from './bases';
import { dateKindOf, definedValueKind, isAnswerIdentifier, relativeDate, type RunValueKind } from './identities';
import type { StoryRequest } from './requests';

/**
 * What the values of a recorded story are (docs/flows.md, Recording a flow), found by value: where each was seen
 * first (a request, or an earlier answer it can be read from), which a create defined and must be new on each run,
 * which are the requests' own dates. Two passes over the requests: the constructor learns, then `template*` write
 * each request's values as `{{…}}` where they must not be written as they were.
 */

/** A JSON path segment: a property name or an array index. */
type Segment = string | number;

/** Where a value was first seen: in a request (the client chose it), or in the answer of request `at` at `expr`. */
type Origin = { readonly from: 'request' } | { readonly from: 'answer'; readonly at: number; readonly expr: string };

/** A file variable of the flow: `@name = value`. */
export interface FileVariable {
  readonly name: string;
  readonly value: string;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The JSONPath of a value in an answer (`$.results[0]._id`, `$['a-b']`); undefined when a key cannot be written in a `{{…}}`. */
function jsonPath(path: readonly Segment[]): string | undefined {
  let out = '$';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (IDENTIFIER.test(seg)) out += `.${seg}`;
    else if (/[{}'\\\s]/.test(seg)) return undefined;
    else out += `['${seg}']`;
  }
  return out;
}

/** Calls `visit` with each string leaf of a JSON value, its path and its property name. */
function eachString(value: unknown, visit: (s: string, path: readonly Segment[]) => void, path: Segment[] = []): void {
  if (typeof value === 'string') visit(value, path);
  else if (Array.isArray(value)) value.forEach((v, i) => eachString(v, visit, [...path, i]));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) eachString(v, visit, [...path, k]);
}

/** A path segment or query value, decoded; the raw text when it does not decode. */
function decoded(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/** A URL without its query and fragment. */
function withoutQuery(url: string): string {
  return url.replace(/[?#].*$/s, '');
}

/** The query of a request as `[name, value]` pairs, decoded, in order. */
export function queryPairs(query: string): [string, string][] {
  return query === '' ? [] : query.split('&').map((p) => {
    const eq = p.indexOf('=');
    return eq < 0 ? [decoded(p), ''] : [decoded(p.slice(0, eq)), decoded(p.slice(eq + 1))];
  });
}

/** The values of a recorded story and the variables and references they become. */
export class Story {
  private readonly firstSeen = new Map<string, Origin>();
  /** Absolute `Location` headers of answers (without their query), by URL: the request whose answer gave each first. */
  private readonly locations = new Map<string, number>();
  private readonly runValues = new Map<string, string>();
  private readonly dates = new Map<string, string>();
  /** The date variable of each field and dynamic value (`cancelledOn` and `{{$datetime iso8601}}`). */
  private readonly dateNames = new Map<string, string>();
  private readonly variables: FileVariable[] = [];
  private readonly usedNames = new Set<string>(['run', 'company', 'baseUrl', 'v2BaseUrl', 'eligibilityBaseUrl', 'partnerId']);
  private readonly prefixCount = new Map<string, number>();
  /** The next number to try after each name stem. */
  private readonly nextSuffix = new Map<string, number>();
  private readonly byIndex: ReadonlyMap<number, StoryRequest>;
  private readonly requestNames = new Map<number, string>();
  /** The first version 2 `{company_name}` recorded, and the value of `@company`. */
  private company: { readonly segment: string; readonly value: string } | undefined;
  /** References written, for the caller's summary. */
  references = 0;

  constructor(
    requests: readonly StoryRequest[],
    private readonly partnerId: string | undefined,
  ) {
    this.byIndex = new Map(requests.map((r) => [r.index, r]));
    for (const r of requests) this.learn(r);
  }

  /** A name not used yet: `stem`, else `stem2`, `stem3`… */
  private fresh(stem: string): string {
    const base = IDENTIFIER.test(stem) ? stem : 'value';
    let n = this.nextSuffix.get(base) ?? 1;
    let name = n === 1 ? base : `${base}${n}`;
    while (this.usedNames.has(name)) name = `${base}${++n}`;
    this.nextSuffix.set(base, n + 1);
    this.usedNames.add(name);
    return name;
  }

  /** Makes `value`, defined by a create, a variable new on each run: its recorded letters, then `{{run}}`. */
  private runValue(value: string, kind: RunValueKind): void {
    if (this.runValues.has(value)) return;
    const prefix = /^[A-Za-z]{1,5}/.exec(value)?.[0] ?? kind.prefix;
    const n = (this.prefixCount.get(prefix) ?? 0) + 1;
    this.prefixCount.set(prefix, n);
    const name = this.fresh(kind.stem);
    this.runValues.set(value, name);
    this.variables.push({ name, value: `${prefix}-{{run}}${n > 1 ? `-${n}` : ''}` });
  }

  /**
   * Makes a request's own date a variable named after its field: one per field and dynamic value, so the cancellations
   * of a story sent "now" share `@cancelledOn = {{$datetime iso8601}}` (a recorded value keeps its first variable).
   */
  private dateValue(value: string, expr: string, path: readonly Segment[]): void {
    const field = String([...path].reverse().find((p) => typeof p === 'string') ?? 'date');
    const key = `${field}\n${expr}`;
    let name = this.dateNames.get(key);
    if (!name) {
      name = this.fresh(field);
      this.dateNames.set(key, name);
      this.variables.push({ name, value: expr });
    }
    this.dates.set(value, name);
  }

  private see(value: string): void {
    if (!this.firstSeen.has(value)) this.firstSeen.set(value, { from: 'request' });
  }

  /** Pass one over a request: the values it carries, then the identifiers its answer gives. */
  private learn(r: StoryRequest): void {
    const endpoint = r.group[0]?.id;
    for (const seg of r.at.path.split('/')) if (seg) this.see(decoded(seg));
    for (const [, v] of queryPairs(r.at.query)) this.see(v);
    if (r.body) eachString(r.body.value, (s, path) => {
      const origin = this.firstSeen.get(s);
      const kind = definedValueKind(endpoint, path);
      if (kind && origin?.from !== 'answer') this.runValue(s, kind);
      const date = dateKindOf(s);
      if (date && !this.dates.has(s) && !this.runValues.has(s)) this.dateValue(s, relativeDate(s, date, r.exchange.time), path);
      this.see(s);
    });
    const location = r.exchange.response?.headers?.location;
    if (location && /^https?:\/\//i.test(location) && !this.locations.has(withoutQuery(location))) this.locations.set(withoutQuery(location), r.index);
    if (r.answer) eachString(r.answer.value, (s, path) => {
      if (this.firstSeen.has(s) || !isAnswerIdentifier(path[path.length - 1], s)) return;
      const expr = jsonPath(path);
      if (expr) this.firstSeen.set(s, { from: 'answer', at: r.index, expr: `body.${expr}` });
    });
  }

  /** The `# @name` of request `index`, made when a later request first reads its answer. */
  nameOf(index: number): string | undefined {
    return this.requestNames.get(index);
  }

  private reference(at: number, expr: string): string {
    let name = this.requestNames.get(at);
    if (!name) {
      name = this.fresh(this.byIndex.get(at)?.group[0]?.resource ?? 'request');
      this.requestNames.set(at, name);
    }
    this.references++;
    return `{{${name}.response.${expr}}}`;
  }

  /** A value of request `index` as the flow writes it: a variable, `{{partnerId}}`, a reference, or itself (undefined). */
  private templated(value: string, index: number, inBody: boolean): string | undefined {
    const run = this.runValues.get(value);
    if (run) return `{{${run}}}`;
    const date = inBody ? this.dates.get(value) : undefined;
    if (date) return `{{${date}}}`;
    if (this.partnerId !== undefined && value === this.partnerId) return '{{partnerId}}';
    const origin = this.firstSeen.get(value);
    return origin?.from === 'answer' && origin.at < index ? this.reference(origin.at, origin.expr) : undefined;
  }

  /** A URL part (segment or query value) of request `index`: templated when the value needs no encoding, else as recorded. */
  private urlPart(raw: string, index: number): string {
    const value = decoded(raw);
    const t = encodeURIComponent(value) === value ? this.templated(value, index, false) : undefined;
    return t ?? raw;
  }

  /** The v2 `{company_name}` segment as `{{company}}` (`@company` the Partner ID, or the segment recorded). */
  private companyOf(segment: string): string {
    this.company ??= { segment, value: segment === this.partnerId ? '{{partnerId}}' : segment };
    return this.company.segment === segment ? '{{company}}' : segment;
  }

  /**
   * The URL of a request as the flow writes it: its base as a variable, then its path and query templated
   * (`{{baseUrl}}/tire-protection/registrations/{{registration.response.body.$.id}}`), or the `Location` an earlier
   * answer gave for that very URL (`{{registration.response.headers.Location}}`).
   */
  templateUrl(r: StoryRequest): string {
    const at = this.locations.get(withoutQuery(r.exchange.request.url));
    const query = r.at.query === '' ? '' : `?${this.templateQuery(r)}`;
    if (at !== undefined && at < r.index) return `${this.reference(at, 'headers.Location')}${query}`;
    return `${BASE_VARIABLES[r.at.kind]}${this.templatePath(r)}${query}`;
  }

  private templatePath(r: StoryRequest): string {
    const company = r.group[0]?.pathParams.includes('company_name') ? r.params.company_name : undefined;
    return r.at.path
      .split('/')
      .map((seg) => (seg === '' ? seg : company !== undefined && decoded(seg) === company ? this.companyOf(company) : this.urlPart(seg, r.index)))
      .join('/');
  }

  private templateQuery(r: StoryRequest): string {
    return r.at.query
      .split('&')
      .map((p) => {
        const eq = p.indexOf('=');
        return eq < 0 ? p : `${p.slice(0, eq)}=${this.urlPart(p.slice(eq + 1), r.index)}`;
      })
      .join('&');
  }

  /** The body of a request with its values templated, as JSON text (two-space indent). */
  templateBody(r: StoryRequest): string | undefined {
    if (!r.body) return undefined;
    const map = (v: unknown): unknown => {
      if (typeof v === 'string') return this.templated(v, r.index, true) ?? v;
      if (Array.isArray(v)) return v.map(map);
      if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, map(x)]));
      return v;
    };
    return JSON.stringify(map(r.body.value), null, 2);
  }

  /** The file variables the templated requests use, in the order they were made (`@run` and `@company` first). */
  fileVariables(): FileVariable[] {
    const out: FileVariable[] = [];
    if (this.runValues.size) out.push({ name: 'run', value: '{{$timestamp}}-{{$randomInt 1000 10000}}' });
    if (this.company !== undefined) out.push({ name: 'company', value: this.company.value });
    return [...out, ...this.variables];
  }
}
