import { createPublicKey, KeyObject } from 'node:crypto';
import { compactVerify } from 'jose';
import {
  CLOCK_SKEW_SECONDS,
  Curve,
  CURVE_FOR_ALG,
  isJwtAlgorithm,
  type JwtAlgorithm,
  MAX_TOKEN_AGE_SECONDS,
  MAX_TOKEN_LIFETIME_SECONDS,
  SIGNATURE_BYTES,
} from './algorithms';
import { curveOfKey, fingerprintOf, publicKeyFromPem, shortFingerprint } from './keys';
import { nowSeconds } from './mint';
import { formatDuration, isoFromSeconds, MILLISECONDS_THRESHOLD, relativeTime } from './time';
import { B64URL, decodeJsonPart, normalizeTokenInput } from './inspectDecode';
import { CHECK_IDS, CHECK_RULES, type CheckId, type CheckResult, type CheckStatus, type InspectOptions, type JwtInspection } from './inspectRules';

export { decodeJwt, normalizeTokenInput } from './inspectDecode';
export { CHECK_IDS, CHECK_RULES, type CheckId, type CheckResult, type CheckStatus, type InspectOptions, type JwtInspection } from './inspectRules';

// Checks a partner JWT against every rule of the spec's Authentication section (inspectJwt). The rules and the
// result's shapes are in inspectRules.ts, the decoding of a pasted token in inspectDecode.ts; both are
// re-exported here, so callers import from this file alone.

function publicKeyFromObject(k: KeyObject): { key: KeyObject; curve: Curve } {
  const key = k.type === 'private' ? createPublicKey(k) : k;
  return { key, curve: curveOfKey(key) };
}

/** Quotes a claim value for a message: strings in double quotes, others as JSON, cut at 80 characters. */
function show(value: unknown): string {
  const s = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return s.length > 80 ? `${s.slice(0, 77)}…` : s;
}

function checkFormat(parts: string[]): string | undefined {
  if (parts.length !== 3) return `Found ${parts.length} part${parts.length === 1 ? '' : 's'}; a JWT is header.payload.signature (three parts separated by dots).`;
  const names = ['header', 'payload', 'signature'];
  for (let i = 0; i < 3; i++) {
    const part = parts[i]!;
    if (part === '') return `The ${names[i]} part is empty.`;
    if (!B64URL.test(part)) {
      const hint = /[+/=]/.test(part) ? ' (+, / or = mean standard base64: use base64url without padding)' : '';
      return `The ${names[i]} part has characters outside base64url${hint}.`;
    }
  }
  if (!decodeJsonPart(parts[0]!)) return 'The header part does not decode to a JSON object.';
  if (!decodeJsonPart(parts[1]!)) return 'The payload part does not decode to a JSON object.';
  return undefined;
}

/**
 * What to do about any other `aud` (spec: Authentication, item 5): the address the token is for, exactly. Behind a
 * proxy (`tpp proxy`, Watch My Application) that is still the real address (TPP_AUDIENCE), not the proxy's.
 */
const AUD_FIX = 'mint the token with aud set to the base address exactly (TPP_BASE_URL; TPP_AUDIENCE when the request goes through a proxy)';

function hintAud(aud: string, expected: string): string {
  const base = `aud is ${show(aud)}; the environment's base address is ${show(expected)}`;
  if (aud.replace(/\/+$/, '') === expected) return `${base}: remove the trailing slash.`;
  if (expected.replace(/\/+$/, '') === aud) return `${base}: the expected address has a trailing slash; the version 3 base address ends in /api/v3 without one.`;
  if (aud.trim() === expected) return `${base}: remove the surrounding spaces.`;
  if (!/\/api\/v3$/.test(aud.replace(/\/+$/, '')) && /\/api\/v3$/.test(expected)) {
    if (`${aud.replace(/\/+$/, '')}/api/v3` === expected) return `${base}: add /api/v3 (the version 3 base address ends in /api/v3).`;
    return `${base}: the version 3 audience ends in /api/v3.`;
  }
  if (aud.toLowerCase() === expected.toLowerCase()) return `${base}: the letter case differs.`;
  try {
    const a = new URL(aud);
    const e = new URL(expected);
    if (a.protocol !== e.protocol && a.host === e.host) return `${base}: ${a.protocol} versus ${e.protocol}.`;
    if (a.host !== e.host) return `${base}: a different host; ${AUD_FIX}.`;
  } catch {
    return `${base}: aud is not an absolute address; ${AUD_FIX}.`;
  }
  return `${base}: ${AUD_FIX}.`;
}

