import * as vscode from 'vscode';
import { defineCommand, noArgs } from './registry';

/**
 * `tpp.loadSampleData`: loads a few hundred realistic registrations (with claims and cancellations), shops and
 * motor-club registrations into the Local sandbox, starting it if needed, and redraws the Local registration folders.
 */
export const loadSampleData = defineCommand({
  id: 'tpp.loadSampleData',
  needs: ['localSandbox', 'log', 'registrations'],
  args: noArgs,
  async run(services) {
    const sandbox = services.localSandbox;
    const s = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Loading sample data into the Local sandbox…' }, () =>
      sandbox.loadSampleData(),
    );
    // The Local lists now hold other data: their folders are read again when shown.
    services.registrations.invalidate('local');
    const info = sandbox.info;
    services.log.info(`Sample data loaded into the Local sandbox${info ? ` (${info.v3BaseUrl})` : ''}: ${JSON.stringify(s)}`);
    void vscode.window.showInformationMessage(
      `Local sandbox: added ${s.registrations} registrations (${s.claims} with claims, ${s.cancellations} cancelled), ${s.shops} shops and ${s.motorClub} motor-club registrations.`,
    );
    return s;
  },
});
