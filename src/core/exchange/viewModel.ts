import { describeStatus } from '../client/status';
import { ENDPOINTS } from '../contract';
import { changesData } from '../contract/methods';
import type { EndpointId } from '../contract/types';
import type { Exchange } from './types';
import { ENVIRONMENTS, isEnvironmentId } from '../environments';
import { payloadTextOf } from './endpoint';
import type { ViewModel } from './viewTypes';

export type { PageMessage, RenderReport, ViewModel } from './viewTypes';

/** The endpoint-specific part of a status's meaning (spec: Errors, and the endpoint's row). */
function endpointNote(endpointId: EndpointId | undefined, status: number): string | undefined {
  if (!endpointId) return undefined;
  const def = ENDPOINTS[endpointId];
  const listed = Object.hasOwn(def.responses, status);
  const when = `${def.method} ${def.path}`;
  if (status >= 200 && status < 300) return `${def.summary}${listed ? '' : ` (${status} is not among the answers ${when} documents)`}`;
  if (status === 409) {
    if (def.resource === 'claim') return 'For a claim: the registration is cancelled or expired, or has fewer tires left than claimed.';
    if (def.method === 'PATCH' && /cancel/i.test(endpointId)) return 'For a cancellation: the registration is already cancelled, or the program terms forbid it.';
    if (def.resource === 'shop' || def.resource === 'part') return 'For a shop create: a shop with this uniqueId exists.';
    if (/create/.test(endpointId)) return 'For a create: a record with this invoice (and store) number exists.';
  }
  if (status === 404) return def.resource === 'shop' || def.resource === 'part' ? 'No shop matches.' : 'No registration with this id (or invoice number).';
  if (!listed) return `${when} does not document ${status}.`;
  return undefined;
}

/** Sorted header pairs. */
const pairs = (h: Readonly<Record<string, string>> | undefined) => Object.entries(h ?? {}).sort(([a], [b]) => a.localeCompare(b)) as [string, string][];

/** Pretty JSON when `text` is JSON, else the text. */
export function prettyBody(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** True when the exchange's request is a write whose body can be opened as a payload file (./endpoint.ts). */
function canOpenAsPayload(x: Exchange): boolean {
  if (!changesData(x.request.method)) return false;
  try {
    return payloadTextOf(x) !== '';
  } catch {
    return false;
  }
}

/**
 * The view model of an exchange, completed (./complete.ts: its endpoint is known when it is one of the table's) and
 * described in full by its producer (`x.diagnosis`); `fieldLinks` when the request came from a payload file whose
 * fields the page may link to.
 */
export function toViewModel(x: Exchange, opts: { fieldLinks: boolean }): ViewModel {
  const env = isEnvironmentId(x.env) ? ENVIRONMENTS[x.env] : undefined;
  const endpointId = x.endpoint?.id;
  const note = x.response ? endpointNote(endpointId, x.response.status) : undefined;
  const openable = canOpenAsPayload(x);
  const requestBody = x.request.body !== undefined ? prettyBody(x.request.body) : undefined;
  const s = x.response ? describeStatus(x.response.status) : undefined;
  const d = new Date(x.time);
  return {
    id: x.id,
    // The method and URL are the line under the title: without a title of its own, the endpoint's summary.
    title: x.title ?? (endpointId ? ENDPOINTS[endpointId].summary : `${x.request.method} ${x.request.url}`),
    envLabel: env?.label ?? x.env,
    production: env?.guarded ?? false,
    method: x.request.method,
    url: x.request.url,
    time: Number.isNaN(d.getTime()) ? x.time : d.toLocaleString(),
    durationMs: Math.round(x.durationMs),
    ...(x.response ? { size: x.response.size ?? Buffer.byteLength(x.response.body ?? '', 'utf8') } : {}),
    attempts: x.attempts,
    ...(s ? { status: { code: s.status, name: s.name, meaning: note ? `${s.meaning} ${note}` : s.meaning, kind: s.kind } } : {}),
    ...(x.problem ? { problem: x.problem } : {}),
    requestHeaders: pairs(x.request.headers),
    responseHeaders: pairs(x.response?.headers),
    ...(requestBody !== undefined ? { requestBody } : {}),
    ...(x.response?.body !== undefined ? { responseBody: x.response.body } : {}),
    responseTruncated: x.response?.truncated ?? false,
    diagnosis: x.diagnosis ?? [],
    fieldLinks: opts.fieldLinks,
    canOpenAsPayload: openable,
  };
}
