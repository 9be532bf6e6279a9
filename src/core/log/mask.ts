/**
 * Masking of secrets in anything shown or logged (Developers' guide: Secrets).
 *
 * - A JWT (three base64url parts, the first starting `eyJ`) keeps its first 10 characters: `eyJhbGciOi…[masked JWT]`.
 * - `Bearer <anything>` keeps only the word Bearer.
 * - A PEM private key block (any `-----BEGIN … PRIVATE KEY-----` … `END` block) is replaced whole.
 * - Values of JSON/query properties whose name says they hold a secret (`token`, `secret`, `password`,
 *   `privateKey`, `authorization`) are replaced.
 */
const PEM_PRIVATE = /-----BEGIN ([A-Z ]*)PRIVATE KEY-----[\s\S]*?(?:-----END \1PRIVATE KEY-----|$)/g;
const JWT = /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*\.?[A-Za-z0-9_-]*/g;
const BEARER = /\b(Bearer)\s+[^\s"',;]+/gi;
// The name prefix is bounded and starts at a word boundary, so a long run of letters costs linear time
// (an unbounded `[A-Za-z_]*` tried every start position: quadratic, a 256 KB body never finished).
const SECRET_PROP = /("?\b[A-Za-z_]{0,64}(?:token|secret|password|privateKey|authorization)"?\s*[:=]\s*"?)([^"\s&,}]+)/gi;

export const MASK = '[masked]';

/**
 * A word every pattern above needs (a superset: `eyJ` and `PRIVATE KEY` are matched without case here). Text without
 * any is returned as it is after one scan, instead of four: most request and answer bodies hold no secret, and the
 * request log masks every one it shows.
 */
const ANY_TRIGGER = /token|secret|password|privatekey|authorization|bearer|eyJ|PRIVATE KEY/i;

/** Returns `text` with every token, bearer credential, private key and secret-named value masked. */
export function maskSecrets(text: string): string {
  if (!ANY_TRIGGER.test(text)) return text;
  return text
    .replace(PEM_PRIVATE, '[masked private key]')
    .replace(BEARER, `$1 ${MASK}`)
    .replace(JWT, (jwt) => `${jwt.slice(0, 10)}…[masked JWT]`)
    .replace(SECRET_PROP, (_m, key: string, value: string) => (value.startsWith('[masked') || /^bearer$/i.test(value) ? `${key}${value}` : `${key}${MASK}`));
}
