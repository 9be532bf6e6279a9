/**
 * Which requests change data: the one definition the Production guard, the retry rules, the Request History's
 * Resend and the Integration Log read. The safe methods of RFC 9110 §9.2.1 (GET, HEAD, OPTIONS) only read; every other
 * method (POST, PUT, PATCH, DELETE, TRACE…) is treated as a write (spec: Errors — a write is never sent twice blindly).
 */
export const SAFE_METHODS: readonly string[] = ['GET', 'HEAD', 'OPTIONS'];

/** True when a request with `method` (any case) may change data. */
export function changesData(method: string): boolean {
  return !SAFE_METHODS.includes(method.toUpperCase());
}
