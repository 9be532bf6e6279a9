import { strict as assert } from 'node:assert';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConnectError, dotenvText, FileExists, gitignoreAddition, loadLines, outsideWorkspaceProblem, writeNewFile } from '../../../src/core/connect';

/**
 * Connect Your Application… / `tpp connect`: the dotenv file gives an application exactly what the code samples read
 * (TPP_BASE_URL, TPP_V2_BASE_URL, TPP_PARTNER_ID, TPP_PRIVATE_KEY_FILE), loads as written in bash and Node, never
 * lands outside the workspace, never overwrites, and a key file is readable by its owner only.
 */
describe('connect: the dotenv file of an application', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'tpp-connect-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const local = () => ({ env: 'local' as const, v3BaseUrl: 'http://127.0.0.1:28463/api/v3', v2BaseUrl: 'http://127.0.0.1:28463', partnerId: 'local-1a2b3c4d', privateKeyFile: join(dir, 'my app', 'key $HOME "x".pem') });

  /** The variables a shell sees after `set -a; . file`, and Node after `--env-file`. */
  function loaded(file: string): { bash: Record<string, string>; node?: Record<string, string> } {
    const names = ['TPP_BASE_URL', 'TPP_V2_BASE_URL', 'TPP_PARTNER_ID', 'TPP_PRIVATE_KEY_FILE', 'TPP_AUDIENCE'];
    const script = `set -a; . "$1"; set +a; node -e 'console.log(JSON.stringify(Object.fromEntries(${JSON.stringify(names)}.filter((n) => process.env[n] !== undefined).map((n) => [n, process.env[n]]))))'`;
    const bash = JSON.parse(execFileSync('bash', ['--norc', '--noprofile', '-c', script, 'bash', file], { env: { PATH: process.env.PATH ?? '' } }).toString()) as Record<string, string>;
    const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
    if (major < 20 || (major === 20 && minor < 6)) return { bash }; // --env-file is Node 20.6+
    const node = JSON.parse(execFileSync(process.execPath, [`--env-file=${file}`, '-e', `console.log(JSON.stringify(Object.fromEntries(${JSON.stringify(names)}.filter((n) => process.env[n] !== undefined).map((n) => [n, process.env[n]]))))`], { env: { PATH: process.env.PATH ?? '' } }).toString()) as Record<string, string>;
    return { bash, node };
  }

  it('names exactly the variables the samples read, and loads to the same values in bash (and Node)', () => {
    const v = local();
    const file = join(dir, 'tpp-local.env');
    writeFileSync(file, dotenvText(v, 'tpp-local.env'));
    assert.match(readFileSync(file, 'utf8'), /^# {3}Node\.js 20\.6\+: node --env-file=\.\/tpp-local\.env app\.js$/m, 'the file says how to load it');
    const want = { TPP_BASE_URL: v.v3BaseUrl, TPP_V2_BASE_URL: v.v2BaseUrl, TPP_PARTNER_ID: v.partnerId, TPP_PRIVATE_KEY_FILE: v.privateKeyFile };
    const got = loaded(file);
    assert.deepEqual(got.bash, want, 'a path with a space, $ and quotes survives; TPP_AUDIENCE stays unset (a comment)');
    if (got.node) assert.deepEqual(got.node, want);
    assert.match(dotenvText(v), /^# TPP_AUDIENCE=http:\/\/127\.0\.0\.1:28463\/api\/v3$/m, 'the proxy case is explained, commented out');
    assert.doesNotMatch(dotenvText(v), /PRIVATE KEY-----/);
  });

  it("a value with both ' and \" (or \\, $) is refused: the loaders would read it differently", () => {
    assert.throws(() => dotenvText({ ...local(), privateKeyFile: `it's "x".pem` }), /TPP_PRIVATE_KEY_FILE .* has both a ' and one of/);
    const file = join(dir, 'q.env');
    writeFileSync(file, dotenvText({ ...local(), privateKeyFile: "it's here.pem" }));
    assert.equal(loaded(file).bash.TPP_PRIVATE_KEY_FILE, "it's here.pem");
    assert.equal(loaded(file).node?.TPP_PRIVATE_KEY_FILE ?? "it's here.pem", "it's here.pem");
  });

  it('without a v2 address, no TPP_V2_BASE_URL line; an empty Partner ID or a line break is refused with the reason', () => {
    const v = { ...local(), env: 'sandbox' as const, v2BaseUrl: undefined, v3BaseUrl: 'https://partner.example/api/v3' };
    assert.doesNotMatch(dotenvText(v), /TPP_V2_BASE_URL/);
    assert.throws(() => dotenvText({ ...v, partnerId: ' ' }), (e: Error) => e instanceof ConnectError && /TPP_PARTNER_ID is empty: Sandbox has no Partner ID yet/.test(e.message));
    assert.throws(() => dotenvText({ ...v, privateKeyFile: 'a\nTPP_BASE_URL=https://evil.example' }), /TPP_PRIVATE_KEY_FILE cannot hold a line break/);
  });

  it('one line per language on loading it, naming the file', () => {
    const lines = loadLines('tpp-local.env');
    for (const lang of ['Shell', 'Node', 'Python', 'C#', 'Go', 'PHP']) assert.ok(lines.some((l) => l.language.includes(lang) && l.line.includes('tpp-local.env')), lang);
    assert.equal(lines.find((l) => l.language.startsWith('Node'))?.line, 'node --env-file=./tpp-local.env app.js');
  });

  it('the standard-library Python line reads the file as python-dotenv does (quoted values, comments), when python3 is here', function () {
    const python = spawnSync('python3', ['--version']);
    if (python.error || python.status !== 0) {
      console.log('      skipped: python3 is not installed on this machine');
      this.skip();
    }
    const v = local();
    const file = join(dir, 'py.env');
    writeFileSync(file, dotenvText(v, 'py.env'));
    const line = loadLines(file).find((l) => l.language === 'Python (standard library)')!.line;
    const r = spawnSync('python3', ['-c', `${line}\nimport os, json; print(json.dumps({k: os.environ.get(k) for k in ["TPP_BASE_URL", "TPP_PARTNER_ID", "TPP_PRIVATE_KEY_FILE", "TPP_AUDIENCE"]}))`], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { TPP_BASE_URL: v.v3BaseUrl, TPP_PARTNER_ID: v.partnerId, TPP_PRIVATE_KEY_FILE: v.privateKeyFile, TPP_AUDIENCE: null });
  });

  it('a path outside the workspace is refused with a specific message; a folder named like the workspace is outside', () => {
    const ws = join(dir, 'ws');
    assert.equal(outsideWorkspaceProblem(join(ws, 'tpp-local.env'), [ws]), undefined);
    assert.equal(outsideWorkspaceProblem(join(ws, 'sub', 'a.env'), [join(dir, 'other'), ws]), undefined);
    assert.match(outsideWorkspaceProblem(join(dir, 'ws-other', 'a.env'), [ws]) ?? '', /is outside the workspace/);
    assert.match(outsideWorkspaceProblem(join(ws, '..', 'a.env'), [ws]) ?? '', /is outside the workspace/);
    assert.match(outsideWorkspaceProblem(ws, [ws]) ?? '', /is outside the workspace/, 'the folder itself is no file in it');
    assert.match(outsideWorkspaceProblem(join(ws, 'a.env'), []) ?? '', /Open a folder first/);
  });

  it('never overwrites without being asked; a key file is mode 0600, also when overwritten', async () => {
    const file = join(dir, 'tpp-local-key.pem');
    writeFileSync(file, 'old', { mode: 0o644 });
    await assert.rejects(writeNewFile(file, 'new', 0o600), (e: Error) => e instanceof FileExists && e.message === `${file} already exists: nothing was overwritten.`);
    assert.equal(readFileSync(file, 'utf8'), 'old');
    await writeNewFile(file, 'new', 0o600, true);
    assert.equal(readFileSync(file, 'utf8'), 'new');
    const fresh = join(dir, 'fresh.pem');
    await writeNewFile(fresh, 'k', 0o600);
    if (process.platform !== 'win32') {
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.equal(statSync(fresh).mode & 0o777, 0o600);
    }
  });

  it('.gitignore: adds the files not yet ignored, once', () => {
    const add = gitignoreAddition('node_modules\n', ['tpp-local.env', 'tpp-local-key.pem']);
    assert.equal(add, "# Tire Protection: the application's connection settings and its private key (never commit a key)\n/tpp-local.env\n/tpp-local-key.pem\n");
    assert.equal(gitignoreAddition(`node_modules\n${add}`, ['tpp-local.env', 'tpp-local-key.pem']), undefined);
    assert.match(gitignoreAddition('dist', ['a.env']) ?? '', /^\n# Tire/, 'a last line without newline is ended first');
  });
});