function hintIss(iss: unknown, expected: string): string {
  if (typeof iss !== 'string') return `iss is a ${iss === null ? 'null' : typeof iss} (${show(iss)}); send the Partner ID ${show(expected)} as a string.`;
  const base = `iss is ${show(iss)}; the environment's Partner ID is ${show(expected)}`;
  if (iss.trim() === expected) return `${base}: remove the surrounding spaces.`;
  if (iss.toLowerCase() === expected.toLowerCase()) return `${base}: the letter case differs.`;
  return `${base} (Partner IDs differ per environment).`;
}

/**
 * Decodes `token` and checks it against every rule of spec section Authentication (items 4 to 6; Limits):
 * see {@link CHECK_RULES}. Pure apart from the clock default: the result depends only on the token and
 * `options` (now in Unix seconds, expected iss/aud, public key). Never throws: an unreadable `publicKey` is
 * reported on the signature check. Each check that cannot be judged because of another failure is `skip`,
 * so breaking one rule fails exactly one check.
 */
export async function inspectJwt(token: string, options: InspectOptions = {}): Promise<JwtInspection> {
  const now = options.now ?? nowSeconds();
  const normalized = normalizeTokenInput(token);
  const parts = normalized.split('.');
  const header = decodeJsonPart(parts[0] ?? '');
  const claims = parts.length >= 2 ? decodeJsonPart(parts[1] ?? '') : undefined;
  const checks: CheckResult[] = [];
  const add: Add = (id, status, detail) => checks.push({ id, rule: CHECK_RULES[id], status, detail });
  const { key, noKey } = readKey(options);

  const formatProblem = checkFormat(parts);
  if (formatProblem || !header || !claims) {
    add('format', 'fail', formatProblem ?? 'The token could not be decoded.');
    for (const id of CHECK_IDS.slice(1)) add(id, 'skip', 'Not checked: the token is malformed.');
    return { header, claims, checks, ok: false, now, key: key && { curve: key.curve, fingerprint: key.fingerprint } };
  }
  add('format', 'pass', 'header.payload.signature, each base64url; header and payload are JSON objects.');
  const signing = checkHeader(header, key, noKey, add);
  const missing = (['iat', 'iss', 'aud', 'exp'] as const).filter((c) => claims[c] === undefined);
  if (missing.length) add('claimsPresent', 'fail', `Missing ${missing.join(', ')}; all four of iat, iss, aud and exp are required.`);
  else add('claimsPresent', 'pass', 'iat, iss, aud and exp are all present.');
  checkTimes(claims, now, add);
  checkIdentity(claims, options, add);
  await checkSignature(normalized, parts[2] ?? '', signing, key, noKey, add);
  return { header, claims, checks, ok: !checks.some((c) => c.status === 'fail'), now, key: key && { curve: key.curve, fingerprint: key.fingerprint } };
}

type Add = (id: CheckId, status: CheckStatus, detail: string) => void;
type Claims = NonNullable<ReturnType<typeof decodeJsonPart>>;
type ReadKey = { key: KeyObject; curve: Curve; fingerprint: string };

/** The public key of `options` to check against, or why there is none (`noKey`, a sentence). */
function readKey(options: InspectOptions): { key?: ReadKey; noKey: string } {
  let key: ReadKey | undefined;
  let keyProblem: string | undefined;
  if (options.publicKey !== undefined) {
    try {
      const read = typeof options.publicKey === 'string' ? publicKeyFromPem(options.publicKey) : publicKeyFromObject(options.publicKey);
      key = { ...read, fingerprint: fingerprintOf(read.key) };
    } catch (err) {
      keyProblem = `The public key could not be used: ${err instanceof Error ? err.message : String(err)}`;
    }
  }
  const noKey = keyProblem ?? `No public key to check against${options.whyNoKey ? ` (${options.whyNoKey})` : ''}.`;

  return { key, noKey };
}

