import * as vscode from 'vscode';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { appendToFile, ConnectError, defaultDotenvName, dotenvText, gitignoreAddition, gitRootOf, outsideWorkspaceProblem, repoRelative, writeNewFile, type ConnectionValues } from '../../core/connect';
import { ENVIRONMENTS, type EnvironmentId } from '../../core/environments';
import { confirmReplace, connectOptionsOf, localValues, remoteValues, type ConnectOptions } from '../commandSupport/connectValues';
import { envTargetOf } from '../commandSupport/args';
import { environmentOf } from '../commandSupport/pickEnvironment';
import { defineCommand, UserCancelled } from './registry';

export type { ConnectOptions };

/** What `tpp.connectApplication` resolves to (nothing secret: paths and the dotenv text, which holds no key). */
export interface ConnectResult {
  readonly env: EnvironmentId;
  readonly destination: 'file' | 'clipboard';
  readonly dotenvFile?: string;
  readonly keyFile: string;
  readonly text: string;
  /** Lines added to the repository's .gitignore. */
  readonly gitignored?: string;
}

/**
 * `tpp.connectApplication` (Connect Your Application…; palette, an environment's context menu, the Integration Log's
 * title bar, the walkthrough): gives the user's own program exactly what the code samples read — TPP_BASE_URL,
 * TPP_V2_BASE_URL, TPP_PARTNER_ID, TPP_PRIVATE_KEY_FILE (src/core/connect) — as a dotenv file inside the workspace
 * (never replacing a file without asking; offered for .gitignore in a git repository) or on the clipboard, with
 * comment lines saying how each language loads it, and opens the file. Local writes its throwaway key beside it (PKCS#8 PEM, 0600); Sandbox and
 * Production never write the stored key: a new pair is generated into a file, or the application's PEM is used.
 * Throws an Error with a specific message for a path outside the workspace or a missing setting.
 */
export const connectApplication = defineCommand({
  id: 'tpp.connectApplication',
  needs: ['environments', 'keys', 'localSandbox', 'log', 'settings'],
  args: ([arg, opts]) => ({ target: envTargetOf(arg), o: connectOptionsOf(opts) }),
  async run(services, { target, o }): Promise<ConnectResult> {
    const env = await environmentOf(services.environments, target, 'Connect Your Application');
    const label = ENVIRONMENTS[env].label;
    const roots = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
    const destination = o.destination ?? (await askDestination(label));
    let dotenvFile: string | undefined;
    if (destination === 'file') {
      const uri = o.file ?? (await askDotenvFile(env, roots));
      const problem = uri.scheme === 'file' ? outsideWorkspaceProblem(uri.fsPath, roots) : `${uri.toString()} is not on this machine's disk: choose a file inside the workspace.`;
      if (problem) throw new Error(problem);
      dotenvFile = uri.fsPath;
      await confirmReplace(dotenvFile, o.overwrite, `the ${label} settings of your application`);
    }
    const dir = dotenvFile ? dirname(dotenvFile) : roots[0];
    if (!dir) throw new Error('Open a folder first: Connect Your Application writes into the workspace.');
    const values: ConnectionValues = env === 'local' ? await localValues(services, dir, o) : await remoteValues(services, env, vscode.Uri.file(dir), o);
    let text: string;
    try {
      text = dotenvText(values, dotenvFile ? vscode.workspace.asRelativePath(dotenvFile, false) : defaultDotenvName(env));
    } catch (err) {
      throw err instanceof ConnectError ? new Error(err.message) : err;
    }
    if (dotenvFile) await writeNewFile(dotenvFile, text, 0o644, true);
    else await vscode.env.clipboard.writeText(text);
    const gitignored = await offerGitignore([dotenvFile, values.privateKeyFile], o.gitignore);
    services.log.info(`Connect Your Application (${label}): ${dotenvFile ? `wrote ${dotenvFile}` : 'copied the settings to the clipboard'}; key file ${values.privateKeyFile}`);
    if (o.show !== false) await showResult(label, dotenvFile, values.privateKeyFile, env !== 'local');
    return { env, destination, dotenvFile, keyFile: values.privateKeyFile, text, ...(gitignored ? { gitignored } : {}) };
  },
});

