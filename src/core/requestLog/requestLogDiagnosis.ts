import type { KeyObject } from 'node:crypto';
import { PAYLOAD_KINDS, type EndpointDef, type PayloadKind } from '../contract';
import { diagnosePayload } from '../diagnostics/payload';
import type { DiagnosisItem } from '../exchange/types';
import type { InjectedFault } from './requestLogEntry';
import { CHECK_IDS, decodeJwt, inspectJwt, type CheckId, type CheckResult } from '../jwt/inspect';
import { secondsNowFix } from '../jwt/secondsFix';

/**
 * Why the Local sandbox refused a request, in the words of the toolkit's own checks (spec:
 * Authentication; Errors). Computed only for failures, after the answer went out:
 * - 401: the JWT checklist of Inspect JWT (`inspectJwt`), run against the registered key of the token's `iss` and
 *   the base address that was called; one item per broken rule (`rule` = the claim or header field), each with the
 *   fix in one sentence;
 * - 400: the payload diagnostics of the editor (`diagnosePayload`: same messages and codes) for the body sent,
 *   `rule` = the field's JSON path; else the field issues of the answer;
 * - 403/404/409: the answer's message with what it refers to (409: `record` of the conflicting registration);
 * - an injected fault (any status, or none for `timeout` / `close`): rule `fault`, naming the schedule entry or
 *   `--fault-rate` that answered, and whether the write was stored;
 * - 429: the rate limit (`--rate-limit`); 503 `starting` (sample data still loading) or `storage`; other 5xx
 *   `server`; any other status (405, 413, 415, 421) `status`.
 * docs/sandbox.md (`--log json`) lists every rule; a test holds it to this list.
 */

/** What {@link diagnose} needs to know about one failed request. */
export interface DiagnosisInput {
  readonly status: number;
  readonly method: string;
  /** Endpoints that share the route (absent when no route matched). */
  readonly group?: readonly EndpointDef[];
  /** Path parameters of the route (`:id`). */
  readonly params?: Readonly<Record<string, string>>;
  readonly authorization?: string;
  /** The request's User-Agent: the language a fix about seconds is worded in (`secondsFix.ts`). */
  readonly userAgent?: string;
  /** The base address the token's `aud` must equal for this route. */
  readonly audience?: string;
  /** Request body text, when it was read. */
  readonly body?: string;
  /** Response body text. */
  readonly responseBody?: string;
  /** Current Unix time in seconds (the sandbox's clock). */
  readonly nowSeconds: number;
  /** The registered public key of a Partner ID, or undefined. */
  readonly keyOf: (iss: string) => KeyObject | undefined;
  /** Registered Partner IDs (to name them when `iss` is unknown). */
  readonly partnerIds: () => readonly string[];
  /** The registration that a duplicate create conflicts with (409), when it can be found. */
  readonly findRegistration?: (invoiceNumber: string, storeNumber: string | undefined) => Promise<string | undefined>;
  /** The fault the sandbox injected in place of the answer, when it did. */
  readonly fault?: InjectedFault;
}

/** The one item of an injected fault's diagnosis: which schedule (or option) answered, and what was stored. */
export function faultDiagnosis(f: InjectedFault): DiagnosisItem {
  const by = f.by === 'schedule' ? `scheduled fault #${f.id ?? '?'} (POST /__tpp/faults)` : "fault option (--fault-rate)";
  const WHAT: Record<string, string> = {
    close: 'closed the connection without an answer',
    timeout: 'held the request, then closed the connection without an answer',
    'truncated-json': 'cut the real answer in the middle of its JSON',
    'wrong-content-type': 'sent the real answer as text/html',
    delay: `held the real answer back ${f.delayMs ?? 0} ms`,
  };
  const stored = f.when === 'after-commit' ? 'the write was processed and stored; only its answer was lost' : 'nothing was processed';
  if (f.clientClosed) {
    const held = f.fault === 'timeout' ? 'held the request (timeout)' : `held the answer back (delayMs ${f.delayMs ?? 0})`;
    return { rule: 'fault', message: `Injected by the sandbox's ${by}: it ${held} ${f.when === 'after-commit' ? 'after the commit' : 'before processing'}, and the client closed the connection first (its own timeout), so no answer was sent and ${stored}.` };
  }
  const what = (WHAT[String(f.fault)] ?? `answered ${f.fault}`) + (f.delayMs && f.fault !== 'delay' ? ` ${f.delayMs} ms late` : '');
  return { rule: 'fault', message: `Injected by the sandbox's ${by}, not caused by the request: it ${what} ${f.when === 'after-commit' ? 'after the commit' : 'before processing'}, so ${stored}.` };
}

