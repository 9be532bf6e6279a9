import * as vscode from 'vscode';
import { UserCancelled } from '../services/userCancelled';

/** The shop's uniqueId: `given` when it is a non-empty string, else asked in an input box. Throws {@link UserCancelled}. */
export async function askUniqueId(title: string, given: unknown): Promise<string> {
  if (typeof given === 'string' && given) return given;
  const v = await vscode.window.showInputBox({ title, prompt: 'uniqueId of the shop', validateInput: (s) => (s.trim() ? undefined : 'Enter the shop’s uniqueId') });
  if (!v) throw new UserCancelled();
  return v.trim();
}
