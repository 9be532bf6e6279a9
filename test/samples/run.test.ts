import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildGo, CLI, findTool, makePartner, prepareGo, removeDir, ROOT, runProgram, runSample, scratchDir, startSandbox, tpp, tppBinDir, type SampleRun, type TestPartner } from './harness';

// So that a sample works as printed (README, Code samples): the curl, Node and Python samples that `tpp code` prints are run, as an integrator would run them,
// against the Local sandbox (`tpp sandbox` from dist) for a create, a read and a list; each must succeed. Python is
// Debian's python3 with python3-jwt, python3-cryptography and python3-requests (installed by .ci/run); Node's jose is
// the project's own dependency. Go is built and run too where Debian's golang-go and golang-jwt are installed (golang-jwt
// 4.4.3 standing in for v5, which Debian does not package; the calls the sample makes are the same). No download.

const LANGS = {
  curl: { file: 'tpp-sample.sh', command: ['bash'] },
  node: { file: 'tpp-sample.js', command: [process.execPath] },
  python: { file: 'tpp_sample.py', command: [] as string[] },
  go: { file: 'main.go', command: [] as string[] },
} as const;
type Lang = keyof typeof LANGS;

describe('code samples run against the Local sandbox (curl, Node, Python; Go where Debian packages it)', function () {
  this.timeout(120000);
  let dir: string;
  let sandbox: { base: string; stop(): Promise<void> } | undefined;
  let partners: Record<string, TestPartner>;
  let pathWithTpp: string;
  let python: string;
  let goMissing: string | undefined;
  let builds = 0;

  before(async function () {
    if (!existsSync(CLI)) {
      console.log(`      skipped: ${CLI} is not built (npm run build; npm test builds first)`);
      this.skip();
    }
    const py = findTool(['/usr/bin/python3', 'python3'], ['-c', 'import jwt, requests, cryptography']);
    assert.ok(py, "no python3 with PyJWT, cryptography and requests: install Debian's python3-jwt python3-cryptography python3-requests (.ci/run does)");
    python = py;
    assert.ok(findTool(['curl'], ['--version']), 'curl is not installed');
    dir = scratchDir();
    partners = {
      p256: makePartner(dir, 'SAMPLES-P256', 'P-256'),
      p384: makePartner(dir, 'SAMPLES-P384', 'P-384'),
      p521: makePartner(dir, 'SAMPLES-P521', 'P-521'),
    };
    goMissing = prepareGo(dir);
    if (goMissing) console.log(`      note: the Go samples are not run: ${goMissing}`);
    sandbox = await startSandbox(Object.values(partners));
    pathWithTpp = `${tppBinDir(dir)}:${process.env.PATH ?? ''}`;
  });

  after(async () => {
    await sandbox?.stop();
    if (dir) removeDir(dir);
  });

  function run(lang: Lang, source: string, partner: TestPartner, extra: Record<string, string> = {}): SampleRun {
    const { file, command } = LANGS[lang];
    const env = { TPP_BASE_URL: sandbox!.base, TPP_PARTNER_ID: partner.id, TPP_PRIVATE_KEY_FILE: partner.privateKeyFile, PATH: pathWithTpp, ...extra };
    if (lang === 'go') {
      const buildDir = join(dir, `go-${builds++}`);
      return runProgram(buildGo(buildDir, source), [], buildDir, env);
    }
    return runSample(join(dir, lang), file, source, lang === 'python' ? [python] : command, env);
  }

  function ok(r: SampleRun, status: number): unknown {
    assert.equal(r.status, status, `expected HTTP ${status}; stdout: ${r.stdout}\nstderr: ${r.stderr}`);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.body);
  }

  /** A copy of the example registration with its own invoice number and a customer name full of quoting traps. */
  function registrationFile(lang: Lang): { file: string; invoice: string; name: string } {
    const value = JSON.parse(readFileSync(join(ROOT, 'examples/tire-protection-registration.json'), 'utf8')) as Record<string, unknown> & { customer: { name: string } };
    const invoice = `INV-SAMPLE-${lang.toUpperCase()}-${Date.now()}`;
    const name = `O'Kafor "Dan" \`tire\` \\ $HOME ${'"""'} 'single' Zoë ✓`;
    value.invoiceNumber = invoice;
    value.customer.name = name;
    const file = join(dir, `registration-${lang}.json`);
    writeFileSync(file, JSON.stringify(value, null, 2));
    return { file, invoice, name };
  }

  beforeEach(function () {
    if (goMissing && this.currentTest?.title.startsWith('go:')) {
      console.log(`      skipped: ${goMissing}`);
      this.skip();
    }
  });

  for (const lang of Object.keys(LANGS) as Lang[]) {
    it(`${lang}: create (from a payload file), read and list, each with a fresh ES256 token`, () => {
      const p = partners.p256!;
      const reg = registrationFile(lang);
      const created = ok(run(lang, tpp(['code', reg.file, '--lang', lang]).stdout, p), 201) as { id: string };
      assert.equal(typeof created.id, 'string');

      const read = ok(run(lang, tpp(['code', '--endpoint', 'getTireProtectionRegistration', '--lang', lang]).stdout, p, { TPP_REGISTRATION_ID: created.id }), 200) as { _id: string; invoiceNumber: string; customer: { name: string } };
      assert.equal(read._id, created.id);
      assert.equal(read.invoiceNumber, reg.invoice);
      // The body arrived byte for byte: quotes, backslashes, $, backticks and non-ASCII survived the language's literal.
      assert.equal(read.customer.name, reg.name);

      const list = ok(run(lang, tpp(['code', '--endpoint', 'listTireProtectionRegistrations', '--query', `invoiceNumber=${reg.invoice}`, '--lang', lang]).stdout, p), 200);
      assert.match(JSON.stringify(list), new RegExp(created.id));
    });

    it(`${lang}: the sample of a file with {{$timestamp}}-{{$randomInt}} in its invoice number creates a new registration on each run`, () => {
      // examples/tire-protection-registration.json as it is: the program generates the invoice number when it runs (a fixed one answers 409 the second time).
      const source = tpp(['code', join(ROOT, 'examples/tire-protection-registration.json'), '--lang', lang]).stdout;
      const first = ok(run(lang, source, partners.p256!), 201) as { id: string };
      const second = ok(run(lang, source, partners.p256!), 201) as { id: string };
      assert.notEqual(first.id, second.id);
    });

    it(`${lang}: chooses ES384 and ES512 from a P-384 and a P-521 key (the sandbox accepts both)`, () => {
      for (const p of [partners.p384!, partners.p521!]) ok(run(lang, tpp(['code', '--endpoint', 'listTireProtectionRegistrations', '--lang', lang]).stdout, p), 200);
    });

    it(`${lang}: prints the status and body of a failure and exits 1 (404 for an unknown registration)`, () => {
      const r = run(lang, tpp(['code', '--endpoint', 'getTireProtectionRegistration', '--param', 'id=000000000000000000000000', '--lang', lang]).stdout, partners.p256!);
      assert.equal(r.status, 404, r.stdout + r.stderr);
      assert.equal(r.code, 1);
    });
  }

  it('node: a claim whose file has no $registrationId reads TPP_REGISTRATION_ID', () => {
    const p = partners.p256!;
    const reg = registrationFile('node');
    const created = ok(run('node', tpp(['code', reg.file, '--lang', 'node']).stdout, p), 201) as { id: string };
    const claim = JSON.parse(readFileSync(join(ROOT, 'examples/tire-protection-claim.json'), 'utf8')) as Record<string, unknown>;
    delete claim.$registrationId;
    const file = join(dir, 'claim.json');
    writeFileSync(file, JSON.stringify(claim));
    const source = tpp(['code', file, '--lang', 'node']).stdout;
    assert.match(source, /TPP_REGISTRATION_ID/);
    ok(run('node', source, p, { TPP_REGISTRATION_ID: created.id }), 201);
  });
});
