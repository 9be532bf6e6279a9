import { describeExchange } from './describe';
import { endpointOfExchange, exchangeEndpoint } from './endpoint';
import type { Exchange } from './types';

/**
 * An exchange as its readers take it (the response view, the history): with its typed endpoint — as its producer
 * named it, or, for a request logged by the sandbox or the proxy and a history line of an earlier version, matched
 * from method and URL against the endpoint table (../shared/spec/partner-interface.md, Endpoints) — and, for a
 * request the toolkit sent that arrives without a description (made by hand, or by an older version), the one
 * exchangeOf computes (./describe.ts). Returns `x` itself when nothing is missing. Never throws.
 */
export function completeExchange(x: Exchange): Exchange {
  const id = x.endpoint ? undefined : endpointOfExchange(x);
  const endpoint = id ? exchangeEndpoint(id, x.request.url) : undefined;
  const typed = endpoint ? { ...x, endpoint } : x;
  if (typed.source !== 'client' || typed.diagnosis?.length) return typed;
  const diagnosis = describeExchange(typed);
  return diagnosis.length ? { ...typed, diagnosis } : typed;
}
