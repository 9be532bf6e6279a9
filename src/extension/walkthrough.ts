import * as vscode from 'vscode';
import type { EndpointId } from '../core/contract/types';
import type { ApiClients } from './services/apiClients';
import type { EnvironmentModel } from './services/environmentModel';

/** The walkthrough's steps that complete from requests, and the endpoints that complete them. */
const REQUEST_STEPS: Readonly<Record<string, readonly EndpointId[]>> = {
  registrationCreated: ['createTireProtectionRegistration', 'createRegistration'],
  claimFiled: ['createTireProtectionClaim'],
  registrationCancelled: ['cancelTireProtectionRegistration', 'cancelTireProtectionRegistrationByInvoice', 'cancelRegistration', 'cancelRegistrationByInvoice'],
};

const STATE_KEY = 'tpp.walkthroughProgress';

/** Context key of a walkthrough step, e.g. `tpp.walkthrough.keyGenerated` (package.json `onContext:` events). */
export const walkthroughKey = (step: string) => `tpp.walkthrough.${step}`;

/**
 * Completes the "Tire Protection Partner Toolkit" walkthrough's steps from what really happened, through context keys
 * (`completionEvents: onContext:tpp.walkthrough.<step>`), never from a command merely being run:
 * - `keyGenerated`: an environment has a key pair;
 * - `remoteConfigured`: a remote environment has its Partner ID and its public key copied or saved;
 * - `verified`: an environment's verify-token answered 200 with its current key and settings;
 * - `registrationCreated`, `claimFiled`, `registrationCancelled`: such a request succeeded (any environment).
 * The first three are read from the environments' state (secret storage, settings, setup marks), the others are
 * kept in global state: every step keeps its state across restarts, and the keys are set again at activation
 * (the walkthrough activates the extension: `onWalkthrough:tpp.gettingStarted`).
 */
export class WalkthroughProgress implements vscode.Disposable {
  private readonly values = new Map<string, boolean>();
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly state: vscode.Memento,
    private readonly environments: EnvironmentModel,
    api: ApiClients,
  ) {
    void this.fromEnvironments();
    void Promise.all(Object.keys(REQUEST_STEPS).map((step) => this.set(step, this.stored()[step] === true)));
    this.subscription = vscode.Disposable.from(
      environments.onDidChange(() => void this.fromEnvironments()),
      api.onDidChangeData(({ endpointId }) => {
        const step = Object.keys(REQUEST_STEPS).find((s) => REQUEST_STEPS[s]?.includes(endpointId));
        if (!step || this.stored()[step]) return;
        void this.state.update(STATE_KEY, { ...this.stored(), [step]: true }).then(() => this.set(step, true));
      }),
    );
  }

  /** The request steps done so far, as kept in global state. */
  stored(): Readonly<Record<string, boolean>> {
    return this.state.get<Record<string, boolean>>(STATE_KEY) ?? {};
  }

  /** Every step's context key value as last set (tests). */
  current(): Readonly<Record<string, boolean>> {
    return Object.fromEntries(this.values);
  }

  private async set(step: string, value: boolean): Promise<void> {
    this.values.set(step, value);
    await vscode.commands.executeCommand('setContext', walkthroughKey(step), value);
  }

  private async fromEnvironments(): Promise<void> {
    const all = await this.environments.all();
    const item = (s: (typeof all)[number], id: string) => s.setup.find((it) => it.id === id)?.state === 'done';
    await Promise.all([
      this.set('keyGenerated', all.some((s) => s.hasKey)),
      this.set('remoteConfigured', all.some((s) => s.info.remote && item(s, 'partnerId') && item(s, 'publicKeyExported'))),
      this.set('verified', all.some((s) => item(s, 'connection'))),
    ]);
  }

  dispose(): void {
    this.subscription.dispose();
  }
}

/** The walkthrough's id as `workbench.action.openWalkthrough` takes it. */
export const WALKTHROUGH_ID = 'tpp-toolkit.tire-protection-partner-toolkit#tpp.gettingStarted';

/** globalState key: the walkthrough was opened at a first start from the sources. */
const OPENED_KEY = 'tpp.walkthroughOpenedAtFirstStart';

/**
 * Opens the toolkit's walkthrough once per profile when the extension runs from its sources (`npm start`, F5:
 * `ExtensionMode.Development`), as VS Code does for an extension installed from a gallery, which it never does for
 * a development extension: a newcomer's first `npm start` then shows these first steps, not only VS Code's own.
 * Resolves to true when it opened it.
 */
export async function openWalkthroughAtFirstStart(mode: vscode.ExtensionMode, state: vscode.Memento): Promise<boolean> {
  if (mode !== vscode.ExtensionMode.Development || state.get<boolean>(OPENED_KEY)) return false;
  await state.update(OPENED_KEY, true);
  await vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH_ID, false);
  return true;
}
