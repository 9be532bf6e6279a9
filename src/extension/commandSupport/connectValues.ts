import * as vscode from 'vscode';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultKeyFileName, pathTaken, writeNewFile } from '../../core/connect';
import { ENVIRONMENTS, type EnvironmentId } from '../../core/environments';
import { isCurve, type Curve } from '../../core/jwt/algorithms';
import { importPrivateKeyPem, KeyError } from '../../core/jwt/keys';
import { signingKeyOf } from '../services/keyStore';
import { audienceOf } from '../services/jwtService';
import type { Services } from '../container';

/** What the values of Connect Your Application are read from. */
type ConnectServices = Pick<Services, 'localSandbox' | 'keys' | 'settings'>;
import { UserCancelled } from '../services/userCancelled';
import { pickKeyFile } from './keyFile';
import { fieldsArg, flagArg, oneOfArg } from './args';
import { uriArg } from './pickEnvironment';

/** Second argument of `tpp.connectApplication`: answers given in advance (tests, other commands); the rest is asked. */
export interface ConnectOptions {
  /** Where the dotenv text goes. */
  readonly destination?: 'file' | 'clipboard';
  /** The dotenv file (destination 'file'); must be inside the workspace. */
  readonly file?: vscode.Uri;
  /** Replace an existing dotenv file or Local key file without asking (the caller asked already). */
  readonly overwrite?: boolean;
  /** Sandbox/Production: generate a new key pair into `keyFile`, or use the application's existing PEM `keyFile`. */
  readonly keySource?: 'generate' | 'existing';
  /** Sandbox/Production: the application's private key file (see keySource). */
  readonly keyFile?: vscode.Uri;
  /** Curve of a generated key; what to do with a key the editor has already (see Generate Key Pair, Import Private Key). */
  readonly curve?: Curve;
  readonly existing?: 'rotate' | 'replace';
  /** Add the files to the git repository's .gitignore without asking (true) or never (false). */
  readonly gitignore?: boolean;
  /** Open the page on loading the file (default true). */
  readonly show?: boolean;
}

/** The {@link ConnectOptions} of an argument, each field decoded; others read as not given. */
export function connectOptionsOf(v: unknown): ConnectOptions {
  const o = fieldsArg(v);
  return {
    destination: oneOfArg(o.destination, ['file', 'clipboard'] as const),
    file: uriArg(o.file),
    overwrite: flagArg(o.overwrite),
    keySource: oneOfArg(o.keySource, ['generate', 'existing'] as const),
    keyFile: uriArg(o.keyFile),
    curve: isCurve(o.curve) ? o.curve : undefined,
    existing: oneOfArg(o.existing, ['rotate', 'replace'] as const),
    gitignore: flagArg(o.gitignore),
    show: flagArg(o.show),
  };
}

/** Asks before replacing `path` unless `overwrite`; throws {@link UserCancelled} when the user keeps it. */
export async function confirmReplace(path: string, overwrite: boolean | undefined, what: string): Promise<void> {
  if (overwrite || !pathTaken(path)) return; // a dangling link counts: writing would refuse it
  const choice = await vscode.window.showWarningMessage(`${vscode.workspace.asRelativePath(path)} already exists.`, { modal: true, detail: `Replace it with ${what}?` }, 'Replace');
  if (choice !== 'Replace') throw new UserCancelled();
}

/**
 * Local: the sandbox's addresses (starting it when its port is 0), its Partner ID, and its throwaway key written for
 * the application as a PKCS#8 PEM file with mode 0600 in `dir` (a Local key pair is generated first when there is none).
 */
