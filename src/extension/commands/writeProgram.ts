import * as vscode from 'vscode';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { defaultDotenvName, pathTaken, writeNewFile } from '../../core/connect';
import { ENVIRONMENTS, type EnvironmentId } from '../../core/environments';
import { dotenvValues, generateSample, isProgramLanguage, PROGRAM_INFO, PROGRAM_LANGUAGES, programFileName, SAMPLE_LANGUAGE_INFO, type ProgramLanguage } from '../../core/samples';
import { codeTargetOf, requestOfTarget } from '../commandSupport/codeTarget';
import type { Services } from '../container';
import { rememberProgramFile } from '../programFiles';
import { signingKeyOf } from '../services/keyStore';
import type { ConnectResult } from './connectApplication';
import { defineCommand, UserCancelled } from './registry';

/** Where the last language chosen is remembered (the container's `choices`). */
const LAST_LANGUAGE = 'tpp.writeProgram.lastLanguage';

/** What `tpp.writeProgram` resolves to. */
export interface WrittenProgram {
  readonly file: string;
  readonly dotenvFile: string;
  readonly language: ProgramLanguage;
  /** The command Run in Terminal sends, from the program's folder. */
  readonly command: string;
}

/** Asks for the language (the last one chosen first). Throws {@link UserCancelled}. */
async function pickLanguage(last: unknown): Promise<ProgramLanguage> {
  const first = typeof last === 'string' && isProgramLanguage(last) ? last : undefined;
  const order = first ? [first, ...PROGRAM_LANGUAGES.filter((l) => l !== first)] : [...PROGRAM_LANGUAGES];
  const picked = await vscode.window.showQuickPick(
    order.map((l) => ({ label: SAMPLE_LANGUAGE_INFO[l].label, description: SAMPLE_LANGUAGE_INFO[l].detail, detail: `${SAMPLE_LANGUAGE_INFO[l].fileName}: run with ${PROGRAM_INFO[l].command(SAMPLE_LANGUAGE_INFO[l].fileName, process.platform)}; needs ${PROGRAM_INFO[l].needs}`, language: l })),
    { title: 'Write Program', placeHolder: 'Language of the program: it loads the dotenv file itself and runs as written (C#, Java, Go, PHP, curl: Copy as Code)' },
  );
  if (!picked) throw new UserCancelled();
  return picked.language;
}

/** The folder the program and its dotenv file go in: the payload's workspace folder, else the first on disk. */
function folderOf(from: vscode.Uri | undefined): string {
  const own = from && vscode.workspace.getWorkspaceFolder(from);
  const folder = own?.uri.scheme === 'file' ? own : vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
  if (!folder) throw new Error('Open a folder first: Write Program writes the program and its dotenv file into the workspace.');
  return folder.uri.fsPath;
}

/** Whether the Local dotenv file `file` names the running Local sandbox, its Partner ID and the current Local key. */
async function localDotenvCurrent(services: Pick<Services, 'keys' | 'localSandbox'>, file: string): Promise<boolean> {
  const v = dotenvValues(readFileSync(file, 'utf8'));
  const addresses = services.localSandbox.addresses ?? (await services.localSandbox.ensureStarted());
  const rec = await services.keys.get('local');
  const keyFile = v.TPP_PRIVATE_KEY_FILE;
  const key = keyFile && pathTaken(keyFile) ? readFileSync(keyFile, 'utf8') : undefined;
  return v.TPP_BASE_URL === addresses.v3BaseUrl && v.TPP_PARTNER_ID === services.localSandbox.partnerId && !!rec && key?.trim() === signingKeyOf(rec).pkcs8Pem.trim();
}

/**
 * The environment's dotenv file in `folder` (`tpp-<env>.env`), written by Connect Your Application when it is not
 * there (Local: at once, with its key file beside it; Sandbox and Production ask which key the program signs with).
 * A Local file written for another sandbox address, Partner ID or key is replaced once the user says so.
 */
