import * as vscode from 'vscode';
import { ENDPOINTS } from '../../core/contract';
import type { EndpointId } from '../../core/contract/types';
import { ENVIRONMENTS, EnvironmentId } from '../../core/environments';
import type { HistoryEntry } from '../../core/history/history';
import { runRequest } from '../send/runRequest';
import { entryOf, pickEntry } from './historyHelpers';
import { envOfArg } from './mainHelpers';
import { CommandDef, UserCancelled } from './registry';

/** The question Resend asks before a request that changes data. */
export interface ResendQuestion {
  readonly message: string;
  /** Method, URL and the body that will be sent (masked, cut at 4,000 characters). */
  readonly detail: string;
}

/** Second argument of `tpp.resendRequest`: `confirm` replaces the modal (tests); resolve `true` to send. */
export interface ResendOptions {
  readonly confirm?: (q: ResendQuestion) => boolean | Promise<boolean>;
}

/** Largest part of the body shown in the question, in characters. */
const SHOWN_BODY_CHARS = 4000;

/** The question for a POST, PATCH or DELETE of `entry`. */
export function resendQuestion(entry: HistoryEntry, envLabel: string): ResendQuestion {
  const raw = entry.replay?.bodyJson;
  let body = '(no body)';
  if (raw !== undefined) {
    try {
      body = JSON.stringify(JSON.parse(raw), null, 2);
    } catch {
      body = raw;
    }
    if (body.length > SHOWN_BODY_CHARS) body = `${body.slice(0, SHOWN_BODY_CHARS)}\n… (${body.length - SHOWN_BODY_CHARS} more characters)`;
  }
  return { message: `Send ${entry.method} to ${envLabel} again?`, detail: `${entry.method} ${entry.url}\n\n${body}` };
}

/**
 * `tpp.resendRequest`: sends a recorded request again (same endpoint, parameters, query and body) to its
 * environment. A GET is sent at once; a POST, PATCH or DELETE first shows its method, URL and body in a modal and
 * is sent only on **Resend** (the Production guard still asks for Production). Resolves to the request outcome.
 */
export const resendRequest: CommandDef = {
  id: 'tpp.resendRequest',
  async run(services, arg, options) {
    const env0 = envOfArg(services, arg);
    const entry = entryOf(services, arg) ?? (await pickEntry(services, env0, 'Resend Request'));
    if (!entry.replay || !Object.hasOwn(ENDPOINTS, entry.replay.endpointId)) throw new Error('This request cannot be sent again (its body was too large to keep, or it is from another version).');
    const env = (Object.hasOwn(ENVIRONMENTS, entry.env) ? entry.env : env0) as EnvironmentId;
    const r = entry.replay;
    const def = ENDPOINTS[r.endpointId as EndpointId];
    if (def.method !== 'GET') {
      const q = resendQuestion(entry, ENVIRONMENTS[env].label);
      const confirm = (options as ResendOptions | undefined)?.confirm;
      const ok = confirm ? await confirm(q) : (await vscode.window.showWarningMessage(q.message, { modal: true, detail: q.detail }, 'Resend')) === 'Resend';
      if (!ok) throw new UserCancelled();
    }
    const body = r.bodyJson !== undefined ? (JSON.parse(r.bodyJson) as unknown) : undefined;
    return runRequest(services, env, r.endpointId as EndpointId, { params: r.params, query: r.query, body }, { title: `Resend ${entry.method} ${entry.path}`, reveal: 'always' });
  },
};
