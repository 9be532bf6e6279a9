import { matchEndpoints } from '../contract/endpoints';
import type { EndpointDef } from '../contract/types';
import type { Exchange } from '../exchange/types';
import { maskSecrets } from '../log/mask';
import type { BaseIndex, Located } from './bases';

/**
 * One recorded exchange read for a flow (docs/flows.md, Recording a flow): where it went, which endpoints of the
 * contract its method and path are (spec: Endpoints), its body and answer as JSON; or why a flow cannot send it.
 */

/** Methods a flow's request line may name (docs/flows.md, Format). */
const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE']);

/** A recorded exchange a flow can send again. */
export interface StoryRequest {
  /** 0-based position in the recording. */
  readonly index: number;
  readonly exchange: Exchange;
  readonly method: string;
  readonly at: Located;
  /** The endpoints of the contract its method and path are (several share a route); empty for any other path. */
  readonly group: readonly EndpointDef[];
  /** Path parameters by the first endpoint's template, decoded (`{ id: '…', company_name: 'local' }`). */
  readonly params: Readonly<Record<string, string>>;
  /** The body sent, as JSON, top-level `$` properties dropped; absent without a body. */
  readonly body?: { readonly value: unknown };
  readonly status: number;
  /** The answer as JSON when it is JSON and kept whole. */
  readonly answer?: { readonly value: unknown };
  /** The answer's text when kept whole (the contract check reads it), else undefined. */
  readonly answerText?: string;
}

/** What the caller says about the record, for the reasons it gives. */
export interface ReadContext {
  readonly bases: BaseIndex;
  /** Why a body may be missing from this kind of record (e.g. a log that keeps none). */
  readonly missingBodyHint?: string;
}

/** `{ json }` of a text, or undefined when it is not JSON. */
function json(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/** A JSON object's top-level `$` properties (payload-file metadata, docs/flows.md, Format) dropped. */
function withoutMeta(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => !k.startsWith('$')));
}

/** Why the answer makes the exchange one a flow cannot expect again, or undefined. */
function answerProblem(x: Exchange): string | undefined {
  const status = x.response?.status;
  if (!status) return `got no answer${x.problem ? ` (${x.problem})` : ''}: a flow cannot expect an answer that never came`;
  const fault = x.diagnosis?.find((d) => d.rule === 'fault');
  if (fault) return `was answered by an injected fault (${fault.message}): a run of the flow will not meet it again`;
  if (status === 401) return 'was refused with 401: the runner signs every request with a fresh token of its own, so the token that was refused cannot be sent again';
  if (status === 429 || status >= 500) return `answered ${status}, a failure of the server, not of the request: a flow cannot expect it again`;
  return undefined;
}

/** Why a text cannot be written into a flow as it is, or undefined. */
function textProblem(text: string, what: string): string | undefined {
  if (text.includes('[masked') || /[?&][^=&]*=\*\*\*(?:&|$)/.test(text)) return `its ${what} carries a masked value: the text kept is not what was sent`;
  if (text.includes('{{')) return `its ${what} carries {{, which a flow reads as a variable`;
  if (maskSecrets(text) !== text) return `its ${what} carries what looks like a secret, which a flow never writes`;
  return undefined;
}

/** Why the request's body cannot be sent again, or undefined; `body` is its JSON when it is. */
function bodyProblem(x: Exchange, ctx: ReadContext): string | undefined {
  const text = x.request.body;
  const hint = ctx.missingBodyHint ? ` (${ctx.missingBodyHint})` : '';
  if (x.request.truncated) return `its body is not in the record whole${hint}`;
  if (text === undefined) return undefined;
  if (!json(text)) return 'its body is not JSON: a recorded flow sends JSON bodies only';
  return textProblem(text, 'body');
}

/**
 * Reads exchange `index` for a flow: a {@link StoryRequest}, or the reason it cannot be sent again (no answer, an
 * injected fault, a 401 or a server failure, a method flows do not have, a URL under no base address, a body that
 * is not JSON or not whole, a masked value or `{{`).
 */
export function readExchange(x: Exchange, index: number, ctx: ReadContext): StoryRequest | { readonly refused: string } {
  const answer = answerProblem(x);
  if (answer) return { refused: answer };
  const method = x.request.method.toUpperCase();
  if (!METHODS.has(method)) return { refused: `uses the method ${method}, which flows do not send` };
  const at = ctx.bases.locate(x.request.url);
  if (!at) return { refused: "was sent to an address that is none of the environment's base addresses: a flow names only {{baseUrl}}, {{v2BaseUrl}} and {{eligibilityBaseUrl}}" };
  const urlProblem = textProblem(x.request.url, 'URL');
  if (urlProblem) return { refused: urlProblem };
  const matches = matchEndpoints(method, at.path).filter((m) => m.def.base === at.kind);
  const group = matches.map((m) => m.def);
  const refused = bodyProblem(x, ctx);
  if (refused) return { refused };
  const response = x.response as NonNullable<Exchange['response']>;
  const whole = response.truncated ? undefined : (response.body ?? '');
  const body = x.request.body === undefined ? undefined : { value: withoutMeta((json(x.request.body) as { value: unknown }).value) };
  const answerJson = whole ? json(whole) : undefined;
  return {
    index,
    exchange: x,
    method,
    at,
    group,
    params: matches[0]?.params ?? {},
    ...(body ? { body } : {}),
    status: response.status,
    ...(answerJson ? { answer: answerJson } : {}),
    ...(whole !== undefined ? { answerText: whole } : {}),
  };
}
