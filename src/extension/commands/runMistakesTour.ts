import * as vscode from 'vscode';
import { CommandDef } from './registry';

/**
 * `tpp.runMistakesTour`: runs the deliberate-mistakes script in a terminal against the Local sandbox and reveals
 * the Integration Log, which explains each of its three broken requests (walkthrough step, issue 13).
 */
export const runMistakesTour: CommandDef = {
  id: 'tpp.runMistakesTour',
  async run({ mistakesTour }) {
    const { partnerId } = await mistakesTour.run();
    await vscode.commands.executeCommand('tpp.integrationLog.focus');
    return partnerId;
  },
};
