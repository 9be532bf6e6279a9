import * as vscode from 'vscode';
import { basename, dirname } from 'node:path';
import { isEnvironmentId } from '../../core/environments';
import { PROGRAM_INFO, programLanguageOf } from '../../core/samples';
import { uriArg } from '../commandSupport/pickEnvironment';
import { confirmSend } from '../send/productionGuard';
import { defineCommand } from './registry';

/**
 * Where a program Write Program… wrote sends its request, and whether it changes data: the environment of the dotenv
 * file it loads (`tpp-<env>.env`) and the method its first line names. Undefined for another program.
 */
function targetOf(text: string): { env: string; changesData: boolean } | undefined {
  const env = /\btpp-([a-z]+)\.env\b/.exec(text)?.[1];
  if (!env) return undefined;
  return { env, changesData: !/^(?:#|\/\/) GET /.test(text) };
}

/** The folder a terminal was opened in (its creation options' `cwd`). */
function cwdOf(t: vscode.Terminal): string | undefined {
  const cwd = (t.creationOptions as vscode.TerminalOptions).cwd;
  return typeof cwd === 'string' ? cwd : cwd?.fsPath;
}

/**
 * `tpp.runProgram(file?)` (Run in Terminal: Write Program…'s notification, the editor title of a program it wrote,
 * the palette): saves the program when it has unsaved edits and runs it in VS Code's terminal from its folder, with
 * the command of its language (`python3 tpp_sample.py`, `node tpp-sample.js`; src/core/samples/program.ts). One
 * terminal per program, named after it, used again by the next run. A program that loads `tpp-production.env` and
 * changes data asks for the typed confirmation of every Production write first (send/productionGuard.ts). `file`: the program's URI; default the active
 * editor's. Resolves to `{ command, cwd, terminal }` (the terminal's name).
 * @throws Error when the file is not on disk or not a Python or Node.js program.
 */
export const runProgram = defineCommand({
  id: 'tpp.runProgram',
  needs: [],
  args: ([target]) => ({ given: uriArg(target) }),
  async run(_services, { given }) {
    const uri = given ?? vscode.window.activeTextEditor?.document.uri;
    if (!uri || uri.scheme !== 'file') throw new Error('Open a program on disk first (Write Program… writes one): Run in Terminal runs its file.');
    const name = basename(uri.fsPath);
    const language = programLanguageOf(name);
    if (!language) throw new Error(`${vscode.workspace.asRelativePath(uri)} is not a Python or Node.js program: Run in Terminal runs .py files with python3 and .js files with node.`);
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (doc?.isDirty && !(await doc.save())) throw new Error(`${name} could not be saved: nothing was run.`);
    // A program that writes to Production asks for the environment's typed name first, as every send there does.
    const target = targetOf(Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8'));
    if (target && isEnvironmentId(target.env)) await confirmSend(target.env, target.changesData, `Run ${name}: it sends its request with the settings of tpp-${target.env}.env`);
    const cwd = dirname(uri.fsPath);
    const command = PROGRAM_INFO[language].command(name, process.platform);
    const title = `Tire Protection: ${name}`;
    const terminal = vscode.window.terminals.find((t) => t.name === title && t.exitStatus === undefined && cwdOf(t) === cwd) ?? vscode.window.createTerminal({ name: title, cwd });
    terminal.show();
    terminal.sendText(command);
    return { command, cwd, terminal: title };
  },
});
