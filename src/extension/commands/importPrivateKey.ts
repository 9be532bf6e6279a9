import * as vscode from 'vscode';
import { ENVIRONMENTS } from '../../core/environments';
import { importPrivateKeyPem, KeyError } from '../../core/jwt/keys';
import { signingKeyOf } from '../services/keyStore';
import { describeKey, labelOf, offerPublicKeyActions } from '../commandSupport/keys';
import { envTargetOf, fieldsArg, oneOfArg } from '../commandSupport/args';
import { environmentOf, uriArg } from '../commandSupport/pickEnvironment';
import { defineCommand, UserCancelled } from './registry';

/** Second argument of `tpp.importPrivateKey`: where to read from (skips the source prompt). */
export interface ImportOptions {
  readonly source?: 'file' | 'clipboard';
  /** What to do with an existing key instead of asking (see KeyCommandOptions.existing). */
  readonly existing?: 'rotate' | 'replace';
  /** The PEM file when `source` is `file` (skips the open dialog). */
  readonly uri?: vscode.Uri;
}

/** The {@link ImportOptions} of an argument, each field decoded; others read as not given. */
function importOptionsOf(v: unknown): ImportOptions {
  const o = fieldsArg(v);
  return { source: oneOfArg(o.source, ['file', 'clipboard'] as const), existing: oneOfArg(o.existing, ['rotate', 'replace'] as const), uri: uriArg(o.uri) };
}

/**
 * `tpp.importPrivateKey`: reads a PKCS#8 (or SEC1) PEM private key from a file or the clipboard, checks that
 * it is ECDSA on P-256, P-384 or P-521, and stores it in SecretStorage. The contents are never shown or
 * logged; a clipboard that held the key is cleared. An existing key is replaced or, for remote environments,
 * kept as the previous key of a rotation. Returns `{env, curve, fingerprint}`.
 */
export const importPrivateKey = defineCommand({
  id: 'tpp.importPrivateKey',
  needs: ['environments', 'log'],
  args: ([arg, opts]) => ({ target: envTargetOf(arg), options: importOptionsOf(opts) }),
  async run(services, { target, options }) {
    const { environments, log } = services;
    const env = await environmentOf(environments, target, 'Import Private Key');
    let source = options.source;
    if (!source) {
      const picked = await vscode.window.showQuickPick(
        [
          { label: '$(file) From a PEM File…', source: 'file' as const, detail: 'A PKCS#8 file starting with -----BEGIN PRIVATE KEY-----' },
          { label: '$(clippy) From the Clipboard', source: 'clipboard' as const, detail: 'The clipboard is cleared after a successful import' },
        ],
        { title: `Import Private Key for ${labelOf(env)}` },
      );
      if (!picked) throw new UserCancelled();
      source = picked.source;
    }
    let text: string;
    if (source === 'clipboard') {
      text = await vscode.env.clipboard.readText();
    } else {
      let uri = options.uri;
      if (!uri) {
        const picked = await vscode.window.showOpenDialog({ title: `Import Private Key for ${labelOf(env)}`, canSelectMany: false, filters: { 'PEM private key': ['pem', 'key', 'p8'], 'All files': ['*'] }, openLabel: 'Import' });
        if (!picked?.[0]) throw new UserCancelled();
        uri = picked[0];
      }
      try {
        text = Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8');
      } catch {
        throw new Error(`Cannot read ${vscode.workspace.asRelativePath(uri)}.`);
      }
    }
    let key;
    try {
      key = importPrivateKeyPem(text);
    } catch (err) {
      // KeyError messages never quote the input; anything else is reduced to a generic message.
      throw new Error(`Not imported (${source === 'clipboard' ? 'clipboard' : 'file'}): ${err instanceof KeyError ? err.message : 'the text is not a usable private key.'}`);
    }
    const existing = await environments.keys.get(env).catch(() => undefined);
    let previous;
    if (existing) {
      const remote = ENVIRONMENTS[env].remote && !existing.previous;
      const choice = options.existing === 'rotate' && remote ? 'Import as Rotation' : options.existing === 'replace' ? 'Replace' : await vscode.window.showWarningMessage(
        `${labelOf(env)} already has a key pair (${describeKey(existing)}).`,
        { modal: true, detail: remote ? 'Keep it as the previous key until the administrator registered the imported one (rotation), or replace it now.' : 'Replace deletes the current key.' },
        ...(remote ? ['Import as Rotation'] : []),
        'Replace',
      );
      if (choice === 'Import as Rotation') previous = signingKeyOf(existing);
      else if (choice !== 'Replace') throw new UserCancelled();
    }
    await environments.keys.set(env, previous ? { ...key, previous } : key);
    if (source === 'clipboard') await vscode.env.clipboard.writeText('');
    log.info(`Imported private key for ${labelOf(env)}: ${describeKey(key)}${previous ? ' (rotation pending)' : ''}`);
    offerPublicKeyActions(services, env, `Imported a ${key.curve} private key for ${labelOf(env)} (${describeKey(key)})${source === 'clipboard' ? '; the clipboard was cleared' : ''}.`);
    return { env, curve: key.curve, fingerprint: key.fingerprint };
  },
});
