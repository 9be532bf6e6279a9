import type { MalformedResponseError, PartnerApiError, PartnerNetworkError, RequestPolicyError } from '../../core/client';

/*
 * Recognises the client's errors by their `name` rather than with `instanceof`: the client lives in dist/core.js
 * (loaded lazily), and a test bundle has its own copy of the classes, so identity checks would not hold there.
 */

const named = (err: unknown, name: string): boolean => err instanceof Error && err.name === name;

/** A non-success status from the server. */
export function isApiError(err: unknown): err is PartnerApiError {
  return named(err, 'PartnerApiError') && typeof (err as { status?: unknown }).status === 'number';
}

/** No answer (refused, reset, timed out). */
export function isNetworkError(err: unknown): err is PartnerNetworkError {
  return named(err, 'PartnerNetworkError');
}

/** A success whose body breaks the contract. */
export function isMalformedResponse(err: unknown): err is MalformedResponseError {
  return named(err, 'MalformedResponseError');
}

/** An address or redirect the client refused (nothing sent there). */
export function isPolicyError(err: unknown): err is RequestPolicyError {
  return err instanceof Error && typeof (err as { reason?: unknown }).reason === 'string' && typeof (err as { method?: unknown }).method === 'string';
}
