/**
 * `tpp record` (src/cli/commands/record.ts, docs/flows.md "Recording a flow"): an application's story, sent by a small
 * program of its own (a Node process with no toolkit code: its own JWTs, its own HTTP) to a Local sandbox, recorded
 * from that sandbox's journal, runs green with `tpp run` against a fresh sandbox, twice, and again after a reset; it
 * holds ?? contract for every partner endpoint, reads at least one id from an answer, and no token or key. Then the
 * command's refusals: an empty journal, an exchange a flow cannot send again, a file that exists, a log without bodies.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createPublicKey } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/cli';
import { parseFlow } from '../../../src/core/flows/parse';
import { generateKeyMaterial } from '../../../src/core/jwt/keys';
import { startSandbox, type SandboxHandle } from '../../../src/core/sandbox/server';

const PARTNER = 'APP-STORY';

/** The application: create, read, claim, cancel, cancel again; prints each status. Node built-ins only. */
const APP = `
import { createPrivateKey, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
const base = process.env.TPP_BASE_URL;
const iss = process.env.TPP_PARTNER_ID;
const key = createPrivateKey(readFileSync(process.env.TPP_PRIVATE_KEY_FILE, 'utf8'));
const part = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
function token() {
  const now = Math.floor(Date.now() / 1000);
  const signed = part({ alg: 'ES256', typ: 'JWT' }) + '.' + part({ iss, aud: base, iat: now, exp: now + 300 });
  return signed + '.' + sign('sha256', Buffer.from(signed), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url');
}
async function call(method, path, body) {
  const res = await fetch(base + path, { method, headers: { authorization: 'Bearer ' + token(), ...(body ? { 'content-type': 'application/json' } : {}) }, body: body && JSON.stringify(body) });
  const text = await res.text();
  console.log(method, path, res.status);
  return text ? JSON.parse(text) : undefined;
}
const today = new Date().toISOString().slice(0, 10);
const invoice = 'SHOP7-' + Date.now();
const tire = { make: 'Michelin', model: 'Defender2', size: '225/65R17' };
const { id } = await call('POST', '/tire-protection/registrations', { product_id: 'tp-road-hazard-36', invoiceNumber: invoice, enrollDate: today, customer: { name: 'Ada Lovelace', email: 'ada@example.com' }, vehicle: { year: 2021, make: 'Subaru', model: 'Outback' }, tires: [{ ...tire, retailPrice: 189.99 }, { ...tire, retailPrice: 189.99 }] });
await call('GET', '/tire-protection/registrations/' + id);
await call('POST', '/tire-protection/registrations/' + id + '/claims', { serviceInvoiceNumber: 'RO-' + invoice, serviceInvoiceDate: today, vehicleMileage: 20311, damageReason: 'Road hazard', damageDescription: 'Sidewall cut', authorizedAmount: 189.99, tires: [{ original: tire, replacement: tire }] });
await call('PATCH', '/tire-protection/registrations/' + id, { cancelledOn: new Date().toISOString() });
await call('PATCH', '/tire-protection/registrations/' + id, { cancelledOn: new Date().toISOString() });
`;

async function cli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } });
  return { code, stdout, stderr };
}

