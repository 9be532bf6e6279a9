import * as vscode from 'vscode';
import { defineCommand, noArgs } from './registry';

/**
 * `tpp.copyLocalControlToken`: copies the admin token of the Local sandbox's control API (`/__tpp/`) to the clipboard,
 * starting the sandbox if needed, so that a program of the user's (curl, a script counting a backfill's rows) can call
 * it as `Authorization: Bearer <token>` (docs/testing-your-application.md, Security). The token is made at each start
 * of the sandbox's process and never written anywhere; it is copied only when asked for, and shown nowhere.
 */
export const copyLocalControlToken = defineCommand({
  id: 'tpp.copyLocalControlToken',
  needs: ['localSandbox'],
  args: noArgs,
  async run(services) {
    const info = await services.localSandbox.ensureStarted();
    await vscode.env.clipboard.writeText(info.controlToken);
    void vscode.window.showInformationMessage(
      `Copied the Local sandbox's control token. Send it as "Authorization: Bearer <token>" to ${info.origin}/__tpp/ (e.g. GET ${info.origin}/__tpp/records?kind=registrations); it is valid until the Local sandbox restarts. For your own test suites, start a sandbox of their own instead: tpp sandbox --port 0.`,
    );
  },
});
