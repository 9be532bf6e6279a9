import * as vscode from 'vscode';
import { ENVIRONMENTS, EnvironmentId } from '../../core/environments';
import { ALG_FOR_CURVE, Curve, CURVES, DEFAULT_CURVE } from '../../core/jwt/algorithms';
import { KeyMaterial, shortFingerprint } from '../../core/jwt/keys';
import { KeyInfo } from '../services/keyStore';
import type { Logger } from '../log';
import { UserCancelled } from '../services/userCancelled';

/** `P-256 (ES256), SHA256 1a2b3c4d…9f0e`: the non-secret description of a key used in messages. */
export function describeKey(k: KeyInfo | KeyMaterial): string {
  return `${k.curve} (${k.alg}), ${shortFingerprint(k.fingerprint)}`;
}

/** The environment's label, e.g. "Sandbox". */
export const labelOf = (env: EnvironmentId) => ENVIRONMENTS[env].label;

/** Options a key command accepts as its second argument (tests and other commands pass them to skip prompts). */
export interface KeyCommandOptions {
  /** Curve for a new key; asked with a quick pick when absent. */
  readonly curve?: Curve;
  /**
   * What to do when the environment already has a key, instead of asking in a modal dialog (callers that
   * already asked the user, and tests: the test host refuses modal dialogs).
   */
  readonly existing?: 'rotate' | 'replace';
}

/** Asks for a curve (P-256 first and default; the algorithm follows from it). Throws {@link UserCancelled}. */
export async function pickCurve(title: string, preferred: Curve = DEFAULT_CURVE): Promise<Curve> {
  const order = [preferred, ...CURVES.filter((c) => c !== preferred)];
  const items = order.map((curve) => ({
    label: curve,
    description: `${ALG_FOR_CURVE[curve]}${curve === DEFAULT_CURVE ? ' · recommended (the curve of the spec’s setup steps)' : ''}`,
    curve,
  }));
  const picked = await vscode.window.showQuickPick(items, { title, placeHolder: 'Curve of the new key (the JWT alg follows from it)' });
  if (!picked) throw new UserCancelled();
  return picked.curve;
}

/** Shows a non-blocking notification with the public-key actions after a key was created, rotated or imported. */
export function offerPublicKeyActions(services: { readonly log: Logger }, env: EnvironmentId, message: string): void {
  const remote = ENVIRONMENTS[env].remote;
  const actions = remote ? ['Copy Public Key', 'Save Public Key…'] : [];
  void vscode.window.showInformationMessage(message, ...actions).then((choice) => {
    if (choice === 'Copy Public Key') void vscode.commands.executeCommand('tpp.copyPublicKey', env);
    else if (choice === 'Save Public Key…') void vscode.commands.executeCommand('tpp.savePublicKey', env);
  });
  services.log.info(message);
}

/**
 * True when the caller already confirmed (`confirmed: true` in the second argument of the destructive key commands)
 * or the user chose `action` in a modal warning.
 */
export async function confirmModal(confirmed: boolean, message: string, detail: string, action: string): Promise<boolean> {
  if (confirmed) return true;
  return (await vscode.window.showWarningMessage(message, { modal: true, detail }, action)) === action;
}
