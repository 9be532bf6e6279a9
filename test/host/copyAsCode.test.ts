// Copy as Code… (issue 13, item 2) in a real extension host: from a payload file's Uri (explorer, editor title), an
// Exchange (Integration Log, response view) and a registration row, in the language given; the copied program reads
// TPP_BASE_URL, TPP_PARTNER_ID and TPP_PRIVATE_KEY_FILE and holds no token and no key. Running the programs is the
// samples tier's job (test/samples/).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Exchange } from '../../src/core/exchange/types';
import { activateExtension } from '../shared/extension';

const cmd = <T = unknown>(id: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(id, ...args);
const folder = () => vscode.workspace.workspaceFolders![0]!.uri;

function noSecrets(text: string): void {
  assert.doesNotMatch(text, /eyJ[\w-]+\.eyJ/, 'no token in the copied program');
  assert.doesNotMatch(text, /-----BEGIN [A-Z ]*PRIVATE KEY-----/, 'no key in the copied program');
  for (const v of ['TPP_BASE_URL', 'TPP_PARTNER_ID', 'TPP_PRIVATE_KEY_FILE']) assert.ok(text.includes(v), `reads ${v}`);
}

describe('Copy as Code…', function () {
  this.timeout(60_000);
  before(async () => {
    await activateExtension();
  });
  after(async () => {
    await vscode.env.clipboard.writeText('');
  });

  it('copies a payload file (by its Uri) as a Node program that mints its own ES256/384/512 token', async () => {
    const uri = vscode.Uri.joinPath(folder(), 'copy-as-code.tire-protection-registration.json');
    const example = JSON.parse(Buffer.from(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder(), 'tire-protection-registration.json'))).toString('utf8')) as Record<string, unknown>;
    await vscode.workspace.fs.writeFile(uri, Buffer.from(JSON.stringify({ ...example, invoiceNumber: 'INV-COPY-AS-CODE' }, null, 2)));
    try {
      const r = await cmd<{ language: string; title: string }>('tpp.copyAsCode', uri, 'node');
      assert.equal(r.language, 'node');
      assert.equal(r.title, 'POST /tire-protection/registrations (createTireProtectionRegistration)');
      const text = await vscode.env.clipboard.readText();
      noSecrets(text);
      assert.match(text, /"invoiceNumber": "INV-COPY-AS-CODE"/);
      assert.match(text, /prime256v1: 'ES256', secp384r1: 'ES384', secp521r1: 'ES512'/);
      assert.doesNotMatch(text, /\$schema/, 'meta properties are not sent');
    } finally {
      await vscode.workspace.fs.delete(uri);
    }
  });

  it('copies a payload file with its {{variables}} resolved for the active environment, as a send would', async () => {
    const uri = vscode.Uri.joinPath(folder(), 'tire-protection-registration.json');
    const text0 = Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8');
    assert.match(text0, /\{\{\$/, 'the example uses dynamic variables');
    await cmd('tpp.copyAsCode', uri, 'curl');
    const text = await vscode.env.clipboard.readText();
    noSecrets(text);
    assert.doesNotMatch(text, /\{\{/, 'no {{variable}} is left in the program');
  });

  it('copies an Exchange (an Integration Log entry) and a row holding one, with its path and query', async () => {
    const exchange: Exchange = {
      id: 'x1',
      env: 'local',
      source: 'sandbox-log',
      time: new Date().toISOString(),
      request: { method: 'GET', url: 'http://127.0.0.1:9/api/v3/tire-protection/registrations?invoiceNumber=INV-42' },
      response: { status: 401 },
      durationMs: 3,
      attempts: 1,
    };
    for (const target of [exchange, { exchange }]) {
      await vscode.env.clipboard.writeText('');
      const r = await cmd<{ title: string }>('tpp.copyAsCode', target, 'python');
      assert.equal(r.title, 'GET /tire-protection/registrations (listTireProtectionRegistrations)');
      const text = await vscode.env.clipboard.readText();
      noSecrets(text);
      assert.match(text, /base_url \+ "\/tire-protection\/registrations\?invoiceNumber=INV-42"/);
      assert.doesNotMatch(text, /127\.0\.0\.1:9/, 'the base address comes from TPP_BASE_URL, not the log');
    }
  });

  it('tpp.copyAsCurl still copies the curl case: a script whose token comes from tpp jwt mint at run time', async () => {
    await cmd('tpp.copyAsCurl', { kind: 'registration', env: 'local', id: 'REG/1' });
    const text = await vscode.env.clipboard.readText();
    noSecrets(text);
    assert.match(text, /^#!\/usr\/bin\/env bash\n/);
    assert.match(text, /tpp jwt mint --key "\$TPP_PRIVATE_KEY_FILE" --iss "\$TPP_PARTNER_ID" --aud "\$\{TPP_AUDIENCE:-\$TPP_BASE_URL\}"/);
    assert.match(text, /"\$TPP_BASE_URL"\/tire-protection\/registrations\/REG%2F1/);
  });

  it('refuses a file that is no payload, with the reason, and copies nothing', async () => {
    const uri = vscode.Uri.joinPath(folder(), 'copy-as-code-not-a-payload.json');
    await vscode.workspace.fs.writeFile(uri, Buffer.from('{"hello": 1}'));
    try {
      await vscode.env.clipboard.writeText('unchanged');
      assert.equal(await cmd('tpp.copyAsCode', uri, 'go'), undefined);
      assert.equal(await vscode.env.clipboard.readText(), 'unchanged');
    } finally {
      await vscode.workspace.fs.delete(uri);
    }
  });
});
