// Write Program…'s programs (src/core/samples/program.ts): the code sample of a request that loads the dotenv file of
// Connect Your Application itself, so that `python3 tpp_sample.py` or `node tpp-sample.js` runs it as written: Node's
// own loader (process.loadEnvFile), Python's standard library (no package). Each is run here against a stand-in
// server that answers 201 and keeps what it was sent: the values reach the program from the file, quoted ones too.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { dotenvText } from '../../../src/core/connect';
import { dotenvValues, generateSample, MAX_PROGRAM_NAMES, programFileName, PROGRAM_INFO, programLanguageOf, SampleRefused, sampleRequestFor } from '../../../src/core/samples';
import { findTool } from '../../samples/harness';

const REQ = sampleRequestFor('createTireProtectionRegistration', {}, {}, { invoiceNumber: 'INV-1', storeNumber: 'S1' });

/** Runs `command args` in `cwd` with the environment `env` (nothing of this process's TPP_* settings). */
function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number; out: string }> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('TPP_')));
  return new Promise((done) => {
    execFile(command, args, { cwd, env: { ...base, ...env }, timeout: 30_000 }, (err, stdout, stderr) => done({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, out: stdout + stderr }));
  });
}

describe('Write Program…: programs that load the dotenv file themselves', () => {
  let server: http.Server;
  let base = '';
  const seen: { auth?: string; body: string }[] = [];
  let dir = '';

  before(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({ auth: req.headers.authorization, body });
        res.writeHead(201, { 'content-type': 'application/json' }).end('{"_id":"r-1"}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v3`;
    // Inside the repository, so that the Node program finds jose in its node_modules; a folder name with a space, so
    // that the key file's path is a quoted dotenv value.
    dir = mkdtempSync(join(resolve(__dirname, '../../..'), '.program-test-'));
    mkdirSync(join(dir, 'my app'));
    const key = join(dir, 'my app', 'tpp-local-key.pem');
    writeFileSync(key, generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }));
    writeFileSync(join(dir, 'tpp-local.env'), dotenvText({ env: 'local', v3BaseUrl: base, partnerId: 'local-program', privateKeyFile: key }, 'tpp-local.env'));
  });

  after(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('Python: standard-library lines load the file beside the program (no package), and it gets its 201', async function () {
    const python = findTool(['/usr/bin/python3', 'python3'], ['-c', 'import jwt, requests, cryptography']);
    if (!python) {
      console.log('      skipped: no python3 with PyJWT, cryptography and requests (test/samples/setup-toolchains.sh installs them)');
      return this.skip();
    }
    const text = generateSample(REQ, 'python', { dotenv: 'tpp-local.env' });
    assert.match(text, /^# Reads \(from tpp-local\.env beside this program, unless already set\):$/m);
    assert.doesNotMatch(text, /dotenv import|python-dotenv/, 'no package for the dotenv file');
    writeFileSync(join(dir, 'tpp_sample.py'), text);
    const before = seen.length;
    const r = await run(python, [join(dir, 'tpp_sample.py')], tmpdir()); // from another folder: the file is found beside the program
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /^HTTP 201$/m);
    assert.equal(seen.length, before + 1);
    const claims = JSON.parse(Buffer.from((seen.at(-1)!.auth ?? '').split('.')[1] ?? '', 'base64url').toString()) as { iss: string; aud: string };
    assert.deepEqual([claims.iss, claims.aud], ['local-program', base], 'iss and aud from the dotenv file');
    // A variable already set wins over the file, as with python-dotenv.
    const over = await run(python, [join(dir, 'tpp_sample.py')], dir, { TPP_PARTNER_ID: 'from-the-shell' });
    assert.equal(over.code, 0, over.out);
    assert.equal((JSON.parse(Buffer.from((seen.at(-1)!.auth ?? '').split('.')[1] ?? '', 'base64url').toString()) as { iss: string }).iss, 'from-the-shell');
  });

  it("Node.js: process.loadEnvFile loads the file beside the program, and it gets its 201", async function () {
    const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
    if (major < 20 || (major === 20 && minor < 12)) {
      console.log(`      skipped: Node.js ${process.versions.node} has no process.loadEnvFile (20.12 or later)`);
      return this.skip();
    }
    const text = generateSample(REQ, 'node', { dotenv: 'tpp-local.env' });
    assert.match(text, /process\.loadEnvFile\(join\(dirname\(process\.argv\[1\]\), "tpp-local\.env"\)\)/);
    writeFileSync(join(dir, 'tpp-sample.js'), text);
    const before = seen.length;
    const r = await run(process.execPath, [join(dir, 'tpp-sample.js')], tmpdir());
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /^HTTP 201$/m);
    assert.equal(seen.length, before + 1);
    const claims = JSON.parse(Buffer.from((seen.at(-1)!.auth ?? '').split('.')[1] ?? '', 'base64url').toString()) as { iss: string; aud: string };
    assert.deepEqual([claims.iss, claims.aud], ['local-program', base], 'iss and aud from the dotenv file');
  });

  it('the terminal command of each; a language whose program needs a project or a tool is refused by name', () => {
    assert.equal(PROGRAM_INFO.python.command('tpp_sample.py', 'linux'), 'python3 tpp_sample.py');
    assert.equal(PROGRAM_INFO.python.command('tpp_sample.py', 'win32'), 'python tpp_sample.py');
    assert.equal(PROGRAM_INFO.node.command('tpp-sample-2.js', 'darwin'), 'node tpp-sample-2.js');
    assert.equal(PROGRAM_INFO.python.command('my app.py', 'linux'), 'python3 "my app.py"');
    assert.deepEqual(['a.py', 'b.mjs', 'c.cjs', 'd.js', 'e.go'].map(programLanguageOf), ['python', 'node', 'node', 'node', undefined]);
    assert.throws(() => generateSample(REQ, 'java', { dotenv: 'tpp-local.env' }), (e: unknown) => e instanceof SampleRefused && /Java program .*Copy as Code/.test((e as Error).message));
    assert.doesNotMatch(generateSample(REQ, 'python'), /load_dotenv/, 'Copy as Code keeps the program that reads the environment only');
  });

  it('reads the values of a dotenv file as the programs do', () => {
    const text = dotenvText({ env: 'local', v3BaseUrl: 'http://127.0.0.1:1/api/v3', partnerId: 'local-1', privateKeyFile: '/home/a b/key.pem' }, 'tpp-local.env');
    assert.deepEqual(dotenvValues(text), { TPP_BASE_URL: 'http://127.0.0.1:1/api/v3', TPP_PARTNER_ID: 'local-1', TPP_PRIVATE_KEY_FILE: '/home/a b/key.pem' });
  });

  it('a new program never replaces a file: the next free name, the same name when it holds the same text, none after 99', () => {
    assert.equal(programFileName('python', () => false), 'tpp_sample.py');
    const taken = new Set(['tpp_sample.py', 'tpp_sample_2.py']);
    assert.equal(programFileName('python', (n) => taken.has(n)), 'tpp_sample_3.py');
    assert.equal(programFileName('node', (n) => n === 'tpp-sample.js'), 'tpp-sample-2.js');
    assert.equal(programFileName('python', (n) => taken.has(n), (n) => n === 'tpp_sample_2.py'), 'tpp_sample_2.py');
    assert.equal(programFileName('python', () => true), undefined);
    assert.equal(MAX_PROGRAM_NAMES, 99);
  });
});
