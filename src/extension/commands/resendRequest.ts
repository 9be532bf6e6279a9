import * as vscode from 'vscode';
import { ENDPOINTS } from '../../core/contract';
import { changesData } from '../../core/contract/methods';
import type { EndpointId } from '../../core/contract/types';
import { ENVIRONMENTS, EnvironmentId } from '../../core/environments';
import type { HistoryEntry } from '../../core/history/history';
import { runRequest } from '../send/runRequest';
import { entryOf, pickEntry, recordedRefOf } from '../commandSupport/history';
import { envOf } from '../commandSupport/treeArgs';
import { fieldsArg } from '../commandSupport/args';
import { defineCommand, UserCancelled } from './registry';

/** The question Resend asks before a request that changes data. */
export interface ResendQuestion {
  readonly message: string;
  /**
   * A few lines that fit any modal: method and URL, the invoice number the body names, its size, and where the body
   * is shown (the whole body would push the modal's buttons off the screen).
   */
  readonly detail: string;
  /** The body that will be sent, indented (masked as recorded), opened in a read-only editor before asking. */
  readonly body?: string;
}

/** Second argument of `tpp.resendRequest`: `confirm` replaces the modal (tests); resolve `true` to send. */
export interface ResendOptions {
  readonly confirm?: (q: ResendQuestion) => boolean | Promise<boolean>;
}

/** The invoice number a body names (v3 `invoiceNumber`, v2 `InvoiceNumber`, a claim's `serviceInvoiceNumber`), or ''. */
function invoiceOf(body: unknown): string {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return '';
  const b = body as Record<string, unknown>;
  const v = b.invoiceNumber ?? b.InvoiceNumber ?? b.serviceInvoiceNumber;
  return typeof v === 'string' || typeof v === 'number' ? String(v) : '';
}

/** The question for a POST, PATCH or DELETE of `entry`. */
export function resendQuestion(entry: HistoryEntry, envLabel: string): ResendQuestion {
  const raw = entry.replay?.bodyJson;
  const lines = [`${entry.method} ${entry.url}`];
  let body: string | undefined;
  if (raw !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
      body = JSON.stringify(parsed, null, 2);
    } catch {
      body = raw;
    }
    const invoice = invoiceOf(parsed);
    if (invoice) lines.push(`Invoice number ${invoice}`);
    lines.push(`Body: ${Buffer.byteLength(raw).toLocaleString('en-US')} bytes, shown in the editor.`);
  } else lines.push('No body.');
  return { message: `Send ${entry.method} to ${envLabel} again?`, detail: lines.join('\n'), ...(body !== undefined ? { body } : {}) };
}

/**
 * `tpp.resendRequest`: sends a recorded request again (same endpoint, parameters, query and body) to its
 * environment. A GET is sent at once; a POST, PATCH or DELETE first opens its body in a read-only editor, then asks
 * in a modal showing method, URL, invoice number and size, and is sent only on **Resend** (the Production guard still
 * asks for Production). Resolves to the request outcome.
 */
export const resendRequest = defineCommand({
  id: 'tpp.resendRequest',
  needs: ['api', 'environments', 'history', 'log', 'records', 'responses'],
  args: ([arg, options]) => {
    const confirm = fieldsArg(options).confirm;
    return { rowEnv: envOf(arg), recorded: recordedRefOf(arg), confirm: typeof confirm === 'function' ? (confirm as NonNullable<ResendOptions['confirm']>) : undefined };
  },
  async run(services, { rowEnv, recorded, confirm }) {
    const env0 = rowEnv ?? services.environments.active.get();
    const entry = entryOf(services, recorded) ?? (await pickEntry(services, env0, 'Resend Request'));
    if (!entry.replay || !Object.hasOwn(ENDPOINTS, entry.replay.endpointId)) throw new Error('This request cannot be sent again (its body was too large to keep, or it is from another version).');
    const env = (Object.hasOwn(ENVIRONMENTS, entry.env) ? entry.env : env0) as EnvironmentId;
    const r = entry.replay;
    const def = ENDPOINTS[r.endpointId as EndpointId];
    const body = r.bodyJson !== undefined ? (JSON.parse(r.bodyJson) as unknown) : undefined;
    if (changesData(def.method)) {
      const q = resendQuestion(entry, ENVIRONMENTS[env].label);
      if (body !== undefined) await services.records.open(services.records.snapshot(env, `${invoiceOf(body) || `${entry.method} ${entry.path}`} · body to resend`, body));
      const ok = confirm ? await confirm(q) : (await vscode.window.showWarningMessage(q.message, { modal: true, detail: q.detail }, 'Resend')) === 'Resend';
      if (!ok) throw new UserCancelled();
    }
    return runRequest(services, env, r.endpointId as EndpointId, { params: r.params, query: r.query, body }, { title: `Resend ${entry.method} ${entry.path}`, reveal: 'always' });
  },
});
