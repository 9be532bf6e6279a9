import * as vscode from 'vscode';
import { ENVIRONMENTS } from '../../core/environments';
import { runRequest } from '../send/runRequest';
import { envOf } from '../commandSupport/treeArgs';
import { fieldsArg, textArg } from '../commandSupport/args';
import { defineCommand, UserCancelled } from './registry';

/** Options that skip the prompts. */
export interface EligibilityOptions {
  readonly vin?: string;
  readonly licensePlate?: string;
  readonly state?: string;
}

/**
 * `tpp.checkEligibility` (spec: Vehicle eligibility lookup — retired): asks for a VIN, or a license plate and a
 * two-letter state, and sends GET /vehicle-lookup/{program}/rsa/eligible with the provider's dedicated token
 * (set with "Set Eligibility Token…"). Warns that the lookup is deprecated and unsupported.
 */
export const checkEligibility = defineCommand({
  id: 'tpp.checkEligibility',
  needs: ['api', 'environments', 'log', 'responses'],
  args: ([arg, options]) => {
    const o = fieldsArg(options);
    return { rowEnv: envOf(arg), given: { vin: textArg(o.vin), licensePlate: textArg(o.licensePlate), state: textArg(o.state) } satisfies EligibilityOptions };
  },
  async run(services, { rowEnv, given }) {
    const env = rowEnv ?? services.environments.active.get();
    const title = `Check Vehicle Eligibility (${ENVIRONMENTS[env].label}) — deprecated, unsupported`;
    let { vin, licensePlate, state } = given;
    if (!vin && !licensePlate) {
      const how = await vscode.window.showQuickPick(
        [
          { label: 'By VIN', id: 'vin' },
          { label: 'By license plate and state', id: 'plate' },
        ],
        { title, placeHolder: 'The retired lookup needs the provider’s dedicated token; partner JWTs do not work there.' },
      );
      if (!how) throw new UserCancelled();
      if (how.id === 'vin') {
        vin = await vscode.window.showInputBox({ title, prompt: 'VIN', validateInput: (s) => (s.trim() ? undefined : 'Enter the VIN') });
        if (!vin) throw new UserCancelled();
      } else {
        licensePlate = await vscode.window.showInputBox({ title, prompt: 'License plate', validateInput: (s) => (s.trim() ? undefined : 'Enter the plate') });
        if (!licensePlate) throw new UserCancelled();
        state = await vscode.window.showInputBox({ title, prompt: 'State (two-letter abbreviation)', validateInput: (s) => (/^[A-Za-z]{2}$/.test(s.trim()) ? undefined : 'Two letters, e.g. TX') });
        if (!state) throw new UserCancelled();
      }
    }
    const query = vin ? { vin: vin.trim() } : { licensePlate: licensePlate?.trim(), state: state?.trim().toUpperCase() };
    return runRequest(services, env, 'eligibilityLookup', { query }, {
      title: vin ? `Eligibility of VIN ${vin.trim()}` : `Eligibility of plate ${licensePlate?.trim()} (${state?.trim().toUpperCase()})`,
      reveal: 'always',
      success: (_s, body) => `Eligible: ${String((body as { isEligible?: unknown } | undefined)?.isEligible)} (the lookup is deprecated and unsupported).`,
    });
  },
});
