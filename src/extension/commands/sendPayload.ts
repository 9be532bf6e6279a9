import * as vscode from 'vscode';
import { PayloadRefused, routePayload, type PayloadRoute, type RouteAnswers, type RouteNeed } from '../../core/client/route';
import { kindFromSchemaUri } from '../../core/contract/kinds';
import { VariableError, resolvePayloadVariables } from '../../core/variables';
import { ENVIRONMENTS, EnvironmentId } from '../../core/environments';
import { readPayload } from '../send/payloadSend';
import { runRequest } from '../send/runRequest';
import { pickRegistration, type RegistrationLists } from '../commandSupport/registrations';
import { uriArg } from '../commandSupport/pickEnvironment';
import { envChoiceOf, fieldsArg } from '../commandSupport/args';
import { flowEnvironmentOf } from '../commandSupport/flows';
import { defineCommand, UserCancelled } from './registry';

/** Asks for what the file does not say: a registration (picker of the tree's rows, or an invoice number) or a shop. */
async function ask(services: RegistrationLists, env: EnvironmentId, need: RouteNeed, name: string): Promise<RouteAnswers> {
  if (need.need === 'registration') {
    const ref = await pickRegistration(services, env, need.product, `Which registration is ${name} for?`, need.byInvoice);
    return { registrationId: ref.id, invoiceNumber: ref.invoiceNumber, storeNumber: ref.storeNumber };
  }
  const v = await vscode.window.showInputBox({ title: `Which shop is ${name} for?`, prompt: 'uniqueId of the shop (or set "$uniqueId" in the file)' });
  if (!v?.trim()) throw new UserCancelled();
  return { uniqueId: v.trim() };
}

/**
 * `tpp.sendPayload` (CodeLens "Send to <environment>", palette, editor title): sends the payload document
 * (argument: its URI, else the active editor) to an environment (argument: an id, `'pick'` to ask, else the active
 * one). Refused while the document has error diagnostics (the refusal offers Send Anyway: `{ anyway: true }` as third
 * argument) or is not strict JSON; routed by core's `routePayload`
 * (asking for the registration or shop when the file does not name it); version 2 files go to the v2 endpoint in
 * one request. `{{variables}}` are resolved here, at send time only, with the target environment's variables and
 * captures: the resolved body is what is sent, and what history and the response view show; a 2xx create is then
 * captured (`{{lastRegistration.id}}`). Ctrl+Alt+R / Cmd+Alt+R runs it on the active payload file. Resolves to the
 * request outcome (status, body, response document).
 */
export const sendPayload = defineCommand({
  id: 'tpp.sendPayload',
  needs: ['api', 'environments', 'log', 'registrations', 'responses', 'variables'],
  args: ([arg, env, opts]) => ({ given: uriArg(arg), envArg: envChoiceOf(env), anyway: fieldsArg(opts).anyway === true }),
  async run(services, { given, envArg, anyway }) {
    const uri = given ?? vscode.window.activeTextEditor?.document.uri;
    if (!uri) throw new Error('Open a payload file (a JSON file with a "$schema": "tpp://schemas/<kind>.json" line) first.');
    const doc = await vscode.workspace.openTextDocument(uri);
    const env = await flowEnvironmentOf(services, envArg, 'Send Payload to…');
    // Send Anyway (offered on a refusal by the checker) sends the same file to the same environment past the checker.
    const { value: file, name } = readPayload(doc, { ignoreErrors: anyway, sendAnyway: () => vscode.commands.executeCommand('tpp.sendPayload', uri, env, { anyway: true }) });
    const schema = (file as { $schema?: unknown } | null)?.$schema;
    const kind = typeof schema === 'string' ? kindFromSchemaUri(schema) : undefined;
    let value: unknown;
    try {
      value = resolvePayloadVariables(file, kind, services.variables.scope(env, uri));
    } catch (err) {
      if (err instanceof VariableError) throw new PayloadRefused(`Not sent: ${name}: ${err.message}`);
      throw err;
    }
    let routed = routePayload(value, name, {}, { unchecked: anyway });
    if ('missing' in routed) routed = routePayload(value, name, await ask(services, env, routed.missing, name), { unchecked: anyway });
    if ('missing' in routed) throw new Error(`Not sent: ${name} does not say which record it is for.`);
    const route: PayloadRoute = routed.route;
    const outcome = await runRequest(
      services,
      env,
      route.endpointId,
      { params: route.params, query: route.query, body: route.body },
      {
        title: `Send ${name} (${route.kind})`,
        payloadUri: uri,
        success: (status, body) => {
          const id = (body as { id?: unknown } | undefined)?.id;
          return `${ENVIRONMENTS[env].label}: ${status} — ${route.kind} sent${id !== undefined ? `, id ${String(id)}` : ''}.`;
        },
      },
    );
    if (outcome.ok && outcome.status !== undefined && outcome.status >= 200 && outcome.status < 300) await services.variables.capture(env, route.kind, value, outcome.body);
    return outcome;
  },
});
