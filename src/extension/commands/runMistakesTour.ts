import * as vscode from 'vscode';
import { defineCommand, noArgs } from './registry';

/** Requests the tour script sends (examples/mistakes/send-mistakes.mjs). */
const TOUR_REQUESTS = 3;
/** How long the tour waits for its requests to reach the Integration Log after the script ended, in ms. */
const LOG_WAIT_MS = 10_000;

/**
 * `tpp.runMistakesTour`: runs the deliberate-mistakes script in a terminal (shown, and left open with its output)
 * against the Local sandbox, says so in a notification while it runs, then scrolls the Integration Log to the tour's
 * rows, which explain each of its three broken requests (walkthrough step). Resolves to the tour's Partner ID as
 * soon as the script started.
 */
export const runMistakesTour = defineCommand({
  id: 'tpp.runMistakesTour',
  needs: ['integrationLog', 'mistakesTour'],
  args: noArgs,
  async run({ mistakesTour, integrationLog }) {
    const { partnerId, done } = await mistakesTour.run();
    await vscode.commands.executeCommand('tpp.integrationLog.focus');
    const title = `Mistakes tour: sending three broken requests to the Local sandbox as ${partnerId}…`;
    void vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title }, async () => {
      const code = await done;
      const rows = await integrationLog.whenLogged((x) => x.partner === partnerId, TOUR_REQUESTS, LOG_WAIT_MS);
      if (rows[0]) integrationLog.reveal(rows[0]);
      const message =
        code === 0
          ? `The tour sent ${rows.length} broken requests as ${partnerId}: the Integration Log explains each, newest first.`
          : `The tour script ended with exit code ${code}: its terminal says why.`;
      void (code === 0 ? vscode.window.showInformationMessage(message) : vscode.window.showWarningMessage(message));
    });
    return partnerId;
  },
});
