import * as vscode from 'vscode';
import { defaultKeyFileName, FileExists, writeNewFile } from '../../core/connect';
import type { EnvironmentId } from '../../core/environments';
import type { KeyMaterial } from '../../core/jwt/keys';
import { UserCancelled } from '../services/userCancelled';
import { isCurve } from '../../core/jwt/algorithms';
import { fieldsArg, flagArg, oneOfArg } from './args';
import { labelOf, type KeyCommandOptions } from './keys';
import { uriArg } from './pickEnvironment';

/**
 * Options of Generate Key Pair and Rotate Key for the application's copy of a new key. Only at creation is the key
 * outside SecretStorage (in memory): a key that is stored is never written out for Sandbox or Production.
 */
export interface KeyFileOptions {
  /** Also write the new private key (PKCS#8 PEM, mode 0600) to this file, or 'ask' for the path (a save dialog). */
  readonly keyFile?: vscode.Uri | 'ask';
  /** Replace an existing file at `keyFile` without asking (callers that asked already, and tests). */
  readonly overwriteKeyFile?: boolean;
}

/** Asks whether to keep a file of the new key for the application too. Throws {@link UserCancelled}. */
export async function askKeyFile(env: EnvironmentId): Promise<KeyFileOptions['keyFile']> {
  const picked = await vscode.window.showQuickPick(
    [
      { label: '$(lock) Only in VS Code’s secret storage', detail: 'The editor signs its own requests; no file is written.', file: false },
      { label: '$(file) Also keep a file for your application…', detail: `The same private key as a PKCS#8 PEM file (readable by you only, mode 0600), so that your application signs with the key the ${labelOf(env)} administrator registers.`, file: true },
    ],
    { title: `New key pair for ${labelOf(env)}`, placeHolder: 'Where the private key is kept' },
  );
  if (!picked) throw new UserCancelled();
  return picked.file ? 'ask' : undefined;
}

/** The save dialog of a key file, in the workspace by default. Throws {@link UserCancelled}. */
export async function pickKeyFile(env: EnvironmentId, near?: vscode.Uri): Promise<vscode.Uri> {
  const folder = near ?? vscode.workspace.workspaceFolders?.[0]?.uri;
  const uri = await vscode.window.showSaveDialog({
    title: `Private key file of your application (${labelOf(env)})`,
    defaultUri: folder ? vscode.Uri.joinPath(folder, defaultKeyFileName(env)) : undefined,
    filters: { 'PEM private key': ['pem'] },
    saveLabel: 'Save Private Key',
  });
  if (!uri) throw new UserCancelled();
  return uri;
}

/**
 * Writes `key` as a PKCS#8 PEM file with mode 0600 where `options.keyFile` says (asking for the path when 'ask'),
 * asking before replacing an existing file. Resolves to the file's path, or undefined when no file was asked for.
 * Throws {@link UserCancelled} when the user declines, and a FileWriteError (core/connect) naming the file and why when
 * it cannot be written.
 */
export async function keepKeyFile(env: EnvironmentId, key: KeyMaterial, options: KeyFileOptions): Promise<string | undefined> {
  if (!options.keyFile) return undefined;
  const uri = options.keyFile === 'ask' ? await pickKeyFile(env) : options.keyFile;
  if (uri.scheme !== 'file') throw new Error(`A key file must be on this machine's disk (got ${uri.toString()}).`);
  const path = uri.fsPath;
  try {
    // The writer checks the path first: a directory or a link is refused by name before anyone is asked to replace it.
    await writeNewFile(path, key.pkcs8Pem, 0o600, options.overwriteKeyFile === true);
  } catch (err) {
    if (!(err instanceof FileExists)) throw err; // a FileWriteError naming the path and why
    const replace = await vscode.window.showWarningMessage(`${vscode.workspace.asRelativePath(path)} already exists.`, { modal: true, detail: 'Replace it with the new private key? The key it holds now is lost unless you kept another copy.' }, 'Replace');
    if (replace !== 'Replace') throw new UserCancelled();
    await writeNewFile(path, key.pkcs8Pem, 0o600, true);
  }
  return path;
}

/** What to do with a key the environment has already, as the key commands' options name it. */
const EXISTING = ['rotate', 'replace'] as const;

/** The options of Generate Key Pair and Rotate Key (their second argument), each field decoded; others read as not given. */
export function keyOptionsOf(v: unknown): KeyCommandOptions & KeyFileOptions {
  const o = fieldsArg(v);
  return {
    curve: isCurve(o.curve) ? o.curve : undefined,
    existing: oneOfArg(o.existing, EXISTING),
    keyFile: o.keyFile === 'ask' ? 'ask' : uriArg(o.keyFile),
    overwriteKeyFile: flagArg(o.overwriteKeyFile),
  };
}
