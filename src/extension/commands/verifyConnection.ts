import * as vscode from 'vscode';
import { ApiError } from '../../core/client';
import { ENVIRONMENTS } from '../../core/environments';
import { LOCAL_NOT_AVAILABLE } from '../services/jwtService';
import { showInspection } from './inspectJwt';
import { labelOf } from '../commandSupport/keys';
import { envTargetOf } from '../commandSupport/args';
import { environmentOf } from '../commandSupport/pickEnvironment';
import { defineCommand } from './registry';

/** What `tpp.verifyConnection` returns (for tests): the HTTP status and, on 200, who the server says we are. */
export interface VerifyResult {
  /** HTTP status; 0 when nothing was sent (Local sandbox not available). */
  readonly status: number;
  readonly partnerId?: string;
  readonly name?: string;
  /** On 401: the ids of the checks that failed for the token that was sent. */
  readonly failed?: readonly string[];
}

/**
 * `tpp.verifyConnection` (spec: Endpoints, Token verification): sends GET {base}/verify-token (the contract's
 * `verifyToken` endpoint, through the partner API client: fresh token, address policy, history). On 200 shows
 * the returned partner_id and name; on 401 opens the JWT preview of the token that was sent, so the failing rule
 * is visible. Local uses the Local sandbox; when it cannot provide its address the command says
 * "Local sandbox not available yet".
 */
export const verifyConnection = defineCommand({
  id: 'tpp.verifyConnection',
  needs: ['api', 'environments', 'jwt', 'jwtPreview', 'marks'],
  args: ([arg]) => ({ target: envTargetOf(arg) }),
  async run(services, { target }) {
    const { environments, jwt, api } = services;
    const env = await environmentOf(environments, target, 'Verify Connection');
    const label = labelOf(env);
    if (env === 'local' && !(await jwt.partialTarget('local')).aud) {
      void vscode.window.showWarningMessage(LOCAL_NOT_AVAILABLE);
      return { status: 0 } satisfies VerifyResult;
    }
    const { iss } = await jwt.target(env); // fails early, with the missing piece named, when the environment cannot sign
    try {
      const { response } = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: `Verifying the ${label} connection…` }, () =>
        api.send(env, 'verifyToken', {}, undefined),
      );
      const body = response.body ?? {};
      const partnerId = typeof body.partner_id === 'string' ? body.partner_id : String(body.partner_id ?? '');
      const name = typeof body.name === 'string' ? body.name : '';
      const mismatch = partnerId && partnerId !== iss ? ` Note: this differs from the Partner ID setting (${iss}).` : '';
      // The setup checklist's last item (and the walkthrough's "verify" step), tied to this key and these settings.
      const key = await environments.keys.summary(env);
      const remote = environments.settings.remote(env);
      if (key) await services.marks.markVerified(env, key.signing.fingerprint, remote?.partnerId ?? '', remote?.baseUrl ?? '');
      void vscode.window.showInformationMessage(`${label} accepts the token: partner_id ${partnerId || '(none)'}, name ${name || '(none)'}.${mismatch}`);
      return { status: response.status, partnerId, name } satisfies VerifyResult;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      const sent = jwt.lastMintedToken(env);
      if (err.status === 401 && sent) {
        const { inspection } = await showInspection(
          services,
          env,
          sent,
          `the token sent to ${label}`,
          `${label} answered 401 Unauthorized to this token. A failed check below is the rule the server probably rejected; if all pass, the administrator may not have registered this public key for this Partner ID.`,
        );
        const failed = inspection.checks.filter((c) => c.status === 'fail').map((c) => c.id);
        const first = inspection.checks.find((c) => c.status === 'fail');
        void vscode.window.showErrorMessage(
          first
            ? `${label} rejected the token (401): "${first.rule}" fails — see the JWT preview.`
            : `${label} rejected the token (401) although every local check passes: is the public key registered for this Partner ID?`,
        );
        return { status: 401, failed } satisfies VerifyResult;
      }
      const hint = ENVIRONMENTS[env].remote && err.status === 404 ? ` Is tpp.${env}.baseUrl the address ending in /api/v3?` : '';
      void vscode.window.showErrorMessage(`${label}: ${err.message}${hint}`);
      return { status: err.status } satisfies VerifyResult;
    }
  },
});
