/**
 * Decoding a pasted partner JWT (spec: Authentication, "the token is header.payload.signature") without checking
 * anything: no key, no signature, no clock. inspect.ts checks the decoded parts.
 */

/**
 * Cleans up a pasted token: trims whitespace and surrounding quotes and removes an
 * `Authorization:` / `Bearer ` prefix. Does not validate.
 */
export function normalizeTokenInput(text: string): string {
  let t = text.trim();
  t = t.replace(/^authorization\s*:\s*/i, '').replace(/^bearer\s+/i, '');
  if (/^(["'`]).*\1$/s.test(t)) t = t.slice(1, -1).trim();
  return t;
}

/** The alphabet of a base64url part without padding. */
export const B64URL = /^[A-Za-z0-9_-]+$/;

/** The JSON object a base64url part holds, or undefined when it holds none. */
export function decodeJsonPart(part: string): Record<string, unknown> | undefined {
  if (!B64URL.test(part)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Decodes header and claims without checking anything (`undefined` for a part that is not base64url JSON). */
export function decodeJwt(token: string): { header?: Record<string, unknown>; claims?: Record<string, unknown> } {
  const [h = '', p = ''] = normalizeTokenInput(token).split('.');
  return { header: decodeJsonPart(h), claims: decodeJsonPart(p) };
}
