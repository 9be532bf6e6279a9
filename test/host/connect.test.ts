import * as assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { importPrivateKeyPem } from '../../src/core/jwt/keys';
import type { ConnectResult } from '../../src/extension/commands/connectApplication';
import { activateExtension } from '../shared/extension';

const cmd = <T = unknown>(id: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(id, ...args);
const config = (section: string) => vscode.workspace.getConfiguration(section);
/** The variables of a dotenv text (its uncommented KEY=value lines; values as written, no quotes here). */
const varsOf = (text: string) => Object.fromEntries(text.split('\n').filter((l) => /^TPP_\w+=/.test(l)).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
const fingerprintOfFile = (file: string) => importPrivateKeyPem(fs.readFileSync(file, 'utf8')).fingerprint;

/**
 * Connect Your Application…: the application gets exactly what the code samples read, as a dotenv file in the
 * workspace (or on the clipboard); Local's throwaway key is written beside it with mode 0600; Sandbox/Production get a
 * key generated into a file or the application's own PEM, and the editor signs with the same key.
 */
describe('Connect Your Application (tpp.connectApplication)', function () {
  this.timeout(90_000);
  const written: string[] = [];
  let root: string;
  before(async () => {
    await activateExtension();
    root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath as string;
    assert.ok(root, 'the host tier opens a workspace folder');
  });
  after(async () => {
    for (const f of written) fs.rmSync(f, { recursive: true, force: true });
    await (await activateExtension()).environments.keys.delete('sandbox'); // the suites after this one start without a Sandbox key
    await config('tpp.sandbox').update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
    await config('tpp.sandbox').update('partnerId', undefined, vscode.ConfigurationTarget.Global);
  });
  const inWorkspace = (name: string) => {
    const f = path.join(root, name);
    written.push(f);
    return f;
  };

  it('Local: a dotenv file with the Local addresses, Partner ID and key file; the key beside it, mode 0600; .gitignore in a repository', async () => {
    const api = await activateExtension();
    const file = inWorkspace('tpp-local.env');
    const keyFile = inWorkspace('tpp-local-key.pem');
    fs.mkdirSync(inWorkspace('.git'));
    inWorkspace('.gitignore');
    const r = await cmd<ConnectResult>('tpp.connectApplication', 'local', { destination: 'file', file: vscode.Uri.file(file), gitignore: true, show: false });
    assert.ok(r, 'the command finished');
    const target = await api.api.target('local');
    assert.deepEqual(varsOf(fs.readFileSync(file, 'utf8')), {
      TPP_BASE_URL: target.baseUrls.v3,
      TPP_V2_BASE_URL: target.baseUrls.v2,
      TPP_PARTNER_ID: api.localSandbox.partnerId,
      TPP_PRIVATE_KEY_FILE: keyFile,
    });
    if (process.platform !== 'win32') assert.equal(fs.statSync(keyFile).mode & 0o777, 0o600, 'the key file is readable by its owner only');
    assert.equal(fingerprintOfFile(keyFile), (await api.environments.keys.summary('local'))?.signing.fingerprint, 'the key the Local sandbox has registered');
    assert.match(fs.readFileSync(path.join(root, '.gitignore'), 'utf8'), /^\/tpp-local\.env\n\/tpp-local-key\.pem$/m);

    fs.writeFileSync(file, 'MINE=1\n');
    const again = await cmd('tpp.connectApplication', 'local', { destination: 'file', file: vscode.Uri.file(file), show: false });
    assert.equal(again, undefined, 'an existing file is not replaced without asking (the test host declines the question)');
    assert.equal(fs.readFileSync(file, 'utf8'), 'MINE=1\n');
  });

  it('a dotenv path outside the workspace is refused, nothing written; the clipboard gets the same lines', async () => {
    const outside = path.join(os.tmpdir(), `tpp-outside-${process.pid}.env`);
    assert.equal(await cmd('tpp.connectApplication', 'local', { destination: 'file', file: vscode.Uri.file(outside), show: false }), undefined);
    assert.equal(fs.existsSync(outside), false, 'nothing written outside the workspace');
    inWorkspace('tpp-local-key.pem');
    const r = await cmd<ConnectResult>('tpp.connectApplication', 'local', { destination: 'clipboard', overwrite: true, show: false });
    assert.equal(await vscode.env.clipboard.readText(), r?.text);
    assert.match(r?.text ?? '', /^TPP_PARTNER_ID=local-/m);
  });

  it('Sandbox: a key pair generated into a file (0600) that the editor signs with too; or the application’s own PEM, imported', async () => {
    const api = await activateExtension();
    await config('tpp.sandbox').update('baseUrl', 'https://sandbox.example.test/api/v3', vscode.ConfigurationTarget.Global);
    await config('tpp.sandbox').update('partnerId', 'P-CONNECT-1', vscode.ConfigurationTarget.Global);
    const file = inWorkspace('tpp-sandbox.env');
    const keyFile = inWorkspace('tpp-sandbox-key.pem');
    const r = await cmd<ConnectResult>('tpp.connectApplication', 'sandbox', { destination: 'file', file: vscode.Uri.file(file), keySource: 'generate', keyFile: vscode.Uri.file(keyFile), curve: 'P-256', existing: 'replace', gitignore: false, show: false });
    assert.ok(r, 'the command finished');
    assert.deepEqual(varsOf(fs.readFileSync(file, 'utf8')), { TPP_BASE_URL: 'https://sandbox.example.test/api/v3', TPP_PARTNER_ID: 'P-CONNECT-1', TPP_PRIVATE_KEY_FILE: keyFile });
    if (process.platform !== 'win32') assert.equal(fs.statSync(keyFile).mode & 0o777, 0o600);
    assert.equal(fingerprintOfFile(keyFile), (await api.environments.keys.summary('sandbox'))?.signing.fingerprint, 'the editor stored the same key');

    const own = inWorkspace('my-app.pem');
    const pem = generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    fs.writeFileSync(own, pem, { mode: 0o600 });
    const r2 = await cmd<ConnectResult>('tpp.connectApplication', 'sandbox', { destination: 'file', file: vscode.Uri.file(file), overwrite: true, keySource: 'existing', keyFile: vscode.Uri.file(own), existing: 'replace', gitignore: false, show: false });
    assert.equal(r2?.keyFile, own);
    assert.equal((await api.environments.keys.summary('sandbox'))?.signing.fingerprint, fingerprintOfFile(own), 'the application’s key was imported: editor and application sign alike');
    assert.match(fs.readFileSync(file, 'utf8'), new RegExp(`^TPP_PRIVATE_KEY_FILE=${own.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
  });

  it('Rotate Key… can keep a file of the new key for the application; the registered key signs until the rotation is confirmed', async () => {
    const api = await activateExtension();
    const before = (await api.environments.keys.summary('sandbox'))?.signing.fingerprint;
    assert.ok(before, 'Sandbox has a key from the test before');
    const next = inWorkspace('tpp-sandbox-next.pem');
    const r = await cmd<{ keyFile?: string; fingerprint: string }>('tpp.rotateKey', 'sandbox', { curve: 'P-256', keyFile: vscode.Uri.file(next) });
    assert.equal(r?.keyFile, next);
    if (process.platform !== 'win32') assert.equal(fs.statSync(next).mode & 0o777, 0o600);
    const s = await api.environments.keys.summary('sandbox');
    assert.equal(fingerprintOfFile(next), s?.pending?.fingerprint, 'the file holds the new key');
    assert.equal(s?.signing.fingerprint, before, 'requests stay signed with the registered key until Confirm Key Rotation');
    await cmd('tpp.cancelKeyRotation', 'sandbox', { confirmed: true });
  });
});
