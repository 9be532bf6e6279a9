/**
 * Which hosts a flow request may carry values from the user's machine to (docs/flows.md, What a flow may do). A value
 * that came from the user's side — a body file, the Partner ID, a variable given from outside (`--var`, the editor's
 * `tpp.variables`), a `# @prompt` answer (even where a file variable has its name), a data row, `{{$processEnv}}`
 * and `{{$dotenv}}`, the answer of a request sent to the environment (signed with the partner's key) and the cookies
 * such answers set — is sent only to the environment's own origins, unless the user allowed the host (`tpp run
 * --allow-host`, the editor's prompt). A flow from a cloned repository can then still call any host, but only with
 * what it wrote itself.
 */
import { USER_SIDE_DYNAMICS } from './flowDynamic';
import { flowRefs, type ParsedRef } from './refs';
import type { EnvironmentAddresses } from '../environments';
import type { Carried, FlowPosition, FlowRequest, HostPolicy } from './types';

export type { Carried, HostPolicy };

/** The names whose values are the environment's addresses (not the user's: they are where requests go). */
const ADDRESS_NAMES = new Set(['baseUrl', 'v2BaseUrl', 'eligibilityBaseUrl']);

/**
 * Every reference that `texts` reach, following file variables (each one once): `{{a}}` with `@a = {{reg…}}` reaches
 * both.
 */
export function reachedRefs(texts: readonly string[], fileVariables: ReadonlyMap<string, { readonly value: string }>): ParsedRef[] {
  const out: ParsedRef[] = [];
  const todo = [...texts];
  const seen = new Set<string>();
  while (todo.length > 0) {
    for (const { ref } of flowRefs(todo.pop() as string)) {
      out.push(ref);
      if (ref.kind !== 'name' || ADDRESS_NAMES.has(ref.name) || ref.name === 'partnerId') continue;
      const own = fileVariables.get(ref.name);
      if (own && !seen.has(ref.name)) {
        seen.add(ref.name);
        todo.push(own.value);
      }
    }
  }
  return out;
}

/** The texts of a request that are sent: URL, header values, an inline body (assertions are not sent). */
const sentTexts = (r: FlowRequest): string[] => [r.url, ...r.headers.map((h) => h.value), ...(r.body?.kind === 'inline' ? [r.body.text] : [])];

/** The body files of a request, with their positions: a `< file` body, or the `< file` parts of a multipart body. */
export const bodyFilesOf = (r: FlowRequest): readonly (FlowPosition & { readonly path: string })[] => (r.body?.kind === 'file' ? [r.body] : r.body?.kind === 'inline' ? (r.body.files ?? []) : []);

const bodyFiles = (r: FlowRequest): Carried[] => bodyFilesOf(r).map((f) => ({ kind: 'body-file', path: f.path }));

/**
 * The names the file's `# @prompt` lines ask for, each with the index of the first request that asks. An answer wins
 * over a file variable of its name (docs/flows.md, Variables), and a file variable first resolved with it keeps that
 * value for the rest of the run: from that request on, the name is the user's answer wherever it is reached.
 */
export function promptsOf(file: { readonly requests: readonly FlowRequest[] }): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of file.requests) for (const p of r.prompts ?? []) if (!out.has(p.name)) out.set(p.name, r.index);
  return out;
}

/** Whether `name` holds a `# @prompt` answer in request `r` (see {@link promptsOf}). */
export const promptedIn = (r: FlowRequest, prompts: ReadonlyMap<string, number>) => (name: string) => (prompts.get(name) ?? Infinity) <= r.index;

/** What texts of a request carry, once each (see {@link carriedBy}). */
function carriedIn(texts: readonly string[], fileVariables: ReadonlyMap<string, { readonly value: string }>, signed: (request: string) => boolean, prompted: (name: string) => boolean): Map<string, Carried> {
  const out = new Map<string, Carried>();
  for (const ref of reachedRefs(texts, fileVariables)) {
    if (ref.kind === 'response') {
      if (signed(ref.request)) out.set(`answer:${ref.request}`, { kind: 'answer', request: ref.request });
    } else if (ref.kind === 'dynamic' && USER_SIDE_DYNAMICS.has(ref.name)) {
      const name = ref.args[0] ?? '';
      out.set(`${ref.name}:${name}`, ref.name === '$processEnv' ? { kind: 'process-env', name } : { kind: 'dotenv', name });
    } else if (ref.kind === 'name' && !ADDRESS_NAMES.has(ref.name)) {
      if (ref.name === 'partnerId') out.set('partnerId', { kind: 'partner-id' });
      else if (prompted(ref.name)) out.set(`prompt:${ref.name}`, { kind: 'prompt', name: ref.name });
      else if (fileVariables.has(ref.name)) continue;
      else if (ref.name.startsWith('row.')) out.set(`row:${ref.name}`, { kind: 'row', name: ref.name });
      else out.set(`var:${ref.name}`, { kind: 'variable', name: ref.name });
    }
  }
  return out;
}

