import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appendToFile, FileExists, insideRealPath, outsideWorkspaceProblem, pathTaken, SymlinkRefused, writeNewFile } from '../../../src/core/connect';
import { runCli } from '../../../src/cli/cli';

const KEY = '-----BEGIN PRIVATE KEY-----\nMIG2\n-----END PRIVATE KEY-----\n';

/** Key and dotenv files: written atomically with their mode from the start, never through a symbolic link. */
describe('connect: writing a key file safely', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'tpp-files-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const mode = (p: string) => statSync(p).mode & 0o777;

  it('replaces an existing world-readable file by a new one of mode 0600 (a new file, not the old one rewritten)', async () => {
    const path = join(dir, 'app.pem');
    writeFileSync(path, 'old', { mode: 0o644 });
    const before = statSync(path).ino;
    await writeNewFile(path, KEY, 0o600, true);
    assert.equal(readFileSync(path, 'utf8'), KEY);
    assert.equal(mode(path), 0o600);
    assert.notEqual(statSync(path).ino, before, 'the old file (and its mode) was never written with the key');
    assert.deepEqual(readdirSync(dir), ['app.pem'], 'no temporary file is left');
  });

  it('refuses a symbolic link, dangling or not, and leaves its target alone', async () => {
    const target = join(dir, 'elsewhere.txt');
    writeFileSync(target, 'theirs');
    symlinkSync(target, join(dir, 'link.pem'));
    await assert.rejects(writeNewFile(join(dir, 'link.pem'), KEY, 0o600, true), SymlinkRefused);
    assert.equal(readFileSync(target, 'utf8'), 'theirs');
    symlinkSync(join(dir, 'nowhere'), join(dir, 'dangling.pem'));
    assert.equal(existsSync(join(dir, 'dangling.pem')), false, 'existsSync misses a dangling link');
    assert.equal(pathTaken(join(dir, 'dangling.pem')), true, 'pathTaken sees it, so the editor asks first');
    await assert.rejects(writeNewFile(join(dir, 'dangling.pem'), KEY, 0o600), SymlinkRefused);
    assert.equal(existsSync(join(dir, 'nowhere')), false, 'nothing was created where the link points');
    await assert.rejects(appendToFile(join(dir, 'link.pem'), '/x\n'), SymlinkRefused);
    assert.equal(readFileSync(target, 'utf8'), 'theirs');
  });

  it('never replaces a file without being asked, even one created at the last moment', async () => {
    const path = join(dir, 'app.pem');
    writeFileSync(path, 'mine');
    await assert.rejects(writeNewFile(path, KEY, 0o600), FileExists);
    assert.equal(readFileSync(path, 'utf8'), 'mine');
    assert.deepEqual(readdirSync(dir), ['app.pem']);
  });

  it('appends to a .gitignore by replacing it whole, keeping its mode', async () => {
    const path = join(dir, '.gitignore');
    writeFileSync(path, 'node_modules\n', { mode: 0o640 });
    await appendToFile(path, '/tpp-local.env\n');
    assert.equal(readFileSync(path, 'utf8'), 'node_modules\n/tpp-local.env\n');
    assert.equal(mode(path), 0o640);
  });

  it('keeps a dotenv file out of a workspace folder that is a link to elsewhere', () => {
    const workspace = join(dir, 'ws');
    const outside = join(dir, 'outside');
    mkdirSync(workspace);
    mkdirSync(outside);
    symlinkSync(outside, join(workspace, 'linked'));
    assert.equal(insideRealPath(join(workspace, 'linked', 'tpp-local.env'), workspace), false);
    assert.match(outsideWorkspaceProblem(join(workspace, 'linked', 'tpp-local.env'), [workspace]) ?? '', /outside the workspace/);
    assert.equal(outsideWorkspaceProblem(join(workspace, 'sub', 'tpp-local.env'), [workspace]), undefined, 'a folder not made yet is judged by its path');
  });
});

describe('tpp keygen: both files or none', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'tpp-keygen-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const io = () => {
    let err = '';
    return { io: { stdout: { write: () => true }, stderr: { write: (s: string) => ((err += s), true) } } as never, err: () => err };
  };

  it('writes no private key when the public key path exists', async () => {
    const prefix = join(dir, 'partner');
    writeFileSync(`${prefix}.pub.pem`, 'someone else\'s');
    const o = io();
    assert.equal(await runCli(['keygen', '--out', prefix], o.io), 2);
    assert.equal(existsSync(`${prefix}.pem`), false, 'no private key without its public half');
    assert.match(o.err(), /partner\.pub\.pem already exists; nothing was written/);
  });

  it('--force replaces a 0644 key file with a 0600 one, and refuses a symbolic link', async () => {
    const prefix = join(dir, 'partner');
    writeFileSync(`${prefix}.pem`, 'old', { mode: 0o644 });
    assert.equal(await runCli(['keygen', '--out', prefix, '--force'], io().io), 0);
    assert.equal(statSync(`${prefix}.pem`).mode & 0o777, 0o600);
    const target = join(dir, 'victim');
    writeFileSync(target, 'theirs');
    symlinkSync(target, join(dir, 'linked.pem'));
    const o = io();
    assert.equal(await runCli(['keygen', '--out', join(dir, 'linked'), '--force'], o.io), 2);
    assert.equal(readFileSync(target, 'utf8'), 'theirs');
    assert.match(o.err(), /symbolic link/);
  });
});
