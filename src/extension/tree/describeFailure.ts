import { ApiError, MalformedResponseError, NetworkError, PolicyError } from '../../core/client';
import { ENVIRONMENTS, EnvironmentId } from '../../core/environments';

/**
 * A reason for the tree, from any error of a list call: 401 (token rejected), unreachable, 5xx, other statuses,
 * a body that breaks the contract, or the setup gap (no key, no Partner ID, no address).
 */
export function describeFailure(err: unknown, env: EnvironmentId): string {
  const label = ENVIRONMENTS[env].label;
  if (err instanceof ApiError) {
    if (err.status === 401) return `401 Unauthorized: ${label} rejected the token — check the Partner ID and that the public key is registered`;
    if (err.status >= 500) return `${err.status} ${err.statusName}: ${label} failed${err.retriesExhausted ? ` (after ${err.attempts} attempts)` : ''} — retry later`;
    return `${err.status} ${err.statusName}: ${err.meaning}`;
  }
  if (err instanceof NetworkError) {
    let where = err.url;
    try {
      where = new URL(err.url).origin;
    } catch {
      // keep the URL
    }
    return `${label} is unreachable at ${where}: ${err.timedOut ? 'timed out' : err.code}`;
  }
  if (err instanceof MalformedResponseError) return `${label} answered ${err.status} with a body that breaks the contract`;
  if (err instanceof PolicyError) return `Not sent: ${err.message}`;
  return err instanceof Error ? err.message : String(err);
}

