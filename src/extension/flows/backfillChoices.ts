import * as vscode from 'vscode';
import { DEFAULT_JOBS, MAX_JOBS } from '../../core/backfill/run';
import type { BackfillSummary, RowResult } from '../../core/backfill/types';
import type { EnvironmentId } from '../../core/environments';
import type { ExplorerRunOptions, InvalidRowsChoice } from '../services/flowRuns';

/**
 * The choices a backfill run in the editor offers (docs/flows-editor.md, Data-driven flows), the ones `tpp run` takes
 * as flags (docs/backfills.md): send the valid rows when some are invalid (`--skip-invalid`), resend the writes whose
 * outcome is unknown once the user has checked them (`--retry-unknown`), rows at a time (`--jobs`, the
 * `tpp.backfill.jobs` setting).
 */

/** Choices given in advance (tests, other commands); the ones not given are asked. */
export type BackfillChoices = Pick<ExplorerRunOptions, 'invalidRows' | 'retryUnknown'>;

/** `tpp.backfill.jobs` for the flow's folder: rows at a time, a whole number from 1 to {@link MAX_JOBS} (default {@link DEFAULT_JOBS}). */
export function jobsSetting(uri: vscode.Uri): number {
  const v = vscode.workspace.getConfiguration('tpp.backfill', uri).get<number>('jobs', DEFAULT_JOBS);
  return typeof v === 'number' && Number.isFinite(v) ? Math.max(1, Math.min(MAX_JOBS, Math.floor(v))) : DEFAULT_JOBS;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * Asks what to do with invalid rows (a modal: nothing has been sent yet). "Show the invalid rows" opens the data file
 * at the first one (the Test Explorer lists them all as child items) and sends nothing.
 * @returns true to send the valid rows (the invalid ones end skipped).
 */
export async function askInvalidRows(total: number, invalid: number, firstInvalid: { data: vscode.Uri; line: number } | undefined, given?: InvalidRowsChoice): Promise<boolean> {
  const send = `Send the ${plural(total - invalid, 'valid row')} (skip ${invalid} invalid)`;
  const show = 'Show the invalid rows';
  let choice = given;
  if (!choice) {
    const picked = await vscode.window.showWarningMessage(
      `${plural(invalid, 'row')} of ${total} ${invalid === 1 ? 'breaks' : 'break'} the contract: nothing has been sent.`,
      { modal: true, detail: 'The invalid rows are listed under the request in the Test Explorer, each with its column and rule. Skipped rows can be sent later: correct them and resume the backfill.' },
      send,
      show,
    );
    choice = picked === send ? 'send' : picked === show ? 'show' : 'cancel';
  }
  if (choice === 'show' && firstInvalid) {
    const at = new vscode.Position(Math.max(0, firstInvalid.line - 1), 0);
    await vscode.window.showTextDocument(firstInvalid.data, { selection: new vscode.Range(at, at), preview: false });
    void vscode.commands.executeCommand('workbench.view.testing.focus');
  }
  return choice === 'send' && total > invalid;
}

/** What a row whose outcome is unknown says to check (its message reads "outcome unknown: check …"). */
export function checkOf(r: RowResult): string | undefined {
  return /check:? (.+?)(?: \(then resume with --retry-unknown[^)]*\))?$/.exec(r.message ?? '')?.[1];
}

/**
 * After a resumed run left rows whose outcome is unknown (writes that may have landed and that no read can find, docs/backfills.md,
 * What resume guarantees): says what to check first, and offers to resend them on the user's word.
 * @param resend runs the backfill again with `retryUnknown`.
 */
export function offerRetryUnknown(summary: BackfillSummary, firstCheck: string | undefined, resend: () => unknown): void {
  if (summary.unknown === 0) return;
  const button = `Resend the ${plural(summary.unknown, 'row')}`;
  const what = firstCheck ? `check ${firstCheck}` : 'check the records they name';
  const message = `${plural(summary.unknown, 'row')} ended with an outcome unknown: the write may have been stored, and no read can tell. First ${what} (each row is a child item in the Test Explorer); resend only the rows that were not stored, or they are stored twice.`;
  void vscode.window.showWarningMessage(message, button).then((c) => {
    if (c === button) resend();
  });
}

/** The command that continues a backfill's journal, with the user's word to resend unknown rows. */
export function resendUnknown(uri: vscode.Uri, env: EnvironmentId, command: string): () => unknown {
  return () => vscode.commands.executeCommand(command, uri, env, { retryUnknown: true } satisfies BackfillChoices);
}