/**
 * What `r` carries from the user's side (see the module comment), once each.
 * @param fileVariables the file's variables by name.
 * @param signed whether the named request's answer came from the environment (an answer of another host is the file's
 *   own business and is not counted).
 * @param prompts the file's `# @prompt` names ({@link promptsOf}).
 */
export function carriedBy(r: FlowRequest, fileVariables: ReadonlyMap<string, { readonly value: string }>, signed: (request: string) => boolean, prompts: ReadonlyMap<string, number> = new Map()): Carried[] {
  const out = carriedIn(sentTexts(r), fileVariables, signed, promptedIn(r, prompts));
  for (const f of bodyFiles(r)) out.set(`file:${(f as { path: string }).path}`, f);
  return [...out.values()];
}

/**
 * What a redirect hop of `r` still carries: the headers that go with it (another site gets neither Authorization,
 * Cookie nor Host as written) and the body when the hop keeps it. The hop's URL is the redirecting answer's.
 */
export function carriedByHop(r: FlowRequest, fileVariables: ReadonlyMap<string, { readonly value: string }>, signed: (request: string) => boolean, hop: { readonly crossSite: boolean; readonly keepsBody: boolean }, prompts: ReadonlyMap<string, number> = new Map()): Carried[] {
  const dropped = hop.crossSite ? ['authorization', 'cookie', 'host'] : [];
  const texts = [...r.headers.filter((h) => !dropped.includes(h.name.toLowerCase())).map((h) => h.value), ...(hop.keepsBody && r.body?.kind === 'inline' ? [r.body.text] : [])];
  const out = carriedIn(texts, fileVariables, signed, promptedIn(r, prompts));
  if (hop.keepsBody) for (const f of bodyFiles(r)) out.set(`file:${(f as { path: string }).path}`, f);
  return [...out.values()];
}

/** One carried value in words, for messages: "the body file ./key.pem", "the answer of list". */
export function describeCarried(c: Carried): string {
  switch (c.kind) {
    case 'body-file':
      return `the body file ${c.path}`;
    case 'partner-id':
      return 'the Partner ID ({{partnerId}})';
    case 'variable':
      return `the variable {{${c.name}}} given from outside the file`;
    case 'prompt':
      return `the answer to # @prompt ${c.name} ({{${c.name}}})`;
    case 'row':
      return `the data file's {{${c.name}}}`;
    case 'answer':
      return `the answer of ${c.request} (a request signed for the environment)`;
    case 'process-env':
      return `the environment variable ${c.name} ({{$processEnv ${c.name}}})`;
    case 'dotenv':
      return `the .env value ${c.name} ({{$dotenv ${c.name}}})`;
    case 'cookie':
      return `the cookie ${c.name} (set by an answer of the environment)`;
  }
}

/** The origins (`scheme://host:port`) of the environment's addresses. */
export function environmentOrigins(env: EnvironmentAddresses): Set<string> {
  const out = new Set<string>();
  for (const base of [env.baseUrl, env.v2BaseUrl, env.eligibilityBaseUrl]) {
    if (!base) continue;
    try {
      out.add(new URL(base).origin);
    } catch {
      // an address that is not a URL is no origin
    }
  }
  return out;
}

/** True when `url` is at one of the environment's origins. */
export function atEnvironment(url: URL, env: EnvironmentAddresses): boolean {
  return environmentOrigins(env).has(url.origin);
}

/** True when the user allowed `url`'s host: `host` allows any port, `host:port` that port. */
export function hostAllowed(url: URL, allowed: readonly string[] | undefined): boolean {
  return (allowed ?? []).some((a) => {
    const want = a.trim().toLowerCase().replace(/^[a-z][a-z0-9+.-]*:\/\//, '').replace(/\/.*$/, '');
    return want === url.host.toLowerCase() || want === url.hostname.toLowerCase();
  });
}

/**
 * Why a request to `url` carrying `carried` must not be sent, or undefined when it may: it goes to the environment,
 * carries nothing of the user's, or the host is allowed (by the list or by the user's answer to `confirm`).
 */
export async function hostRefusal(url: string, carried: readonly Carried[], env: EnvironmentAddresses, policy: HostPolicy | undefined): Promise<string | undefined> {
  if (carried.length === 0) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined; // not a URL: refused later as such, and nothing is sent
  }
  if (atEnvironment(parsed, env) || hostAllowed(parsed, policy?.allowed)) return undefined;
  if (policy?.confirm && (await policy.confirm(parsed.host, carried))) return undefined;
  const what = carried.map(describeCarried).join(', ');
  return `it would send ${what} to ${parsed.host}, which is not an address of the environment (${[...environmentOrigins(env)].join(', ') || 'none set'}). Values from your side go only to the environment's addresses (docs/flows.md, What a flow may do); if you trust ${parsed.host}, ${policy?.howToAllow?.(parsed.host) ?? `allow it with --allow-host ${parsed.host}`}`;
}