/** typ, alg, and whether alg goes with the key's curve (spec: Authentication). */
function checkHeader(header: Claims, key: ReadKey | undefined, noKey: string, add: Add): { alg: JwtAlgorithm | undefined; algMatches: boolean } {
  const typ = header.typ;
  if (typ === 'JWT') add('typ', 'pass', 'typ is "JWT".');
  else if (typ === undefined) add('typ', 'fail', 'The header has no typ; it must carry typ: "JWT".');
  else add('typ', 'fail', `typ is ${show(typ)}; the header must carry typ: "JWT"${typeof typ === 'string' && typ.toUpperCase() === 'JWT' ? ' (in capitals)' : ''}.`);

  const alg = header.alg;
  const algOk = isJwtAlgorithm(alg);
  if (algOk) add('alg', 'pass', `alg is ${alg} (curve ${CURVE_FOR_ALG[alg]}).`);
  else if (alg === undefined) add('alg', 'fail', 'The header has no alg; use ES256 (P-256), ES384 (P-384) or ES512 (P-521).');
  else if (alg === 'none') add('alg', 'fail', 'alg is "none": unsigned tokens are rejected; sign with ES256, ES384 or ES512.');
  else add('alg', 'fail', `alg is ${show(alg)}; the interface accepts only ECDSA: ES256, ES384 or ES512.`);

  let algMatches = false;
  if (!algOk) add('algMatchesKey', 'skip', 'Not checked: alg is not ES256, ES384 or ES512.');
  else if (!key) add('algMatchesKey', 'skip', `Not checked: ${noKey}`);
  else if (CURVE_FOR_ALG[alg] === key.curve) {
    algMatches = true;
    add('algMatchesKey', 'pass', `${alg} goes with the key's curve ${key.curve}.`);
  } else {
    const right = Object.entries(CURVE_FOR_ALG).find(([, c]) => c === key.curve)?.[0];
    add('algMatchesKey', 'fail', `${alg} needs a ${CURVE_FOR_ALG[alg]} key, but the environment's key is ${key.curve} (use ${right}).`);
  }

  return { alg: algOk ? alg : undefined, algMatches };
}

/** iat and exp: seconds, not in the future, within 2 hours (spec: Authentication; Limits). */
function checkTimes(claims: Claims, now: number, add: Add): void {
  const timeProblems: string[] = [];
  const usable: Partial<Record<'iat' | 'exp', number>> = {};
  for (const c of ['iat', 'exp'] as const) {
    const v = claims[c];
    if (v === undefined) continue;
    if (typeof v !== 'number' || !Number.isFinite(v)) timeProblems.push(`${c} is ${typeof v === 'string' ? 'a string' : 'not a number'} (${show(v)}); it must be a JSON number of seconds`);
    else if (Math.abs(v) >= MILLISECONDS_THRESHOLD) timeProblems.push(`${c} ${v} is in milliseconds (${isoFromSeconds(v / 1000) ?? 'out of range'} when divided by 1000); use Math.floor(Date.now() / 1000)`);
    else usable[c] = v;
  }
  if (timeProblems.length) add('seconds', 'fail', `${timeProblems.join('; ')}.`);
  else if (usable.iat === undefined && usable.exp === undefined) add('seconds', 'skip', 'Not checked: neither iat nor exp is present.');
  else {
    const which = (['iat', 'exp'] as const).filter((c) => usable[c] !== undefined);
    add('seconds', 'pass', `${which.join(' and ')} ${which.length > 1 ? 'are Unix times' : 'is a Unix time'} in seconds.`);
  }

  const skipTime = (c: 'iat' | 'exp') => (claims[c] === undefined ? `Not checked: ${c} is missing.` : `Not checked: ${c} is not a time in seconds.`);
  const iat = usable.iat;
  if (iat === undefined) {
    add('iatNotFuture', 'skip', skipTime('iat'));
    add('iatRecent', 'skip', skipTime('iat'));
  } else {
    const at = isoFromSeconds(iat);
    if (iat > now + CLOCK_SKEW_SECONDS) add('iatNotFuture', 'fail', `iat is ${formatDuration(iat - now)} in the future (${at}); is this machine's clock right?`);
    else add('iatNotFuture', 'pass', iat > now ? `Issued ${relativeTime(iat, now)} (${at}), within the ${CLOCK_SKEW_SECONDS} s skew.` : `Issued ${relativeTime(iat, now)} (${at}).`);
    if (now - iat > MAX_TOKEN_AGE_SECONDS) add('iatRecent', 'fail', `Issued ${formatDuration(now - iat)} ago (${now - iat} s, at ${at}); iat must lie within the last 2 hours: mint a fresh token per request.`);
    else add('iatRecent', 'pass', `Issued ${relativeTime(iat, now)}; the limit is 2 hours.`);
  }
  const exp = usable.exp;
  if (exp === undefined) {
    add('expFuture', 'skip', skipTime('exp'));
    add('expWithinLimit', 'skip', skipTime('exp'));
  } else {
    const at = isoFromSeconds(exp);
    if (exp <= now) add('expFuture', 'fail', `Expired ${exp === now ? 'just now' : relativeTime(exp, now)} (${at}).`);
    else add('expFuture', 'pass', `Expires ${relativeTime(exp, now)} (${at}).`);
    if (exp - now > MAX_TOKEN_LIFETIME_SECONDS) add('expWithinLimit', 'fail', `Expires in ${formatDuration(exp - now)} (${exp - now} s, at ${at}); exp may be at most 2 hours ahead: shorten the lifetime.`);
    else add('expWithinLimit', 'pass', exp > now ? `Expires in ${formatDuration(exp - now)}; the limit is 2 hours.` : 'exp is not beyond the 2-hour limit.');
  }

}

