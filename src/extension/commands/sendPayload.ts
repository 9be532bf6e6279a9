import * as vscode from 'vscode';
import { ENVIRONMENTS, isEnvironmentId } from '../../core/environments';
import { preparePayload } from '../send/payloadSend';
import { runRequest } from '../send/runRequest';
import { pickEnvironment } from './pickEnvironment';
import { CommandDef } from './registry';

/**
 * `tpp.sendPayload` (CodeLens "Send to <environment>", palette, editor title): sends the payload document
 * (argument: its URI, else the active editor) to an environment (argument: an id, `'pick'` to ask, else the active
 * one). Refused while the document has error diagnostics or does not validate; version 2 files go to the v2
 * endpoint in one request. Resolves to the request outcome (status, body, response document).
 */
export const sendPayload: CommandDef = {
  id: 'tpp.sendPayload',
  async run(services, arg, envArg) {
    const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
    if (!uri) throw new Error('Open a payload file (a JSON file with a "$schema": "tpp://schemas/<kind>.json" line) first.');
    const doc = await vscode.workspace.openTextDocument(uri);
    const env = isEnvironmentId(envArg)
      ? envArg
      : envArg === 'pick'
        ? await pickEnvironment(services.environments, undefined, 'Send Payload to…')
        : services.environments.active.get();
    const prepared = await preparePayload(doc, env);
    const name = uri.path.split('/').pop() ?? 'payload';
    return runRequest(
      services,
      env,
      prepared.endpointId,
      { params: prepared.params, query: prepared.query, body: prepared.body },
      {
        title: `Send ${name} (${prepared.kind})`,
        success: (status, body) => {
          const id = (body as { id?: unknown } | undefined)?.id;
          return `${ENVIRONMENTS[env].label}: ${status} — ${prepared.kind} sent${id !== undefined ? `, id ${String(id)}` : ''}.`;
        },
      },
    );
  },
};