export async function localValues(services: ConnectServices, dir: string, o: ConnectOptions) {
  const sandbox = services.localSandbox;
  const addresses = sandbox.addresses ?? (await sandbox.ensureStarted());
  if (!(await services.keys.get('local'))) await vscode.commands.executeCommand('tpp.generateKeyPair', 'local', { curve: o.curve ?? 'P-256' });
  const rec = await services.keys.get('local');
  if (!rec) throw new Error('Local has no key pair: run "Tire Protection: Generate Key Pair…" for Local first.');
  const keyFile = join(dir, defaultKeyFileName('local'));
  await confirmReplace(keyFile, o.overwrite, "Local's private key");
  // Local's key is a throwaway of the embedded sandbox (docs/sandbox.md): the one key that may leave secret storage.
  // A failure is a FileWriteError naming the file and why.
  await writeNewFile(keyFile, signingKeyOf(rec).pkcs8Pem, 0o600, true);
  return { env: 'local' as const, v3BaseUrl: addresses.v3BaseUrl, v2BaseUrl: addresses.v2BaseUrl, partnerId: sandbox.partnerId, privateKeyFile: keyFile };
}

/**
 * Sandbox/Production: the addresses and Partner ID from the settings, and the application's key file, which is either
 * a new key pair generated into it (then stored, so that editor and application sign alike) or the application's
 * existing PEM (imported when the editor's key differs). The stored key is never written out.
 */
export async function remoteValues(services: ConnectServices, env: Exclude<EnvironmentId, 'local'>, near: vscode.Uri | undefined, o: ConnectOptions) {
  const label = ENVIRONMENTS[env].label;
  const remote = services.settings.remote(env);
  if (!remote?.baseUrl) throw new Error(`${label} has no base address yet: run "Tire Protection: Configure Environment…" for ${label} first.`);
  if (!remote.partnerId) throw new Error(`${label} has no Partner ID yet: enter the one the administrator returned (Configure Environment…).`);
  const source = o.keySource ?? (await askKeySource(label));
  let keyFile: string;
  if (source === 'generate') {
    const uri = o.keyFile ?? (await pickKeyFile(env, near));
    const made = await vscode.commands.executeCommand<{ keyFile?: string } | undefined>('tpp.generateKeyPair', env, { curve: o.curve, existing: o.existing, keyFile: uri, overwriteKeyFile: o.overwrite });
    if (!made?.keyFile) throw new UserCancelled();
    keyFile = made.keyFile;
  } else {
    const uri = o.keyFile ?? (await pickExisting(label));
    let fingerprint: string;
    try {
      fingerprint = importPrivateKeyPem(readFileSync(uri.fsPath, 'utf8')).fingerprint;
    } catch (err) {
      throw new Error(`${vscode.workspace.asRelativePath(uri)}: ${err instanceof KeyError ? err.message : `cannot read it (${(err as NodeJS.ErrnoException).code ?? 'error'})`}`);
    }
    const have = await services.keys.summary(env);
    const known = have && [have.signing.fingerprint, have.pending?.fingerprint].includes(fingerprint);
    if (!known && !(await vscode.commands.executeCommand('tpp.importPrivateKey', env, { source: 'file', uri, existing: o.existing }))) throw new UserCancelled();
    keyFile = uri.fsPath;
  }
  const v2 = services.settings.remoteExtras(env)?.v2BaseUrl;
  return { env, v3BaseUrl: audienceOf(remote.baseUrl), v2BaseUrl: v2 ? audienceOf(v2) : undefined, partnerId: remote.partnerId, privateKeyFile: keyFile };
}

async function askKeySource(label: string): Promise<'generate' | 'existing'> {
  const picked = await vscode.window.showQuickPick(
    [
      { label: '$(key) Generate a new key pair into a file…', source: 'generate' as const, detail: `For your application (PKCS#8 PEM, mode 0600) and the editor alike; then send its public key to the ${label} administrator.` },
      { label: "$(file) Use your application's existing private key file…", source: 'existing' as const, detail: `The PEM whose public key the administrator registered; imported into the editor when it has another key.` },
    ],
    { title: `Connect Your Application: the private key for ${label}`, placeHolder: 'The secret-storage copy of a key is never written out: the application needs its own file' },
  );
  if (!picked) throw new UserCancelled();
  return picked.source;
}

async function pickExisting(label: string): Promise<vscode.Uri> {
  const picked = await vscode.window.showOpenDialog({ title: `Your application's private key for ${label}`, canSelectMany: false, filters: { 'PEM private key': ['pem', 'key', 'p8'], 'All files': ['*'] }, openLabel: 'Use This Key' });
  if (!picked?.[0]) throw new UserCancelled();
  return picked[0];
}
