/**
 * Masking of secrets in anything shown or logged (Developers' guide: Secrets).
 *
 * - A JWT (three base64url parts whose first decodes to a JSON object, `eyJ…` or a header with white space) keeps its
 *   first 10 characters: `eyJhbGciOi…[masked JWT]`.
 * - `Bearer <anything>` keeps only the word Bearer; after an `Authorization` name, `Basic` and `Token` too.
 * - A PEM private key block (any `-----BEGIN … PRIVATE KEY-----` … `END` block) is replaced whole.
 * - Values of JSON/query/header properties whose name says they hold a secret (`token`, `secret`, `password`,
 *   `privateKey`, `authorization`, `api-key`) are replaced, a quoted value whole (spaces included).
 *
 * Header values have their own rules ({@link maskHeaderValue}): an Authorization value keeps only a known scheme, so
 * a token sent without one (`Authorization: <jwt>`, the very mistake the Integration Log explains) is masked whole.
 */
const PEM_PRIVATE = /-----BEGIN ([A-Z ]*)PRIVATE KEY-----[\s\S]*?(?:-----END \1PRIVATE KEY-----|$)/g;
// A JWT's header is a JSON object: its base64url starts `e` then `y` (`{"` or `{ `) or `w` (`{` and a line break).
// The candidates are confirmed by decoding (jwtLike) so a host name such as `eyeglass.example.com` is left alone.
const JWT = /\be[wy][A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*\.?[A-Za-z0-9_-]*/g;
const BEARER = /\b(Bearer)\s+[^\s"',;]+/gi;
/** Schemes of an Authorization value that are kept (RFC 9110 §11.6.2); any other first word may be the credential. */
const KNOWN_SCHEME = /^(?:Bearer|Basic|Token)$/i;
// After an Authorization name, the scheme (when known) is kept and the credential masked.
const AUTH_PROP = /("?\b[A-Za-z_]{0,64}authorization"?\s*[:=]\s*"?)(?:(Bearer|Basic|Token)\s+)?([^"\s,;}&]+)/gi;
// The name prefix is bounded and starts at a word boundary, so a long run of letters costs linear time
// (an unbounded `[A-Za-z_]*` tried every start position: quadratic, a 256 KB body never finished).
// A quoted value is taken up to its closing quote, spaces included ("hunter two" is one password).
const SECRET_PROP = /("?\b[A-Za-z_]{0,64}(?:token|secret|password|passwd|privateKey|api[-_]?key)"?\s*[:=]\s*)("(?:[^"\\\n]|\\.)*"?|[^"\s&,;}]+)/gi;
/**
 * Header names whose whole value is a credential (besides Authorization and cookies): `x-api-key`, `x-auth-token`,
 * `x-amz-security-token`, `x-session-id`… Matched on `-`/`_`-separated parts, so `www-authenticate` (a challenge, which
 * explains a 401) stays readable.
 */
const SECRET_HEADER = /(?:^|[-_])(?:api[-_]?key|apikey|access[-_]?key|token|secret|password|passwd|session(?:[-_]?id)?|credentials?|signature|auth)(?:$|[-_])/i;

export const MASK = '[masked]';

/**
 * A word every pattern above needs (a superset: `ey`/`ew` and `PRIVATE KEY` are matched without case here). Text
 * without any is returned as it is after one scan: most request and answer bodies hold no secret, and the request log
 * masks every one it shows.
 */
const ANY_TRIGGER = /token|secret|passw|privatekey|authorization|bearer|api.?key|e[wy][A-Za-z0-9_-]{4,}\.|PRIVATE KEY/i;

/** True when `segment` (base64url) decodes to the start of a JSON object with a quoted member, as a JWT header does. */
function jwtLike(segment: string): boolean {
  const head = Buffer.from(segment.slice(0, 16), 'base64url').toString('latin1');
  return /^\{\s*"/.test(head);
}

/** Returns `text` with every token, bearer credential, private key and secret-named value masked. */
export function maskSecrets(text: string): string {
  if (!ANY_TRIGGER.test(text)) return text;
  // Named values first, whole: a token after `token=` or `Authorization:` is masked as one value, before the JWT
  // pattern would leave `…[masked JWT]` for these patterns to cut at its space.
  return text
    .replace(PEM_PRIVATE, '[masked private key]')
    .replace(AUTH_PROP, (_m, key: string, scheme: string | undefined, value: string) => `${key}${scheme ? `${scheme} ` : ''}${value.startsWith('[masked') ? value : MASK}`)
    .replace(SECRET_PROP, (_m, key: string, value: string) => {
      const quoted = value.startsWith('"');
      if ((quoted ? value.slice(1) : value).startsWith('[masked')) return `${key}${value}`;
      return `${key}${quoted ? `"${MASK}${value.length > 1 && value.endsWith('"') ? '"' : ''}` : MASK}`;
    })
    .replace(BEARER, `$1 ${MASK}`)
    .replace(JWT, (jwt) => (jwtLike(jwt.split('.')[0]!) ? `${jwt.slice(0, 10)}…[masked JWT]` : jwt));
}

/**
 * An Authorization (or Proxy-Authorization) value as shown: a known scheme (`Bearer`, `Basic`, `Token`) followed by
 * `[masked]`; any other value (a token sent without its scheme, an unknown scheme) is `[masked]` whole. Idempotent, so
 * a value masked here is recognised again without trusting any value that merely ends in `[masked]`.
 */
export function maskAuthorization(value: string): string {
  const m = /^\s*(\S+)(\s+\S[\s\S]*)?$/.exec(value);
  if (!m) return '';
  const scheme = m[1]!;
  if (!KNOWN_SCHEME.test(scheme)) return MASK;
  return m[2] ? `${scheme} ${MASK}` : scheme;
}

/**
 * Headers as an exchange, a report or a log keeps them: lower-case names, one string per header (arrays joined by
 * `, `), each value through {@link maskHeaderValue}. The one masking of headers for every exchange (docs/flows.md,
 * What a flow may do: Exchanges keep no credential).
 */
export function maskHeaders(headers: Readonly<Record<string, unknown>> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    out[lower] = maskHeaderValue(lower, Array.isArray(value) ? value.join(', ') : String(value));
  }
  return out;
}

/** A header's value as shown or logged: credentials by name ({@link SECRET_HEADER}), cookies whole, the rest through {@link maskSecrets}. */
export function maskHeaderValue(name: string, value: string): string {
  const lower = name.toLowerCase();
  if (lower === 'authorization' || lower === 'proxy-authorization') return maskAuthorization(value);
  // A challenge (RFC 9110 §11.6.1) holds no credential, and its `Bearer error="invalid_token"` explains a 401.
  if (lower === 'www-authenticate' || lower === 'proxy-authenticate') return value;
  if (lower === 'cookie' || lower === 'set-cookie' || SECRET_HEADER.test(lower)) return MASK;
  return maskSecrets(value);
}