/** The fix of each checklist rule, when the check's own detail does not already say it. */
const FIX: Readonly<Record<CheckId, string | undefined>> = {
  format: 'Send "Authorization: Bearer <header>.<payload>.<signature>", each part base64url without padding.',
  typ: 'Put "typ": "JWT" in the JOSE header.',
  alg: "Sign with ES256, ES384 or ES512, the algorithm of your key's curve.",
  algMatchesKey: undefined,
  claimsPresent: undefined,
  seconds: undefined,
  iatNotFuture: "Set iat to the current Unix time in seconds and check this machine's clock.",
  iatRecent: undefined,
  expFuture: 'Mint a fresh token for every request, with exp a few minutes after iat.',
  expWithinLimit: 'For example exp = iat + 300.',
  iss: 'Set iss to the Partner ID registered with this key.',
  aud: undefined,
  signature: undefined,
};

/** The claim or header field a checklist rule is about. */
const RULE_OF: Readonly<Record<CheckId, string>> = {
  format: 'format',
  typ: 'typ',
  alg: 'alg',
  algMatchesKey: 'alg',
  claimsPresent: 'claims',
  seconds: 'iat',
  iatNotFuture: 'iat',
  iatRecent: 'iat',
  expFuture: 'exp',
  expWithinLimit: 'exp',
  iss: 'iss',
  aud: 'aud',
  signature: 'signature',
};

const sentence = (s: string) => (/[.!?]$/.test(s.trim()) ? s.trim() : `${s.trim()}.`);

/** Items of one failed check (a check about several claims gives one item per claim). */
function itemsOf(check: CheckResult, claims: Record<string, unknown> | undefined, userAgent: string | undefined): DiagnosisItem[] {
  if (check.id === 'claimsPresent') {
    return (['iat', 'iss', 'aud', 'exp'] as const)
      .filter((c) => claims?.[c] === undefined)
      .map((c) => ({ rule: c, message: `${c} is missing: a token carries all four of iat, iss, aud and exp.` }));
  }
  if (check.id === 'seconds') {
    return check.detail
      .replace(/\.$/, '')
      .split(/; (?=(?:iat|exp) )/)
      .map((part) => {
        const rule = part.startsWith('exp') ? 'exp' : 'iat';
        const ms = /^(\w+ -?\d+ is in milliseconds[^;]*); (use .*)$/.exec(part);
        // The fix first: a row of the Integration Log shows the start of the message.
        return { rule, message: ms?.[2] ? `${rule} is in milliseconds, not seconds: ${secondsNowFix(userAgent)}. (${ms[1]}.)` : sentence(part) };
      });
  }
  if (check.id === 'aud') {
    const hint = /^(aud is .*?"): ([^"]+)$/.exec(check.detail.replace(/\.$/, ''));
    if (hint?.[2]) return [{ rule: 'aud', message: `${hint[2].charAt(0).toUpperCase()}${hint[2].slice(1)}: ${hint[1]}.` }];
  }
  if (check.id === 'signature' && /DER/.test(check.detail)) return [{ rule: 'signature', message: sentence(check.detail) }];
  const fix = FIX[check.id];
  return [{ rule: RULE_OF[check.id], message: fix ? `${sentence(check.detail)} ${fix}` : sentence(check.detail) }];
}

