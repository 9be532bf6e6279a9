import type { EndpointId } from '../contract/types';
import { ENDPOINTS } from '../contract';
import { changesData } from '../contract/methods';
import { endpointOfExchange, paramsOfExchange } from './endpoint';
import type { Exchange } from './types';

/**
 * The writes other programs made through the Local sandbox (your application, `tpp send`, curl), read from the
 * requests it logged (README, Integration Log): each changes what the side bar's registration lists show, as the
 * editor's own sends do (../shared/spec/partner-interface.md, Endpoints).
 */

/** One write: the endpoint and, while a batch has few, its path parameters (the registration a claim was for). */
export interface OtherClientWrite {
  readonly endpointId: EndpointId;
  readonly params?: Readonly<Record<string, string>>;
}

/** Over this many distinct writes in one batch (a backfill), each endpoint is reported once, without parameters. */
export const MAX_WRITES_WITH_PARAMS = 20;

/**
 * The successful (2xx) writes (not GET or HEAD) to contract endpoints in `records`, leaving out those whose
 * User-Agent is in `ownUserAgents` (the editor reports its own sends itself); one entry per endpoint and path
 * parameters, or, past {@link MAX_WRITES_WITH_PARAMS}, one per endpoint. Requests the contract does not name are
 * left out. Work and result are bounded by the batch and by the endpoint table.
 */
export function otherClientWrites(records: readonly Exchange[], ownUserAgents: readonly string[]): OtherClientWrite[] {
  const byKey = new Map<string, OtherClientWrite>();
  const endpoints = new Set<EndpointId>();
  for (const x of records) {
    const status = x.response?.status;
    if (status === undefined || status < 200 || status > 299) continue;
    if (!changesData(x.request.method) || ownUserAgents.includes(x.request.headers?.['user-agent'] ?? '')) continue;
    const endpointId = endpointOfExchange(x);
    if (!endpointId || !changesData(ENDPOINTS[endpointId].method)) continue;
    endpoints.add(endpointId);
    if (byKey.size > MAX_WRITES_WITH_PARAMS) continue;
    const params = paramsOfExchange(x, endpointId);
    byKey.set(JSON.stringify([endpointId, params]), Object.keys(params).length ? { endpointId, params } : { endpointId });
  }
  return byKey.size > MAX_WRITES_WITH_PARAMS ? [...endpoints].map((endpointId) => ({ endpointId })) : [...byKey.values()];
}
