import * as vscode from 'vscode';
import { buildPath, ENDPOINTS } from '../../core/contract';
import type { EndpointId } from '../../core/contract/types';
import { ENVIRONMENTS, EnvironmentId } from '../../core/environments';
import { entryOf, pickEntry } from './historyHelpers';
import { envOfArg } from './mainHelpers';
import { CommandDef } from './registry';

/** Single-quotes a shell word. */
const sh = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * `tpp.copyAsCurl`: copies a recorded request (or the read of a registration node) as a curl command. Only on this
 * explicit request is a fresh token minted into the copied text; it goes to the clipboard and nowhere else.
 */
export const copyAsCurl: CommandDef = {
  id: 'tpp.copyAsCurl',
  async run(services, arg) {
    const api = services.api;
    const env0 = envOfArg(services, arg);
    const node = arg as { kind?: string; id?: string } | undefined;
    let endpointId: EndpointId;
    let params: Record<string, string | number> | undefined;
    let query: Record<string, string | number | boolean | undefined> | undefined;
    let bodyJson: string | undefined;
    let env = env0;
    if (node?.kind === 'registration' && node.id) {
      endpointId = 'getTireProtectionRegistration';
      params = { id: node.id };
    } else if (node?.kind === 'motorClub' && node.id) {
      endpointId = 'getMotorClubRegistration';
      params = { id: node.id };
    } else {
      const entry = entryOf(services, arg) ?? (await pickEntry(services, env0, 'Copy as cURL'));
      if (!entry.replay || !Object.hasOwn(ENDPOINTS, entry.replay.endpointId)) throw new Error('This request cannot be copied (its details were not kept).');
      endpointId = entry.replay.endpointId as EndpointId;
      ({ params, query, bodyJson } = entry.replay);
      env = (Object.hasOwn(ENVIRONMENTS, entry.env) ? entry.env : env0) as EnvironmentId;
    }
    const def = ENDPOINTS[endpointId];
    const target = await api.target(env);
    const base = target.baseUrls[def.base];
    if (!base) throw new Error(`${ENVIRONMENTS[env].label} has no ${def.base} address.`);
    const p = { ...(params ?? {}) };
    if (def.pathParams.includes('company_name') && !p.company_name) p.company_name = target.companyName;
    if (def.pathParams.includes('program') && !p.program) p.program = target.eligibilityProgram;
    const url = base.replace(/\/+$/, '') + buildPath(def, p, query);
    const token = await api.freshToken(env, def.base);
    const parts = [`curl -X ${def.method} ${sh(url)}`, `-H ${sh(`Authorization: Bearer ${token}`)}`, `-H ${sh('Accept: application/json')}`];
    if (bodyJson !== undefined) parts.push(`-H ${sh('Content-Type: application/json')}`, `--data ${sh(bodyJson)}`);
    await vscode.env.clipboard.writeText(parts.join(' \\\n  '));
    void vscode.window.showInformationMessage(`Copied a curl command for ${def.method} ${def.path} with a fresh ${ENVIRONMENTS[env].label} token (valid ${services.jwt.lifetimeSeconds()} s). Treat it as a secret.`);
    return { method: def.method, url };
  },
};
