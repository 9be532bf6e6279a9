import type { KeyObject } from 'node:crypto';
import type { EndpointDef } from '../contract';
import type { DiagnosisItem } from '../exchange/types';
import { decodeJwt } from '../jwt/inspect';
import { diagnose } from '../requestLog/requestLogDiagnosis';
import { contractDriftOf } from '../exchange/contractDrift';
import { isLoopbackHost, type Route } from './targets';

/**
 * Why the real server refused a request the proxy forwarded, with the Local sandbox's own diagnosis
 * (../requestLog/requestLogDiagnosis.ts; spec: Authentication; Errors), and whether its answer drifted from the
 * contract (./contractDrift.ts). The differences from Local: the registered keys are the ones given with
 * `--partner`; `aud` is checked against the REAL base address, and a token signed for the proxy's own address is
 * named as such (the application must sign with TPP_AUDIENCE, docs/proxy.md); statuses the Local sandbox produces
 * itself (rate limit, injected faults) are the server's here.
 */

/** Entry kinds of the proxy's log: an exchange, or an answer the spec does not describe. */
export type ProxyEntryKind = 'request' | 'contract-drift' | 'proxy-error';

/** What {@link diagnoseProxied} reads about one forwarded exchange. */
export interface ProxiedExchange {
  readonly status: number;
  readonly method: string;
  readonly route: Route;
  /** Endpoints of the contract matching the route (empty when none). */
  readonly group: readonly EndpointDef[];
  readonly params: Readonly<Record<string, string>>;
  readonly authorization?: string;
  /** The request's User-Agent (the language of a fix about seconds). */
  readonly userAgent?: string;
  /** Request body text, when there was one. */
  readonly body?: string;
  /** Response body text; undefined when the answer was larger than the proxy keeps. */
  readonly responseBody?: string;
  readonly nowSeconds: number;
  /** The registered public keys by Partner ID (`--partner`). */
  readonly keys: ReadonlyMap<string, KeyObject>;
  /** The proxy's own port (a token whose aud is a loopback address at this port was signed for the proxy). */
  readonly proxyPort: number;
  /** How to give the proxy a public key, when none was (default: the `--partner` option of `tpp proxy`). */
  readonly missingKeyHint?: string;
}

const quoted = (ids: readonly string[]) => ids.slice(0, 3).map((k) => JSON.stringify(k)).join(', ') + (ids.length > 3 ? ', …' : '');

/** The `aud` of the token in `authorization`, when it names the proxy itself. */
function audOfProxy(authorization: string | undefined, port: number): string | undefined {
  const token = /^Bearer\s+(\S+)/i.exec(authorization ?? '')?.[1];
  const aud = token ? decodeJwt(token).claims?.aud : undefined;
  if (typeof aud !== 'string') return undefined;
  try {
    const u = new URL(aud);
    return isLoopbackHost(u.hostname) && Number(u.port || (u.protocol === 'https:' ? 443 : 80)) === port ? aud : undefined;
  } catch {
    return undefined;
  }
}

/** The 401 checklist with the proxy's wording for `iss` and an `aud` signed for the proxy. */
async function diagnoseToken(x: ProxiedExchange): Promise<DiagnosisItem[]> {
  const items = await diagnose({
    status: 401,
    method: x.method,
    group: x.group.length ? x.group : undefined,
    authorization: x.authorization,
    userAgent: x.userAgent,
    audience: x.route.audience,
    nowSeconds: x.nowSeconds,
    keyOf: (iss) => x.keys.get(iss),
    partnerIds: () => [...x.keys.keys()],
  });
  const proxyAud = audOfProxy(x.authorization, x.proxyPort);
  return items.map((item) => {
    if (item.rule === 'aud' && proxyAud) {
      return {
        rule: 'aud',
        message: `aud is the proxy's own address ${JSON.stringify(proxyAud)}, but the server checks its real base address ${JSON.stringify(x.route.audience)}: keep TPP_BASE_URL on the proxy and set TPP_AUDIENCE=${x.route.audience}, so that the application calls the proxy and signs for the real address.`,
      };
    }
    const iss = item.rule === 'iss' ? /^iss ("(?:[^"\\]|\\.)*") is not a Partner ID/.exec(item.message)?.[1] : undefined;
    if (iss) {
      const known = [...x.keys.keys()];
      return {
        rule: 'iss',
        message:
          known.length === 0
            ? `No public key was given for iss ${iss}, so the signature was not checked: ${x.missingKeyHint ?? `start tpp proxy with --partner ${JSON.parse(iss) as string}=<spki.pem>, the public key registered with the administrator`}.`
            : `iss ${iss} is not a Partner ID given to this proxy (given: ${quoted(known)}). Set iss to the Partner ID the administrator gave you, or add --partner ${JSON.parse(iss) as string}=<spki.pem>.`,
      };
    }
    return item;
  });
}

