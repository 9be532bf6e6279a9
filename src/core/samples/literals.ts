/**
 * String literals for the generated programs. Double-quoted literals (C#, Java, Go) and shell words use httpsnippet's
 * escapers (pinned 3.0.10: these are deep imports of its helpers, not its public API); JSON bodies go into each
 * language's raw or multi-line form so that the sent bytes are easy to read and edit.
 */
import { escapeString } from 'httpsnippet/dist/helpers/escape';
import { quote } from 'httpsnippet/dist/helpers/shell';
import { audienceEnvOf, SAMPLE_ENV, type PathPart, type SampleRequest } from './request';

/** A double-quoted literal valid in C#, Java and Go (`\b \t \n \f \r \\ \"`, control characters as `\uXXXX`). */
export function dq(s: string): string {
  return `"${escapeString(s, { delimiter: '"' })}"`;
}

/** A PHP single-quoted literal (only `\\` and `\'` are escapes there). */
export function phpSq(s: string): string {
  return `'${s.replace(/[\\']/g, '\\$&')}'`;
}

/** A shell word (single-quoted unless it is safe bare). */
export function shellWord(s: string): string {
  return quote(s);
}

/** A Python literal of a JSON value (strings and keys as JSON writes them, which Python reads alike). */
export function pyLiteral(v: unknown, indent = ''): string {
  if (v === null || v === undefined) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number' || typeof v === 'string') return JSON.stringify(v);
  const inner = indent + '    ';
  if (Array.isArray(v)) return v.length ? `[\n${v.map((x) => inner + pyLiteral(x, inner)).join(',\n')}\n${indent}]` : '[]';
  const entries = Object.entries(v as Record<string, unknown>);
  return entries.length ? `{\n${entries.map(([k, x]) => `${inner}${JSON.stringify(k)}: ${pyLiteral(x, inner)}`).join(',\n')}\n${indent}}` : '{}';
}

/** The body as sent: JSON, two-space indented (absent without a body). */
export function bodyJson(req: SampleRequest): string | undefined {
  return req.body === undefined ? undefined : JSON.stringify(req.body, null, 2);
}

/** Environment variables a sample reads, in order: base, Partner ID, key file, then the path's own. */
export function envVarsOf(req: SampleRequest): { name: string; what: string }[] {
  const out: { name: string; what: string }[] = [
    { name: req.baseEnv, what: req.baseEnv === SAMPLE_ENV.baseUrl ? 'the version 3 base address, e.g. http://127.0.0.1:PORT/api/v3 (also the JWT aud, exactly, unless TPP_AUDIENCE is set)' : 'the version 2 host (also the JWT aud, exactly, unless TPP_V2_AUDIENCE is set)' },
    { name: SAMPLE_ENV.partnerId, what: 'your Partner ID (the JWT iss)' },
    { name: SAMPLE_ENV.privateKeyFile, what: 'your PKCS#8 PEM private key (P-256, P-384 or P-521; never put the key in the code)' },
    { name: audienceEnvOf(req), what: `optional, the JWT aud (default ${req.baseEnv}): the real address when ${req.baseEnv} is a local proxy in front of it` },
  ];
  for (const p of req.path) if (typeof p !== 'string' && !out.some((o) => o.name === p.env)) out.push({ name: p.env, what: p.what });
  return out;
}

/**
 * The URL as one expression of the target language: `base` (an expression of the base address) followed by the
 * path's literal parts and its environment-variable parts, each wrapped by `envPart`.
 */
export function urlExpression(req: SampleRequest, base: string, lit: (s: string) => string, envPart: (p: Exclude<PathPart, string>) => string, plus = ' + '): string {
  return [base, ...req.path.map((p) => (typeof p === 'string' ? lit(p) : envPart(p)))].join(plus);
}

/**
 * Header comment lines shared by every language (without comment markers). `dotenv`: the dotenv file the program
 * loads itself (beside it), when it does.
 */
export function headerLines(req: SampleRequest, run: string, needs: string, dotenv?: string): string[] {
  return [
    `${req.title}, with a fresh partner JWT (spec: Authentication).`,
    `Needs: ${needs}`,
    `Run: ${run}`,
    dotenv !== undefined ? `Reads (from ${dotenv} beside this program, unless already set):` : 'Reads:',
    ...envVarsOf(req).map((e) => `  ${e.name}: ${e.what}`),
    'Prints the status and the body; exits 1 on a status other than 2xx.',
  ];
}

/** Lifetime of the token each sample mints, in seconds (`exp` = `iat` + this; the spec allows at most 7200). */
export const TOKEN_LIFETIME_SECONDS = 300;

/** The comment (without its marker) above the statements that fill a body's fresh values. */
export const FRESH_COMMENT = 'Fresh values on every run, where the payload file had $guid, $timestamp or $randomInt: a second run must not repeat the invoice number.';
