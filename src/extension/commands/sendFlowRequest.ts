import { confirmFlowRun } from '../flows/guard';
import { UserCancelled } from '../services/userCancelled';
import { flowEnvironmentOf, flowUriOf, refuseBrokenFlow } from '../commandSupport/flows';
import { envChoiceOf, numberArg } from '../commandSupport/args';
import { uriArg } from '../commandSupport/pickEnvironment';
import { defineCommand } from './registry';

/**
 * `tpp.sendFlowRequest(uri?: Uri, index?: number, env?: EnvironmentId | 'pick')` (the **Send to <environment>**
 * CodeLens above each request): sends one request of a flow file (default: the one at the cursor), with the named
 * requests it reads from run first, behind the Production guard, with Cancel on the progress notification; shows its
 * exchange in the response view and its assertions in a message (docs/flows-editor.md). Resolves to
 * `{ result: RequestResult, results: RequestResult[] }` (`results`: every request that ran). The sending itself is in
 * dist/flows.js (src/extension/flows/sendRequest.ts), loaded with the flow features.
 */
export const sendFlowRequest = defineCommand({
  id: 'tpp.sendFlowRequest',
  needs: ['environments', 'flowRuns', 'flows', 'responses'],
  args: ([uri, index, env]) => ({ given: uriArg(uri), indexArg: numberArg(index), envArg: envChoiceOf(env) }),
  async run(services, { given, indexArg, envArg }) {
    const uri = flowUriOf(given);
    const flow = await services.flows.load(uri);
    const flows = require('../flows') as typeof import('../flows');
    const index = flows.requestIndexOf(flow, indexArg);
    const env = await flowEnvironmentOf(services, envArg, 'Send Flow Request to…');
    refuseBrokenFlow(flow);
    await confirmFlowRun(env, [{ flow, only: [index] }]);
    const sent = await flows.sendOneFlowRequest(services, flow, index, env);
    if (!sent) throw new UserCancelled();
    return sent;
  },
});