/**
 * What an Authorization value without `Bearer` starts with, told without repeating any of it but a scheme-like word:
 * its first word may be the token itself (Developers' guide: Secrets).
 */
function schemeFound(auth: string): string {
  const first = auth.trim().split(/\s/)[0] ?? '';
  if (first.split('.').length === 3) return 'it starts with the token itself, without a scheme';
  if (/^[A-Za-z][A-Za-z0-9-]{0,15}$/.test(first) && auth.trim() !== first) return `its scheme is ${JSON.stringify(first)}`;
  return `it holds one ${first.length}-character value and no scheme`;
}

/** 401 of a partner route: which rule the token broke, with the registered key of its `iss`. */
async function diagnoseToken(input: DiagnosisInput): Promise<DiagnosisItem[]> {
  const auth = input.authorization;
  if (!auth) return [{ rule: 'authorization', message: 'No Authorization header: send "Authorization: Bearer <JWT>" with a token signed by your private key.' }];
  const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
  if (!m?.[1]) return [{ rule: 'authorization', message: `The Authorization header is not "Bearer <JWT>" (${schemeFound(auth)}): send the token after the word Bearer and one space.` }];
  const token = m[1];
  const { claims } = decodeJwt(token);
  const iss = typeof claims?.iss === 'string' ? claims.iss : undefined;
  const key = iss === undefined ? undefined : input.keyOf(iss);
  const items: DiagnosisItem[] = [];
  if (iss !== undefined && !key) {
    const known = input.partnerIds();
    const names = known.length === 0 ? 'none is registered yet' : `registered: ${known.slice(0, 3).map((k) => JSON.stringify(k)).join(', ')}${known.length > 3 ? ', …' : ''}`;
    items.push({ rule: 'iss', message: `iss ${JSON.stringify(iss)} is not a Partner ID this sandbox knows (${names}). Set iss to the Partner ID of your key, or register its public key first.` });
  }
  const inspection = await inspectJwt(token, {
    now: input.nowSeconds,
    iss: key ? iss : undefined,
    aud: input.audience,
    publicKey: key,
  });
  for (const id of CHECK_IDS) {
    const check = inspection.checks.find((c) => c.id === id);
    if (check?.status === 'fail') items.push(...itemsOf(check, inspection.claims, input.userAgent));
  }
  if (items.length === 0) {
    // The checklist passed where the sandbox did not (a clock or audience difference at the edge): say what was compared.
    items.push({ rule: 'token', message: `The token was refused although its checklist passes at ${new Date(input.nowSeconds * 1000).toISOString()} for aud ${JSON.stringify(input.audience ?? '')}: mint it again just before the request.` });
  }
  return items;
}

/** A JSON path as text: `Registrations[0].invoiceNumber`. */
export function pathText(path: readonly (string | number)[]): string {
  let out = '';
  for (const seg of path) out += typeof seg === 'number' ? `[${seg}]` : out ? `.${seg}` : seg;
  return out;
}

/** Payload kinds sent to the endpoints of a route. */
function kindsOf(group: readonly EndpointDef[]): PayloadKind[] {
  const ids = new Set<string>(group.map((e) => e.id));
  return (Object.values(PAYLOAD_KINDS) as { kind: PayloadKind; endpoints: readonly string[] }[]).filter((k) => k.endpoints.some((id) => ids.has(id))).map((k) => k.kind);
}

interface ErrorAnswer {
  readonly message?: string;
  readonly issues?: readonly { readonly path?: string; readonly message?: string }[];
}

function answerOf(text: string | undefined): ErrorAnswer {
  try {
    const v: unknown = JSON.parse(text ?? '');
    return v !== null && typeof v === 'object' ? (v as ErrorAnswer) : {};
  } catch {
    return {};
  }
}

