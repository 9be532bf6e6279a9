import * as vscode from 'vscode';
import { formatDuration } from '../../core/jwt/time';
import { labelOf } from '../commandSupport/keys';
import { envTargetOf } from '../commandSupport/args';
import { environmentOf } from '../commandSupport/pickEnvironment';
import { defineCommand } from './registry';

/**
 * `tpp.mintJwt`: mints a fresh token for an environment and copies it to the clipboard — only on this
 * explicit request (spec: Authentication, items 5 and 7). The token is never shown or logged. Returns nothing.
 */
export const mintJwt = defineCommand({
  id: 'tpp.mintJwt',
  needs: ['environments', 'jwt', 'log'],
  args: ([arg]) => ({ target: envTargetOf(arg) }),
  async run(services, { target }) {
    const { environments, jwt, log } = services;
    const env = await environmentOf(environments, target, 'Copy a Fresh JWT');
    const token = await jwt.mint(env);
    await vscode.env.clipboard.writeText(token);
    const life = formatDuration(jwt.lifetimeSeconds());
    log.info(`Minted a token for ${labelOf(env)} (expires in ${life}) and copied it to the clipboard`);
    void vscode.window.showInformationMessage(`A fresh token for ${labelOf(env)} is on the clipboard (expires in ${life}). Treat it like a password.`);
  },
});