describe('tpp record: an application story from a sandbox journal, run again with tpp run', function () {
  this.timeout(60_000);
  let dir: string;
  let keyFile: string;
  let spki: string;
  let recorded: SandboxHandle;
  let fresh: SandboxHandle;
  const start = () => startSandbox({ partners: [{ id: PARTNER, spkiPem: spki }] });

  before(async () => {
    const key = await generateKeyMaterial('P-256');
    dir = mkdtempSync(join(tmpdir(), 'tpp-record-'));
    keyFile = join(dir, 'app.pem');
    writeFileSync(keyFile, key.pkcs8Pem);
    spki = createPublicKey(key.pkcs8Pem).export({ type: 'spki', format: 'pem' }).toString();
    [recorded, fresh] = await Promise.all([start(), start()]);
    writeFileSync(join(dir, 'app.mjs'), APP);
    const env = { ...process.env, TPP_BASE_URL: recorded.v3BaseUrl, TPP_PARTNER_ID: PARTNER, TPP_PRIVATE_KEY_FILE: keyFile };
    // Its own process, as the integrator's application runs (the sandbox answers from this process's event loop).
    const app = await new Promise<{ status: number | null; out: string }>((resolve) => {
      const child = spawn(process.execPath, [join(dir, 'app.mjs')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
      child.on('close', (status) => resolve({ status, out }));
    });
    assert.equal(app.status, 0, app.out);
    assert.deepEqual(app.out.trim().split('\n').map((l) => l.split(' ').pop()), ['201', '200', '201', '204', '409'], app.out);
  });
  after(async () => {
    await Promise.all([recorded?.close(), fresh?.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  const run = (file: string, sb: SandboxHandle) => cli('run', file, '--base-url', sb.v3BaseUrl, '--iss', PARTNER, '--key', keyFile);

  it('records the story and the flow runs green on a fresh sandbox, twice, and after a reset', async () => {
    const out = join(dir, 'flows', 'story.http');
    const r = await cli('record', '--sandbox', recorded.origin, '--out', out);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^Recorded 5 requests into .*story\.http: 5 checked with \?\? contract, 4 values read from earlier answers, variables run, invoice, enrollDate, serviceInvoice, cancelledOn\.\nRun it: tpp run .*story\.http --env local\n$/);
    const text = readFileSync(out, 'utf8');
    const flow = parseFlow(text, out);
    assert.deepEqual(flow.problems, []);
    assert.equal(flow.requests.length, 5);
    assert.ok(flow.requests.every((q) => q.assertions.some((a) => a.subject.kind === 'contract')), 'every partner endpoint holds ?? contract');
    assert.ok(flow.requests.some((q) => /\{\{registration\.response\.body\.\$\.id\}\}/.test(q.url)), 'a reference to an answer');
    assert.doesNotMatch(text, /eyJ|Bearer|authorization|PRIVATE KEY|BEGIN|\[masked/i, 'no token or key material');
    // The requests carry a new invoice number on each run; a `# Recorded answer` comment quotes the answer as it was.
    const sent = text.split('\n').filter((l) => !l.startsWith('#')).join('\n');
    assert.doesNotMatch(sent, /SHOP7-\d/, 'the invoice number is new on each run');
    assert.match(text, /^# Recorded answer 409: .*is already cancelled/m, 'the refusal is quoted as it was recorded');
    assert.ok(flow.requests.every((q) => q.url.startsWith('{{baseUrl}}/')), 'no literal host');

    for (const [what, sb] of [['a fresh sandbox', fresh], ['the same sandbox again', fresh]] as const) {
      const res = await run(out, sb);
      assert.equal(res.code, 0, `${what}:\n${res.stdout}${res.stderr}`);
      assert.match(res.stdout, /5 passed/);
    }
    const reset = await fetch(`${fresh.origin}/__tpp/reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(reset.status, 200);
    const again = await run(out, fresh);
    assert.equal(again.code, 0, `after a reset:\n${again.stdout}${again.stderr}`);
  });

  it('keeps a file that exists unless --force, and writes to stdout without --out', async () => {
    const out = join(dir, 'kept.http');
    writeFileSync(out, 'mine');
    const kept = await cli('record', '--sandbox', recorded.v3BaseUrl, '--out', out);
    assert.equal(kept.code, 2);
    assert.match(kept.stderr, /kept\.http exists: choose another --out, or --force to replace it/);
    assert.equal(readFileSync(out, 'utf8'), 'mine');
    assert.equal((await cli('record', '--sandbox', recorded.v3BaseUrl, '--out', out, '--force')).code, 0);
    assert.match(readFileSync(out, 'utf8'), /^# Recorded by tpp record/);
    const stdout = await cli('record', '--sandbox', recorded.origin);
    assert.equal(stdout.code, 0);
    assert.match(stdout.stdout, /^# Recorded by tpp record from the journal of tpp sandbox at http:\/\/127\.0\.0\.1:\d+ \(Local\):/);
  });

  it('passes --partner, --since and --path to the journal; exit 2 when nothing matches', async () => {
    const path = await cli('record', '--sandbox', recorded.origin, '--path', '/api/v3/tire-protection/registrations/*/claims', '--partner', PARTNER);
    assert.equal(path.code, 0, path.stderr);
    assert.equal(parseFlow(path.stdout, 'x.http').requests.length, 1);
    assert.match(path.stdout, /^@serviceInvoice = RO-\{\{run\}\}$/m);
    const later = await cli('record', '--sandbox', recorded.origin, '--since', '2999-01-01T00:00:00Z');
    assert.equal(later.code, 2);
    assert.match(later.stderr, /the journal of http:\/\/127\.0\.0\.1:\d+ holds no partner request matching --since 2999-01-01T00:00:00Z: nothing to record\./);
    const other = await cli('record', '--sandbox', recorded.origin, '--partner', 'SOMEONE-ELSE');
    assert.equal(other.code, 2);
    const bad = await cli('record', '--sandbox', recorded.origin, '--since', 'yesterday');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /answered 400 to the journal read: .*query\.since/);
  });

  it('refuses by name an exchange a flow cannot send again, and leaves it out only with --skip-refused', async () => {
    const sb = await start();
    try {
      const res = await fetch(`${sb.v3BaseUrl}/verify-token`, { headers: { authorization: 'Bearer not-a-token' } });
      assert.equal(res.status, 401);
      const r = await cli('record', '--sandbox', sb.origin);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /^tpp record: 1 exchange cannot be sent again by a flow:\n {2}#1 GET \/api\/v3\/verify-token → 401 at \S+: was refused with 401: the runner signs every request/);
      assert.match(r.stderr, /--skip-refused to leave them out/);
      const skipped = await cli('record', '--sandbox', sb.origin, '--skip-refused');
      assert.equal(skipped.code, 2, 'nothing else to record');
      assert.match(skipped.stderr, /Nothing to record: no exchange can be sent again by a flow\./);
    } finally {
      await sb.close();
    }
  });

  it('says when no sandbox answers at --sandbox', async () => {
    // A port that was free a moment ago: nothing listens there now.
    const server = (await import('node:net')).createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    await new Promise<void>((r) => server.close(() => r()));
    const r = await cli('record', '--sandbox', `http://127.0.0.1:${port}`);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /cannot read the journal of http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\): is tpp sandbox running there\?/);
  });

  it('reads the journal of a sandbox with an admin token with --admin-token or TPP_ADMIN_TOKEN, as tpp sandbox takes it', async () => {
    const token = 'admin-token-of-the-test-0123456789';
    const sb = await startSandbox({ partners: [{ id: PARTNER, spkiPem: spki }], admin: { token } });
    const before = process.env.TPP_ADMIN_TOKEN;
    try {
      delete process.env.TPP_ADMIN_TOKEN;
      const without = await cli('record', '--sandbox', sb.origin);
      assert.equal(without.code, 2);
      // Both ways on: the token of a tpp sandbox, or the editor's Local sandbox's (docs/testing-your-application.md, Security).
      assert.match(without.stderr, /refused the journal read \(401\): no admin token was sent\. Give the sandbox's admin token with --admin-token or TPP_ADMIN_TOKEN; for the editor's Local sandbox, run 'Tire Protection: Copy Local Control Token' in VS Code/);
      const empty = await cli('record', '--sandbox', sb.origin, '--admin-token', token);
      assert.equal(empty.code, 2);
      assert.match(empty.stderr, /holds no partner request: nothing to record/);
      process.env.TPP_ADMIN_TOKEN = token;
      const fromEnv = await cli('record', '--sandbox', sb.origin);
      assert.equal(fromEnv.code, 2);
      assert.match(fromEnv.stderr, /holds no partner request: nothing to record/, 'the token from TPP_ADMIN_TOKEN');
      const wrong = await cli('record', '--sandbox', sb.origin, '--admin-token', 'not-the-token-0123456789');
      assert.match(wrong.stderr, /refused the journal read \(401\): the admin token sent \(--admin-token\) is not this sandbox's\./, '--admin-token wins over the variable');
    } finally {
      if (before === undefined) delete process.env.TPP_ADMIN_TOKEN;
      else process.env.TPP_ADMIN_TOKEN = before;
      await sb.close();
    }
  });

  it('records a tpp proxy --log json file: reads as they are, writes refused for the bodies its lines do not keep', async () => {
    const log = join(dir, 'proxy.log');
    const line = (method: string, path: string, status: number) => JSON.stringify({ time: '2025-06-10T12:00:00.000Z', environment: 'sandbox', kind: 'request', method, path, status, ms: 12, partner: PARTNER, diagnosis: [] });
    writeFileSync(log, ['http://127.0.0.1:8787/api/v3', line('GET', '/api/v3/verify-token', 200), line('GET', '/api/v3/tire-protection/registrations?page=1', 200)].join('\n'));
    const reads = await cli('record', log);
    assert.equal(reads.code, 0, reads.stderr);
    const flow = parseFlow(reads.stdout, 'p.http');
    assert.deepEqual(flow.problems, []);
    assert.deepEqual(flow.requests.map((q) => q.url), ['{{baseUrl}}/verify-token', '{{baseUrl}}/tire-protection/registrations?page=1']);
    assert.match(reads.stdout, /^# Recorded by tpp record from the log proxy\.log \(Sandbox\):/);
    assert.match(reads.stdout, /--env sandbox/);
    writeFileSync(log, line('POST', '/api/v3/tire-protection/registrations', 201));
    const write = await cli('record', log);
    assert.equal(write.code, 2);
    assert.match(write.stderr, /#1 POST \/api\/v3\/tire-protection\/registrations → 201 at \S+: its body is not in the record whole \(the lines of tpp proxy --log json and tpp sandbox --log json keep no bodies/);
    writeFileSync(log, 'not json\n');
    const broken = await cli('record', log);
    assert.equal(broken.code, 2);
    assert.match(broken.stderr, /proxy\.log:1: not a JSON line/);
    assert.equal(existsSync(join(dir, 'p.http')), false);
  });
});
