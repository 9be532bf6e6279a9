/**
 * `tpp send` through runCli against the real Local sandbox: exit codes 0/1/2, `--json` as
 * Exchange objects with the token masked, flags from the environment, the examples of examples/.
 */
import * as assert from 'node:assert/strict';
import { createPublicKey } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runCli } from '../../../src/cli/cli';
import { runSendCommand } from '../../../src/cli/commands/send';
import type { Exchange } from '../../../src/core/exchange/types';
import { generateKeyMaterial, type KeyMaterial } from '../../../src/core/jwt/keys';
import { startSandbox, type SandboxHandle } from '../../../src/core/sandbox/server';

const PARTNER = 'P-SEND-1';

/** Runs `tpp` in-process and captures what it writes. */
async function cli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } });
  return { code, stdout, stderr };
}
const EXAMPLES = resolve(__dirname, '../../../examples');

describe('tpp send', function () {
  this.timeout(60_000);
  let sb: SandboxHandle;
  let key: KeyMaterial;
  let dir: string;
  let keyFile: string;
  const file = (name: string, value: unknown) => {
    const p = join(dir, name);
    writeFileSync(p, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
    return p;
  };
  const flags = () => ['--base-url', sb.v3BaseUrl, '--iss', PARTNER, '--key', keyFile];
  const registration = (invoice: string) => ({
    $schema: 'tpp://schemas/tire-protection-registration.json',
    product_id: 'TPP-STANDARD',
    invoiceNumber: invoice,
    enrollDate: '2025-03-01',
    customer: { name: 'Ada', email: 'ada@example.com' },
    vehicle: { year: 2021, make: 'Ford', model: 'F-150' },
    tires: [{ make: 'Michelin', model: 'Defender', size: '275/65R18', retailPrice: 199.99 }],
  });

  before(async () => {
    key = await generateKeyMaterial('P-384');
    dir = mkdtempSync(join(tmpdir(), 'tpp-send-'));
    keyFile = join(dir, 'key.pem');
    writeFileSync(keyFile, key.pkcs8Pem);
    const spkiPem = createPublicKey(key.pkcs8Pem).export({ type: 'spki', format: 'pem' }).toString();
    sb = await startSandbox({ partners: [{ id: PARTNER, spkiPem }] });
    process.env.TPP_CAPTURES_FILE = join(dir, 'captures.json');
  });
  after(async () => {
    delete process.env.TPP_CAPTURES_FILE;
    await sb?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends a registration (exit 0) and prints status, time and the answer', async () => {
    const r = await cli('send', file('reg.json', registration('SEND-1')), ...flags());
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /✔ .*reg\.json → POST http:\/\/127\.0\.0\.1:\d+\/api\/v3\/tire-protection\/registrations → 201 Created · \d+ ms · 1 attempt/);
    assert.match(r.stdout, /\{"id":"[^"]+"\}/);
  });

  it('exit 1 on a 4xx with the status, its meaning in the spec and the server message; files after it are still sent', async () => {
    const dup = file('dup.json', registration('SEND-2'));
    const other = file('other.json', registration('SEND-3'));
    const r = await cli('send', dup, dup, other, ...flags());
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /✘ .*dup\.json → POST .* → 409 Conflict/);
    assert.match(r.stdout, /State conflict/);
    assert.match(r.stdout, /Server said: A registration with invoiceNumber SEND-2 .*already exists/);
    assert.match(r.stdout, /✔ .*other\.json/);
    assert.match(r.stdout, /2 of 3 answered 2xx/);
  });

  it('exit 1 with the field problems of a 400', async () => {
    const claimFor = (id: string) => ({ $schema: 'tpp://schemas/tire-protection-claim.json', $registrationId: id, serviceInvoiceNumber: 'RO-1', tires: [{ original: { make: 'M', model: 'X', size: '1' } }] });
    const r = await cli('send', file('claim-404.json', claimFor('nope')), ...flags());
    assert.equal(r.code, 1);
    assert.match(r.stdout, /404 Not Found/);
    const bad = file('bad.json', { ...registration('SEND-4'), tires: Array.from({ length: 1001 }, () => registration('x').tires[0]) });
    const b = await cli('send', bad, ...flags());
    assert.equal(b.code, 1, b.stdout + b.stderr);
    assert.match(b.stdout, /400 Bad Request/);
    assert.match(b.stdout, /tires: /);
  });

  it('--json prints one Exchange per request, token masked; the recovered marker is absent without faults', async () => {
    const r = await cli('send', file('j1.json', registration('SEND-J1')), file('j2.json', registration('SEND-J1')), ...flags(), '--json');
    assert.equal(r.code, 1);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Exchange);
    assert.equal(lines.length, 2);
    const [a, b] = lines as [Exchange, Exchange];
    assert.equal(a.source, 'client');
    assert.equal(a.endpoint?.id, 'createTireProtectionRegistration');
    assert.equal(a.partner, PARTNER);
    assert.equal(a.request.method, 'POST');
    assert.equal(a.request.headers?.authorization, 'Bearer [masked]');
    assert.equal(JSON.parse(a.request.body ?? '{}').invoiceNumber, 'SEND-J1');
    assert.equal(JSON.parse(a.request.body ?? '{}').$schema, undefined, 'meta properties are not sent');
    assert.equal(a.response?.status, 201);
    assert.equal(b.response?.status, 409);
    assert.ok(b.diagnosis?.some((d) => d.rule === 'status' && /already exists/.test(d.message)));
    assert.doesNotMatch(r.stdout, /eyJ[A-Za-z0-9_-]{20,}\./, 'a token leaked');
    assert.equal(a.recovered, undefined);
  });

  it('takes the flags from TPP_BASE_URL, TPP_PARTNER_ID and TPP_PRIVATE_KEY_FILE', async () => {
    let stdout = '';
    const io = { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: () => true } };
    const code = await runSendCommand([file('env.json', registration('SEND-ENV'))], io, { TPP_BASE_URL: sb.v3BaseUrl, TPP_PARTNER_ID: PARTNER, TPP_PRIVATE_KEY_FILE: keyFile });
    assert.equal(code, 0, stdout);
  });

  it('exit 2: usage, unreadable file, not JSON, no kind, no record named, unreachable server', async () => {
    const usage = await cli('send', file('u.json', registration('U')));
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /missing --base-url \(or TPP_BASE_URL\), --iss \(or TPP_PARTNER_ID\), --key \(or TPP_PRIVATE_KEY_FILE\)/);
    assert.equal((await cli('send', ...flags())).code, 2, 'no file');
    assert.equal((await cli('send', file('u2.json', registration('U2')), '--base-url', 'http://127.0.0.1:1/api', '--iss', 'x', '--key', keyFile)).code, 2, 'base without /api/v3');
    const cases: [string, RegExp][] = [
      [join(dir, 'missing.json'), /cannot read .*missing\.json \(ENOENT\)/],
      [file('notjson.json', '{ nope'), /notjson\.json is not valid JSON/],
      [file('nokind.json', { invoiceNumber: 'x' }), /has no "\$schema"/],
      [file('noreg.json', { $schema: 'tpp://schemas/tire-protection-claim.json', serviceInvoiceNumber: 'RO-2', tires: [] }), /does not say which tire-protection registration it is for: add "\$registrationId"/],
    ];
    for (const [path, message] of cases) {
      const r = await cli('send', path, ...flags());
      assert.equal(r.code, 2, path);
      assert.match(r.stdout + r.stderr, message);
    }
    const down = await cli('send', file('d1.json', registration('D1')), file('d2.json', registration('D2')), '--base-url', 'http://127.0.0.1:1/api/v3', '--iss', PARTNER, '--key', keyFile);
    assert.equal(down.code, 2);
    assert.match(down.stdout, /ECONNREFUSED/);
    assert.match(down.stdout, /Not sent: d2\.json: the server did not answer an earlier request/);
  });

  it('a file named *.<kind>.tpp.json needs no $schema', async () => {
    const { $schema: _drop, ...body } = registration('SEND-NAMED');
    const r = await cli('send', file('named.tire-protection-registration.tpp.json', body), ...flags());
    assert.equal(r.code, 0, r.stdout);
  });

  it('sends every example three times in a row, in one run each: 14 of 14 answer 2xx every time (examples that can be sent again and again)', async () => {
    // examples/*.json in alphabetical order: cancellation.json first; the run sends the files that make a capture
    // ({{lastRegistration.id}}) before those using it, and cancellations after the other users.
    const files = readdirSync(EXAMPLES).filter((f) => f.endsWith('.json')).sort().map((f) => join(EXAMPLES, f));
    for (let run = 1; run <= 3; run++) {
      const r = await cli('send', ...files, ...flags(), '--json');
      const statuses = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Exchange).map((e) => `${e.title} ${e.response?.status}`);
      assert.equal(r.code, 0, `run ${run}: ${statuses.join(', ')}\n${r.stderr}`);
      assert.equal(statuses.length, files.length);
      const order = statuses.map((s) => s.split(' ')[1]);
      assert.ok(order.indexOf('tire-protection-registration.json') < order.indexOf('tire-protection-claim.json'), order.join());
      assert.ok(order.indexOf('tire-protection-claim.json') < order.indexOf('cancellation.json'), order.join());
    }
  });

  it('keeps captures between runs (per base address and Partner ID): a claim file sent alone after its registration', async () => {
    const reg = join(EXAMPLES, 'tire-protection-registration.json');
    const claim = join(EXAMPLES, 'tire-protection-claim.json');
    for (let i = 0; i < 3; i++) {
      const sent = await cli('send', reg, ...flags());
      assert.equal(sent.code, 0, sent.stdout + sent.stderr);
      const r = await cli('send', claim, ...flags());
      assert.equal(r.code, 0, r.stdout + r.stderr);
    }
    const other = await cli('send', claim, '--base-url', sb.v3BaseUrl, '--iss', 'P-OTHER', '--key', keyFile);
    assert.equal(other.code, 2, 'another Partner ID has no captures: nothing is sent');
    assert.match(other.stderr + other.stdout, /lastRegistration/);
    const none = await cli('send', claim, ...flags(), '--captures', 'none');
    assert.equal(none.code, 2, '--captures none starts empty');
  });
});