/** 400: the editor's payload diagnostics of the body sent; else the answer's field issues. */
function diagnoseBody(input: DiagnosisInput, answer: ErrorAnswer): DiagnosisItem[] {
  if (input.body !== undefined && input.group) {
    // Several kinds share a route (version 2 records): the one the body fits best (fewest errors and unknown properties).
    let best: { items: DiagnosisItem[]; score: number } | undefined;
    for (const kind of kindsOf(input.group)) {
      const problems = diagnosePayload(input.body, { kind })?.problems ?? [];
      const errors = problems.filter((p) => p.severity === 'error');
      if (errors.length === 0) continue;
      const score = errors.length + problems.filter((p) => p.code === 'unknown-property').length;
      if (!best || score < best.score) best = { score, items: errors.map((p) => ({ rule: pathText(p.path) || 'body', message: p.message, code: p.code, path: p.path })) };
    }
    if (best) return best.items;
  }
  const issues = answer.issues ?? [];
  if (issues.length) return issues.map((i) => ({ rule: i.path || 'body', message: i.path ? `${i.path}: ${i.message ?? ''}` : (i.message ?? '') }));
  return [{ rule: 'body', message: answer.message ?? 'The request was refused as malformed.' }];
}

/** 409: the conflict, with the registration it concerns when known. */
async function diagnoseConflict(input: DiagnosisInput, message: string): Promise<DiagnosisItem[]> {
  const id = input.params?.id;
  const product = input.group?.[0]?.product;
  const motorClub = product === 'motor-club';
  const kind = motorClub ? 'motor-club' : product === 'tire-protection' ? 'tire-protection' : 'registration';
  if (id) return [{ rule: 'conflict', message, record: { kind, id } }];
  const dup = /invoiceNumber (\S+)(?: and storeNumber (\S+))? already exists/.exec(message);
  if (dup?.[1] && !motorClub && input.findRegistration) {
    const existing = await input.findRegistration(dup[1], dup[2]).catch(() => undefined);
    if (existing) {
      return [{ rule: 'conflict', message: `${sentence(message)} Use a new invoiceNumber (or {{$guid}} in a payload file), or read the existing registration.`, record: { kind, id: existing, label: `invoiceNumber ${dup[1]}` } }];
    }
  }
  return [{ rule: 'conflict', message: sentence(message) }];
}

/**
 * The diagnosis of a failed request (status ≥ 400); empty for a success. Never throws: a diagnosis that cannot be
 * computed says so in one item.
 */
export async function diagnose(input: DiagnosisInput): Promise<DiagnosisItem[]> {
  if (input.fault) return [faultDiagnosis(input.fault)];
  if (input.status < 400) return [];
  const answer = answerOf(input.responseBody);
  const message = answer.message ?? `HTTP ${input.status}`;
  try {
    switch (input.status) {
      case 401:
        if (input.group?.[0]?.base === 'eligibility') {
          return [{ rule: 'authorization', message: 'The eligibility lookup takes the dedicated eligibility token ("Authorization: Bearer <token>"), not a partner JWT; the token sent is missing or not the one configured.' }];
        }
        return await diagnoseToken(input);
      case 400:
        return diagnoseBody(input, answer);
      case 403:
        return [{ rule: 'forbidden', message: sentence(message) }];
      case 404:
        return [{ rule: 'not-found', message: input.group ? `${sentence(message)} Records belong to the partner that created them: check the id and that iss is that partner.` : `${sentence(message)} Check the path against the base address (version 3 paths start with /api/v3).` }];
      case 409:
        return await diagnoseConflict(input, message);
      case 429:
        return [{ rule: 'rate-limit', message: `${sentence(message)} The sandbox was started with a rate limit (--rate-limit): wait for Retry-After, then retry.` }];
      default:
        if (input.status === 503) return [{ rule: /^The Local sandbox is starting/.test(message) ? 'starting' : 'storage', message: sentence(message) }];
        if (input.status >= 500) return [{ rule: 'server', message: `${sentence(message)} The request is not at fault; the sandbox's log has the details.` }];
        return [{ rule: 'status', message: sentence(message) }];
    }
  } catch (err) {
    return [{ rule: 'status', message: `${sentence(message)} (No diagnosis: ${(err as Error).message})` }];
  }
}
