import * as vscode from 'vscode';
import { ApiError, ClientConfigError, isAbortError } from '../../core/client';
import { KeyError } from '../../core/jwt/keys';
import { MintError } from '../../core/jwt/mint';
import { NotReadyError } from '../services/jwtService';
import type { SentRequest } from '../services/apiClients';
import { ENDPOINTS } from '../../core/contract';
import type { BodyOf, ParamsOf, QueryOf, ResponseOf } from '../../core/contract/endpointTypes';
import type { EndpointId } from '../../core/contract/types';
import { ENVIRONMENTS, EnvironmentId } from '../../core/environments';
import { UserCancelled } from '../services/userCancelled';
import type { Exchange } from '../../core/exchange/types';
import type { ShownExchange } from '../response/responsePanel';
import type { Services } from '../container';
import { confirmDataChange } from './productionGuard';

/** What a request command returns (tests read it): the status and body, and the exchange shown in the response view. */
export interface RequestOutcome {
  readonly ok: boolean;
  readonly status?: number;
  readonly body?: unknown;
  /** The request and its answer (masked), as the response view shows it; absent when nothing was sent. */
  readonly exchange?: Exchange;
  /** What the response view rendered (with the time from the command's start to the page's "rendered"), when shown. */
  readonly shown?: ShownExchange & { readonly sinceStartMs?: number };
  /** The message shown to the user. */
  readonly message: string;
}

/**
 * Path parameters, query and body of a request, typed by the endpoint's row of the contract when the endpoint is
 * a literal (`runRequest(s, env, 'cancelTireProtectionRegistration', { params: { id }, body: { cancelledOn } })`);
 * plain records and `unknown` when it is chosen at run time (a routed payload, a resend), whose body the contract
 * checked beforehand.
 */
export interface RequestSpec<E extends EndpointId = EndpointId> {
  readonly params?: ParamsOf<E>;
  readonly query?: QueryOf<E>;
  readonly body?: BodyOf<E>;
}

/** Options of {@link runRequest}. */
export interface RunOptions {
  /** Title of the progress notification and the response view. */
  readonly title: string;
  /** Show the answer in the response view (default: on failures and on answers with a body). */
  readonly reveal?: 'always' | 'never' | 'auto';
  /**
   * The payload file the body comes from: the response view links a 400's field problems to it. Default: the active
   * editor's document when it is a payload file (it has a `tpp://schemas/` `$schema`).
   */
  readonly payloadUri?: vscode.Uri;
  /** Text of the success notification (default: "<Env>: <status> <name>"). */
  readonly success?: (status: number, body: unknown) => string;
}

/** A short server message from an error body (`message`, `error`), plain text. */
function serverMessage(body: unknown): string | undefined {
  if (typeof body === 'string' && body.trim()) return body.trim().slice(0, 300);
  if (body && typeof body === 'object') {
    const r = body as Record<string, unknown>;
    const v = r.message ?? r.error ?? r.Message;
    if (typeof v === 'string' && v) return v.slice(0, 300);
  }
  return undefined;
}

/** The services a request is sent and shown with. */
export type RequestServices = Pick<Services, 'api' | 'log' | 'responses'>;

/** Shown when a request takes longer than this (milliseconds): a notification with Cancel. */
export const PROGRESS_NOTIFICATION_DELAY_MS = 1000;

/**
 * Sends a request with a spinner in the status bar and, when it takes longer than a second (retries, a slow
 * server), a progress notification with Cancel. Rejects with the client's error (an AbortError when cancelled).
 */
export async function sendWithProgress<E extends EndpointId>(
  services: Pick<Services, 'api'>,
  env: EnvironmentId,
  endpointId: E,
  call: RequestSpec<E>,
  title: string,
  /** Title of the exchange (response view, history), default `title`. */
  exchangeTitle = title,
): Promise<SentRequest<ResponseOf<E>>> {
  const api = services.api;
  const controller = new AbortController();
  const task = api.send(env, endpointId, call.params ?? ({} as ParamsOf<E>), call.body as BodyOf<E>, { query: call.query, signal: controller.signal, title: exchangeTitle });
  const settled = task.then(
    () => undefined,
    () => undefined,
  );
  void vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title }, () => settled);
  const timer = setTimeout(() => {
    void vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (_p, token) => {
      const sub = token.onCancellationRequested(() => controller.abort());
      return settled.finally(() => sub.dispose());
    });
  }, PROGRESS_NOTIFICATION_DELAY_MS);
  try {
    return await task;
  } finally {
    clearTimeout(timer);
  }
}

