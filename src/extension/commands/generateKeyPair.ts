import * as vscode from 'vscode';
import { CommandDef } from './registry';

/** `tpp.generateKeyPair`: placeholder until key management lands (issue "Keys, tokens and the JWT preview"). */
export const generateKeyPair: CommandDef = {
  id: 'tpp.generateKeyPair',
  async run() {
    await vscode.window.showInformationMessage('Generate Key Pair is not yet available in this version.');
  },
};