/** The server's own failures, in words that do not blame the request (spec: Errors). */
function serverItems(status: number): DiagnosisItem[] {
  if (status === 429) return [{ rule: 'rate-limit', message: 'The server rate-limited the application: wait for Retry-After, then retry (spec: Errors, 429).' }];
  if (status >= 500) return [{ rule: 'server', message: `The server failed (${status}); the request is not at fault. Retry later: clients retry 5xx answers (spec: Errors).` }];
  return [];
}

/** The one item of a diagnosis that could not be computed: the status, and why. */
export function undiagnosed(status: number, err: unknown): DiagnosisItem {
  return { rule: 'status', message: `HTTP ${status}. (No diagnosis: ${(err as Error).message})` };
}

/** True when the diagnosis of an answer with this status awaits the checks of the request (a 4xx: the JWT checklist, the payload diagnostics). */
export function diagnosedFromRequest(status: number): boolean {
  return status >= 400 && status < 500 && status !== 429;
}

/** The kind and diagnosis of an exchange whose answer is drift or nothing (a success, 429, 5xx): no I/O, no await. */
export function diagnoseAnswer(x: Pick<ProxiedExchange, 'status' | 'group' | 'responseBody'>): { kind: ProxyEntryKind; diagnosis: DiagnosisItem[] } {
  let drift: DiagnosisItem[] = [];
  try {
    drift = contractDriftOf(x.group, x.status, x.responseBody);
  } catch (err) {
    return { kind: 'request', diagnosis: [undiagnosed(x.status, err)] };
  }
  const items = serverItems(x.status);
  return { kind: drift.length ? 'contract-drift' : 'request', diagnosis: drift.length || items.length ? [...drift, ...items] : drift };
}

/**
 * The diagnosis of one forwarded exchange and its entry kind. A success is checked only for drift
 * ({@link diagnoseAnswer}, which callers use directly when {@link diagnosedFromRequest} is false). Never throws:
 * a diagnosis that cannot be computed says so in one item.
 */
export async function diagnoseProxied(x: ProxiedExchange): Promise<{ kind: ProxyEntryKind; diagnosis: DiagnosisItem[] }> {
  if (!diagnosedFromRequest(x.status)) return diagnoseAnswer(x);
  let drift: DiagnosisItem[] = [];
  let items: DiagnosisItem[] = [];
  try {
    drift = contractDriftOf(x.group, x.status, x.responseBody);
    if (x.status === 401) items = await diagnoseToken(x);
    else {
      items = await diagnose({
        status: x.status,
        method: x.method,
        group: x.group.length ? x.group : undefined,
        params: x.params,
        body: x.body,
        responseBody: x.responseBody,
        nowSeconds: x.nowSeconds,
        keyOf: (iss) => x.keys.get(iss),
        partnerIds: () => [...x.keys.keys()],
      });
    }
  } catch (err) {
    items = [undiagnosed(x.status, err)];
  }
  return { kind: drift.length ? 'contract-drift' : 'request', diagnosis: [...drift, ...items] };
}