async function askDestination(label: string): Promise<'file' | 'clipboard'> {
  const picked = await vscode.window.showQuickPick(
    [
      { label: '$(new-file) Save as a dotenv File…', value: 'file' as const, detail: 'In the workspace; your program or its run command loads it (one line per language follows).' },
      { label: '$(clippy) Copy to the Clipboard', value: 'clipboard' as const, detail: 'The same lines, to paste into your own configuration.' },
    ],
    { title: `Connect Your Application to ${label}`, placeHolder: 'TPP_BASE_URL, TPP_V2_BASE_URL, TPP_PARTNER_ID and TPP_PRIVATE_KEY_FILE: where should they go?' },
  );
  if (!picked) throw new UserCancelled();
  return picked.value;
}

async function askDotenvFile(env: EnvironmentId, roots: readonly string[]): Promise<vscode.Uri> {
  if (!roots[0]) throw new Error('Open a folder first: the dotenv file is written into the workspace (or choose "Copy to the Clipboard").');
  const uri = await vscode.window.showSaveDialog({ title: 'Dotenv file of your application', defaultUri: vscode.Uri.file(join(roots[0], defaultDotenvName(env))), filters: { 'dotenv file': ['env'] }, saveLabel: 'Save' });
  if (!uri) throw new UserCancelled();
  return uri;
}

/**
 * In a git repository, the files not yet ignored go into its .gitignore: at once with `choice` true, never with false,
 * else after asking (non-blocking). Resolves to the lines added now.
 */
async function offerGitignore(files: readonly (string | undefined)[], choice: boolean | undefined): Promise<string | undefined> {
  const first = files.find((f): f is string => !!f);
  const root = first ? gitRootOf(dirname(first)) : undefined;
  if (!root || choice === false) return undefined;
  const inside = files.filter((f): f is string => !!f && !repoRelative(root, f).startsWith('..'));
  const path = join(root, '.gitignore');
  const addition = gitignoreAddition(existsSync(path) ? readFileSync(path, 'utf8') : '', inside.map((f) => repoRelative(root, f)));
  if (!addition) return undefined;
  const add = () => appendToFile(path, addition);
  if (choice === true) {
    await add();
    return addition;
  }
  void vscode.window.showInformationMessage('Your workspace is a git repository: keep the dotenv file and the private key out of it?', 'Add to .gitignore').then(async (picked) => {
    if (picked) await add().catch((err: unknown) => void vscode.window.showErrorMessage(`Cannot update ${path}: ${(err as Error).message}`));
  });
  return undefined;
}

/**
 * Shows the result: the dotenv file beside the editor (its comment lines say how each language loads it), or a message
 * for the clipboard; for Sandbox/Production a reminder that the administrator registers the key's public half.
 */
async function showResult(label: string, dotenvFile: string | undefined, keyFile: string, remote: boolean): Promise<void> {
  const key = vscode.workspace.asRelativePath(keyFile);
  const admin = remote ? ` The ${label} administrator must have registered the public half of ${key} under your Partner ID (Copy Public Key).` : '';
  if (dotenvFile) {
    await vscode.window.showTextDocument(vscode.Uri.file(dotenvFile), { preview: true, viewColumn: vscode.ViewColumn.Beside, preserveFocus: true });
    void vscode.window.showInformationMessage(`Wrote ${vscode.workspace.asRelativePath(dotenvFile)} for your application on ${label} (its comments say how to load it); the private key is in ${key}.${admin}`);
  } else {
    void vscode.window.showInformationMessage(`Copied the ${label} settings of your application (comment lines say how to load them); the private key is in ${key}.${admin}`);
  }
}