async function dotenvFor(services: Pick<Services, 'keys' | 'localSandbox'>, env: EnvironmentId, folder: string): Promise<string> {
  const file = join(folder, defaultDotenvName(env));
  const connect = async (overwrite: boolean) => {
    const r = await vscode.commands.executeCommand<ConnectResult | undefined>('tpp.connectApplication', env, { destination: 'file', file: vscode.Uri.file(file), overwrite, show: false });
    if (!r?.dotenvFile) throw new UserCancelled(); // Connect Your Application said why
  };
  if (!pathTaken(file)) await connect(false);
  else if (env === 'local' && !(await localDotenvCurrent(services, file))) {
    const name = vscode.workspace.asRelativePath(file);
    const choice = await vscode.window.showWarningMessage(`${name} was written for another Local sandbox address or key.`, { modal: true, detail: `Replace it, and the key file it names, with the current Local settings? Local's key is a throwaway of the embedded sandbox.` }, 'Replace');
    if (choice !== 'Replace') throw new UserCancelled();
    await connect(true);
  }
  return file;
}

/**
 * `tpp.writeProgram(target?, language?)` (Write Program…: a payload file's CodeLens, the palette, a payload's, a
 * history row's or an Integration Log row's menus, the walkthrough): writes a complete Python or Node.js program that
 * sends the same request with a fresh partner JWT (src/core/samples) and loads the environment's dotenv file itself
 * (src/core/samples/program.ts), beside it in the workspace: `tpp-<env>.env` from Connect Your Application, written
 * first when missing. The program never replaces a file (`tpp_sample_2.py`…). Opens it and offers **Run in
 * Terminal** (`tpp.runProgram`). `target` as Copy as Code's; the environment is the target's, else the active one.
 * Resolves to {@link WrittenProgram}. Copy as Code stays for those who paste the code into their own program.
 * @throws Error when no folder is open, the target has no request, or 99 program names are taken.
 */
export const writeProgram = defineCommand({
  id: 'tpp.writeProgram',
  needs: ['choices', 'environments', 'history', 'keys', 'localSandbox', 'variables'],
  args: ([target, language]) => ({ target: codeTargetOf(target), language: typeof language === 'string' && isProgramLanguage(language) ? language : undefined }),
  async run(services, { target, language }): Promise<WrittenProgram> {
    const { request, from } = await requestOfTarget(services, target, 'Write Program');
    const env = target.env ?? services.environments.active.get();
    const folder = folderOf(from);
    const lang = language ?? (await pickLanguage(services.choices.get<unknown>(LAST_LANGUAGE)));
    await services.choices.update(LAST_LANGUAGE, lang);
    const dotenvFile = await dotenvFor(services, env, folder);
    const text = generateSample(request, lang, { dotenv: basename(dotenvFile) });
    const same = (name: string) => pathTaken(join(folder, name)) && readFileSync(join(folder, name), 'utf8') === text;
    const name = programFileName(lang, (n) => pathTaken(join(folder, n)), same);
    if (!name) throw new Error(`${SAMPLE_LANGUAGE_INFO[lang].fileName} and its next 98 names are taken in ${folder}: move some away first.`);
    const file = join(folder, name);
    if (!same(name)) await writeNewFile(file, text, 0o644);
    await rememberProgramFile(services.choices, file);
    await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: false });
    const command = PROGRAM_INFO[lang].command(name, process.platform);
    const what = request.title.replace(/\s*\([^)]*\)$/, ''); // "POST /tire-protection/registrations", without the endpoint id
    const message = `Wrote ${vscode.workspace.asRelativePath(file)}: it loads ${basename(dotenvFile)} and sends ${what} to ${ENVIRONMENTS[env].label} with a token of its own. Needs ${PROGRAM_INFO[lang].needs}.`;
    void vscode.window.showInformationMessage(message, 'Run in Terminal').then((c) => {
      if (c) void vscode.commands.executeCommand('tpp.runProgram', vscode.Uri.file(file));
    });
    return { file, dotenvFile, language: lang, command };
  },
});