/** iss is the Partner ID and aud the base address (when known to compare). */
function checkIdentity(claims: Claims, options: InspectOptions, add: Add): void {
  const iss = claims.iss;
  if (iss === undefined) add('iss', 'skip', 'Not checked: iss is missing.');
  else if (options.iss === undefined || options.iss === '') add('iss', 'skip', `Not checked: no Partner ID to compare${options.whyNoIss ? ` (${options.whyNoIss})` : ''}.`);
  else if (iss === options.iss) add('iss', 'pass', `iss is the Partner ID ${show(iss)}.`);
  else add('iss', 'fail', hintIss(iss, options.iss));

  const aud = claims.aud;
  if (aud === undefined) add('aud', 'skip', 'Not checked: aud is missing.');
  else if (options.aud === undefined || options.aud === '') add('aud', 'skip', `Not checked: no base address to compare${options.whyNoAud ? ` (${options.whyNoAud})` : ''}.`);
  else if (aud === options.aud) add('aud', 'pass', `aud is the base address ${show(aud)}.`);
  else if (Array.isArray(aud)) add('aud', 'fail', `aud is an array (${show(aud)}); send the base address ${show(options.aud)} as a single string.`);
  else if (typeof aud !== 'string') add('aud', 'fail', `aud is not a string (${show(aud)}); send the base address ${show(options.aud)}.`);
  else add('aud', 'fail', hintAud(aud, options.aud));

}

/** The signature: raw r || s of the alg's size, verified with the key (jose). */
async function checkSignature(normalized: string, signature: string, signing: { alg: JwtAlgorithm | undefined; algMatches: boolean }, key: ReadKey | undefined, noKey: string, add: Add): Promise<void> {
  const { alg, algMatches } = signing;
  if (!alg) add('signature', 'skip', 'Not checked: alg is not ES256, ES384 or ES512.');
  else if (!key) add('signature', 'skip', `Not checked: ${noKey}`);
  else if (!algMatches) add('signature', 'skip', "Not checked: alg does not match the key's curve.");
  else {
    const sig = Buffer.from(signature, 'base64url');
    const fp = shortFingerprint(key.fingerprint);
    if (sig.length !== SIGNATURE_BYTES[alg]) {
      const der = sig[0] === 0x30 ? ': it looks DER-encoded; JWS needs the raw r || s form (IEEE P1363), e.g. dsaEncoding: "ieee-p1363" in Node' : '';
      add('signature', 'fail', `The signature is ${sig.length} bytes; ${alg} needs ${SIGNATURE_BYTES[alg]}${der}.`);
    } else {
      try {
        await compactVerify(normalized, key.key, { algorithms: [alg] });
        add('signature', 'pass', `Verifies with the environment's public key (${fp}).`);
      } catch {
        add('signature', 'fail', `Does not verify with the environment's public key (${fp}): signed with another key, or the header or claims changed after signing.`);
      }
    }
  }

}
