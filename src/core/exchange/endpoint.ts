import { ENDPOINTS, PAYLOAD_KINDS, schemaUri } from '../contract';
import type { EndpointId, PayloadKind } from '../contract/types';
import type { Exchange, ExchangeEndpoint } from './types';

/**
 * What an exchange's request was, in the contract's terms (../shared/spec/partner-interface.md, Endpoints): its
 * endpoint (named by the producer, or matched from method and URL for requests logged by the sandbox), the path
 * parameters read back from the URL, the query, and the payload kind of its body.
 */

/** `/tire-protection/registrations/:id` → a regex matching the end of a URL path, one group per parameter. */
function templateRegex(path: string): RegExp {
  const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '([^/]+)');
  return new RegExp(`${escaped}/?$`);
}

function pathnameOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url.split('?')[0] ?? url;
  }
}

/**
 * The typed endpoint of a request to `url`: its row's resource, and `params` as sent (stringified) or, when not
 * given, read back from the URL by the row's path template. `undefined` when `id` is not an endpoint of the table.
 */
export function exchangeEndpoint(id: string, url: string, params?: Readonly<Record<string, string | number>>): ExchangeEndpoint | undefined {
  if (!Object.hasOwn(ENDPOINTS, id)) return undefined;
  const def = ENDPOINTS[id as EndpointId];
  const given = params ? Object.fromEntries(def.pathParams.filter((n) => params[n] !== undefined).map((n) => [n, String(params[n])])) : undefined;
  return { id: def.id, params: given ?? paramsFromUrl(url, def.id), resource: def.resource };
}

/**
 * The endpoint of an exchange: its `endpoint` when the producer named it, else the longest template matching method
 * and path; of endpoints sharing one (a motor-club customer update and a cancellation), the one whose body schema
 * accepts the body.
 */
export function endpointOfExchange(x: Exchange): EndpointId | undefined {
  if (x.endpoint && Object.hasOwn(ENDPOINTS, x.endpoint.id)) return x.endpoint.id;
  const path = pathnameOf(x.request.url);
  const matches = Object.values(ENDPOINTS).filter((def) => def.method === x.request.method.toUpperCase() && templateRegex(def.path).test(path));
  const longest = Math.max(0, ...matches.map((d) => d.path.length));
  const best = matches.filter((d) => d.path.length === longest);
  if (best.length > 1) {
    const body = requestJson(x);
    const fits = best.find((d) => body !== undefined && d.body?.safeParse(body).success);
    if (fits) return fits.id;
  }
  return best[0]?.id;
}

/** Path parameters of the exchange (`{ id: 'abc' }`): as sent when its endpoint is `endpointId`, else read from its URL. */
export function paramsOfExchange(x: Exchange, endpointId: EndpointId): Readonly<Record<string, string>> {
  return x.endpoint?.id === endpointId ? x.endpoint.params : paramsFromUrl(x.request.url, endpointId);
}

/** Path parameters of `url` by the endpoint's template, decoded. */
function paramsFromUrl(url: string, endpointId: EndpointId): Record<string, string> {
  const def = ENDPOINTS[endpointId];
  const m = templateRegex(def.path).exec(pathnameOf(url));
  const out: Record<string, string> = {};
  def.pathParams.forEach((name, i) => {
    const v = m?.[i + 1];
    if (v !== undefined) out[name] = decodeURIComponent(v);
  });
  return out;
}

/** Query parameters of the exchange's URL. */
export function queryOfExchange(x: Exchange): Record<string, string> {
  try {
    return Object.fromEntries(new URL(x.request.url).searchParams.entries());
  } catch {
    return {};
  }
}

/** The request body as JSON, `undefined` when absent, cut or not JSON. */
export function requestJson(x: Exchange): unknown {
  if (x.request.body === undefined || x.request.truncated) return undefined;
  try {
    return JSON.parse(x.request.body) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The payload kind of a request body sent to `endpointId`: the one kind sent there, or (version 2, one endpoint for
 * four kinds) the kind whose template shares the most top-level properties with the body.
 */
export function kindOfRequest(endpointId: EndpointId, body: unknown): PayloadKind | undefined {
  const candidates = Object.values(PAYLOAD_KINDS).filter((k) => k.endpoints.includes(endpointId));
  if (candidates.length <= 1) return candidates[0]?.kind;
  const keys = new Set(body && typeof body === 'object' ? Object.keys(body) : []);
  const score = (k: (typeof candidates)[number]) => Object.keys(k.template).filter((p) => !p.startsWith('$') && keys.has(p)).length;
  return [...candidates].sort((a, b) => score(b) - score(a))[0]?.kind;
}

/**
 * The text of a payload file that sends the exchange's request again: `$schema` of the body's kind, the meta
 * properties the path and query filled (`$registrationId`, `$invoiceNumber`, `$uniqueId`, …), then the body.
 * @throws Error when the request has no sendable body (a GET, a body cut at the size cap, an unknown endpoint).
 */
export function payloadTextOf(x: Exchange): string {
  const endpointId = endpointOfExchange(x);
  if (!endpointId) throw new Error(`${x.request.method} ${x.request.url} is not an endpoint of the partner interface.`);
  const body = requestJson(x);
  if (x.request.truncated) throw new Error('The body of this request was larger than 64 KB and is not kept whole: it cannot be opened as a payload file.');
  const kind = kindOfRequest(endpointId, body);
  if (!kind || body === undefined) throw new Error(`${ENDPOINTS[endpointId].method} ${ENDPOINTS[endpointId].path} has no payload body to edit.`);
  const params = paramsOfExchange(x, endpointId);
  const query = queryOfExchange(x);
  const meta: Record<string, string> = {};
  for (const [name, def] of Object.entries(PAYLOAD_KINDS[kind].meta)) {
    const v = def.pathParam ? params[def.pathParam] : def.queryParam ? query[def.queryParam] : undefined;
    if (v !== undefined && v !== '') meta[name] = v;
  }
  // `$product` picks the path of a cancellation (tire-protection by default).
  const product = ENDPOINTS[endpointId].product;
  if ('$product' in PAYLOAD_KINDS[kind].meta && product !== 'tire-protection') meta.$product = product;
  const value = { $schema: schemaUri(kind), ...meta, ...(body && typeof body === 'object' && !Array.isArray(body) ? body : { body }) };
  return JSON.stringify(value, null, 2) + '\n';
}