/** The payload file of a request with a body: the option, else the active editor's payload document. */
function payloadUriOf(opts: RunOptions, hasBody: boolean): vscode.Uri | undefined {
  if (opts.payloadUri || !hasBody) return opts.payloadUri;
  const doc = vscode.window.activeTextEditor?.document;
  return doc && doc.languageId.startsWith('json') && doc.getText().includes('tpp://schemas/') ? doc.uri : undefined;
}

/**
 * Sends one request with everything around it: the Production guard for data-changing requests, a progress
 * notification with Cancel, the answer in the response view (one panel beside the editor, reused), or, when the
 * answer is not shown there, a notification with **Show Response** (an error one for a refusal). A non-success answer is not thrown: it is shown and returned with `ok: false`.
 *
 * @throws UserCancelled when the user dismissed the Production confirmation; errors that prevent sending at all
 *   (no key, no address) as they are, so the command registry shows them.
 */
export async function runRequest<E extends EndpointId>(services: RequestServices, env: EnvironmentId, endpointId: E, call: RequestSpec<E>, opts: RunOptions): Promise<RequestOutcome> {
  const started = performance.now();
  const { responses } = services;
  const def = ENDPOINTS[endpointId];
  const label = ENVIRONMENTS[env].label;
  await confirmDataChange(env, endpointId, `${def.method} ${def.path} — ${opts.title}`);
  const payloadUri = payloadUriOf(opts, call.body !== undefined);
  const show = async (exchange: Exchange, reveal: boolean) => {
    if (!reveal) return undefined;
    const shown = await responses.show(exchange, payloadUri ? { payloadUri } : {});
    return { ...shown, ...(shown.renderMs !== undefined ? { sinceStartMs: performance.now() - started } : {}) };
  };
  const offerShow = (exchange: Exchange) => (choice: string | undefined) => {
    if (choice) void responses.show(exchange, payloadUri ? { payloadUri } : {});
  };
  try {
    const sent = await sendWithProgress(services, env, endpointId, call, `${label}: ${opts.title}…`, opts.title);
    const { response, exchange } = sent;
    const reveal = opts.reveal ?? 'auto';
    const shown = await show(exchange, reveal === 'always' || (reveal === 'auto' && response.rawBody.trim() !== ''));
    const message = opts.success ? opts.success(response.status, response.body) : `${label}: ${response.status} ${response.statusName} — ${opts.title}.`;
    // The response view already says what happened: no notification of what the user sees (VS Code UX Guidelines,
    // Notifications). Only an answer that was not shown (no body, or reveal 'never') gets one, with Show Response.
    if (!shown) void vscode.window.showInformationMessage(message, 'Show Response').then(offerShow(exchange));
    return { ok: true, status: response.status, body: response.body, exchange, ...(shown ? { shown } : {}), message };
  } catch (err) {
    if (isAbortError(err)) throw new UserCancelled();
    if (err instanceof UserCancelled) throw err;
    // Nothing was sent: the environment is not set up. Shown by the command registry, not as an answer.
    if (err instanceof NotReadyError || err instanceof ClientConfigError || err instanceof KeyError || err instanceof MintError) throw err;
    const exchange = services.api.failedExchange(err);
    const shown = exchange ? await show(exchange, opts.reveal !== 'never') : undefined;
    let message: string;
    if (err instanceof ApiError) {
      const said = serverMessage(err.body);
      message = `${label} refused "${opts.title}": ${err.status} ${err.statusName} — ${said ?? err.meaning}`;
    } else message = `${label}: ${opts.title} failed — ${err instanceof Error ? err.message : String(err)}`;
    services.log.warn(message);
    // A refusal the response view explains (status, meaning, the record it conflicts with) needs no error toast over
    // it, which would stay until dismissed (VS Code UX Guidelines, Notifications); one not shown there gets one.
    if (!shown) void vscode.window.showErrorMessage(message, ...(exchange ? ['Show Response'] : [])).then((c) => exchange && offerShow(exchange)(c));
    const api = err instanceof ApiError ? err : undefined;
    return { ok: false, status: api?.status, body: api?.body, ...(exchange ? { exchange } : {}), ...(shown ? { shown } : {}), message };
  }
}
