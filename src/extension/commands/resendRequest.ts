import { ENDPOINTS } from '../../core/contract';
import type { EndpointId } from '../../core/contract/types';
import { ENVIRONMENTS, EnvironmentId } from '../../core/environments';
import { runRequest } from '../send/runRequest';
import { entryOf, pickEntry } from './historyHelpers';
import { envOfArg } from './mainHelpers';
import { CommandDef } from './registry';

/** `tpp.resendRequest`: sends a recorded request again (same endpoint, parameters, query and body) to its environment. */
export const resendRequest: CommandDef = {
  id: 'tpp.resendRequest',
  async run(services, arg) {
    const env0 = envOfArg(services, arg);
    const entry = entryOf(services, arg) ?? (await pickEntry(services, env0, 'Resend Request'));
    if (!entry.replay || !Object.hasOwn(ENDPOINTS, entry.replay.endpointId)) throw new Error('This request cannot be sent again (its body was too large to keep, or it is from another version).');
    const env = (Object.hasOwn(ENVIRONMENTS, entry.env) ? entry.env : env0) as EnvironmentId;
    const r = entry.replay;
    const body = r.bodyJson !== undefined ? (JSON.parse(r.bodyJson) as unknown) : undefined;
    return runRequest(services, env, r.endpointId as EndpointId, { params: r.params, query: r.query, body }, { title: `Resend ${entry.method} ${entry.path}` });
  },
};
