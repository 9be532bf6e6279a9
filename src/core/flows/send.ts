/**
 * Sending one resolved flow request (docs/flows.md, How requests are sent; What a flow may do): the host rule first
 * (carried.ts: values of the user's side go only to the environment's addresses unless allowed), then the toolkit's
 * one client (client/clientFor.ts), which sends a contract endpoint at the environment's addresses as that contract
 * call (fresh JWT per attempt, retries, duplicate-safe creates) and anything else once, as written.
 */
import { sentError, type ToolkitClient, type WrittenRequest } from '../client/clientFor';
import { ApiError, NetworkError } from '../client/errors';
import type { EndpointDef } from '../contract/types';
import type { Exchange } from '../exchange/types';
import { atEnvironment, hostRefusal, type Carried, type HostPolicy } from './carried';
import type { FlowAnswer } from './variables';

/** A request with its variables resolved: as written, its body's JSON value when it is JSON, what it carries. */
export interface PreparedRequest extends Omit<WrittenRequest, 'kind'> {
  /** What the request carries from the user's side (carried.ts); it goes only to the environment unless allowed. */
  readonly carried?: readonly Carried[];
}

/** What sending needs besides the request. */
export interface FlowSendContext {
  /** The client of the run's environment. */
  readonly client: ToolkitClient;
  readonly signal?: AbortSignal;
  /** Hosts outside the environment that may receive the user's values (carried.ts). */
  readonly hosts?: HostPolicy;
}

/** The outcome: the answer (when one came), the endpoints it was matched to, the exchange, or why no answer came. */
export interface SendOutcome {
  readonly answer?: FlowAnswer;
  readonly endpoints: readonly EndpointDef[];
  /** Absent when nothing was sent (the host rule refused it). */
  readonly exchange?: Exchange;
  /** Set when nothing usable came back (refused, network, timeout, too large, outcome unknown). */
  readonly error?: string;
  /** A create whose answer was lost but that the duplicate check found stored. */
  readonly recovered?: boolean;
  /** With `error`: the request may have taken effect (sent, and no answer or a 5xx to a write that is not repeated). */
  readonly outcomeUnknown?: boolean;
  /**
   * The client's error when a contract call did not succeed (ApiError, MalformedResponseError, NetworkError…), also
   * when the answer it carried is given: a backfill settles a 409 or an unreadable 2xx with it (backfill/sendRow.ts).
   */
  readonly cause?: unknown;
}

/** True when the client's error says the request may have taken effect. */
const outcomeUnknown = (err: unknown): boolean => (err instanceof ApiError || err instanceof NetworkError) && err.outcomeUnknown === true;

/**
 * Sends one request (see the module comment).
 * @returns the answer and exchange; never throws for a failed request (`error` says why no answer came).
 */
export async function sendFlowRequest(req: PreparedRequest, ctx: FlowSendContext): Promise<SendOutcome> {
  const env = ctx.client.environment;
  const refused = await hostRefusal(req.url, req.carried ?? [], env, ctx.hosts);
  if (refused) return { endpoints: [], error: `Not sent: ${refused}.` };
  const sent = await ctx.client.send({ kind: 'written', ...req }, { ...(ctx.signal ? { signal: ctx.signal } : {}) });
  const base = { endpoints: sent.endpoints, exchange: sent.exchange, ...(sent.recovered ? { recovered: true } : {}), ...(sent.error !== undefined ? { cause: sent.error } : {}) };
  if (!sent.answer) return { ...base, error: sentError(sent), ...(outcomeUnknown(sent.error) ? { outcomeUnknown: true } : {}) };
  // An answer of another host than the environment's carries nothing of the partner's (carried.ts).
  return { ...base, answer: atEnvironment(new URL(req.url), env) ? sent.answer : { ...sent.answer, fromEnvironment: false } };
}
