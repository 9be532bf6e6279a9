import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import fsPromises from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/cli';

/**
 * `tpp keygen` writes the pair or nothing (README, Command line): whatever stands in the way of either file, the
 * command exits 2 naming that path and why, and a pair that was there is left exactly as it was.
 */
describe('tpp keygen: the pair or nothing', () => {
  let dir: string;
  let prefix: string;
  const OLD_PRIVATE = 'old private key\n';
  const OLD_PUBLIC = 'old public key\n';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tpp-keygen-pair-'));
    prefix = join(dir, 'partner');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function keygen(...args: string[]): Promise<{ code: number; stderr: string }> {
    let stderr = '';
    const io = { stdout: { write: () => true }, stderr: { write: (s: string) => ((stderr += s), true) } } as never;
    return { code: await runCli(['keygen', '--out', prefix, ...args], io), stderr };
  }
  const oldPair = () => {
    writeFileSync(`${prefix}.pem`, OLD_PRIVATE, { mode: 0o600 });
    writeFileSync(`${prefix}.pub.pem`, OLD_PUBLIC);
  };
  const text = (p: string) => readFileSync(p, 'utf8');
  /** Nothing but what the test put there: no temporary file or kept copy is left behind. */
  const leftovers = (...expected: string[]) => assert.deepEqual(readdirSync(dir).sort(), expected.sort());

  it('--force with a directory at <out>.pub.pem: exit 2 naming it, the old private key untouched', async () => {
    writeFileSync(`${prefix}.pem`, OLD_PRIVATE, { mode: 0o600 });
    mkdirSync(`${prefix}.pub.pem`);
    const r = await keygen('--force');
    assert.equal(r.code, 2);
    assert.equal(text(`${prefix}.pem`), OLD_PRIVATE, 'the old key is not lost');
    assert.match(r.stderr, new RegExp(`${prefix.replace(/[\\.]/g, '\\$&')}\\.pub\\.pem is a directory, not a file: nothing was written`));
    leftovers('partner.pem', 'partner.pub.pem');
  });

  it('--force with a symbolic link at <out>.pub.pem, to a file or to nothing: exit 2, nothing written anywhere', async () => {
    oldPair();
    const victim = join(dir, 'victim');
    writeFileSync(victim, 'theirs');
    rmSync(`${prefix}.pub.pem`);
    symlinkSync(victim, `${prefix}.pub.pem`);
    const linked = await keygen('--force');
    assert.equal(linked.code, 2);
    assert.match(linked.stderr, /partner\.pub\.pem is a symbolic link: nothing was written/);
    assert.equal(text(`${prefix}.pem`), OLD_PRIVATE);
    assert.equal(text(victim), 'theirs');
    rmSync(`${prefix}.pub.pem`);
    symlinkSync(join(dir, 'nowhere'), `${prefix}.pub.pem`);
    const dangling = await keygen('--force');
    assert.equal(dangling.code, 2);
    assert.equal(text(`${prefix}.pem`), OLD_PRIVATE);
    assert.equal(existsSync(join(dir, 'nowhere')), false, 'nothing was created where the link points');
    leftovers('partner.pem', 'partner.pub.pem', 'victim');
  });

  it('--force with a directory at <out>.pem: exit 2 naming it, the old public key untouched', async () => {
    writeFileSync(`${prefix}.pub.pem`, OLD_PUBLIC);
    mkdirSync(`${prefix}.pem`);
    const r = await keygen('--force');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /partner\.pem is a directory, not a file: nothing was written/);
    assert.equal(text(`${prefix}.pub.pem`), OLD_PUBLIC);
    leftovers('partner.pem', 'partner.pub.pem');
  });

  it('a folder that does not exist: exit 2 naming the path and why', async () => {
    prefix = join(dir, 'missing', 'partner');
    const r = await keygen();
    assert.equal(r.code, 2);
    assert.match(r.stderr, /Cannot write .*missing.partner\.pem: its folder does not exist \(ENOENT\); nothing was written/);
    leftovers();
  });

  describe('when another program changes a path after the checks', () => {
    const fsp = fsPromises as unknown as Record<'rename' | 'link', (a: string, b: string) => Promise<void>>;
    const real = { rename: fsp.rename, link: fsp.link };
    afterEach(() => Object.assign(fsp, real));
    /** Runs `meddle` just before the public key's file takes its name, as another process would. */
    const interfere = (meddle: () => void) => {
      for (const op of ['rename', 'link'] as const) {
        fsp[op] = async (from: string, to: string) => {
          if (to === `${prefix}.pub.pem`) meddle();
          return real[op](from, to);
        };
      }
    };

    it('--force: a directory put at <out>.pub.pem at the last moment: the old private key is put back', async () => {
      oldPair();
      interfere(() => {
        rmSync(`${prefix}.pub.pem`);
        mkdirSync(`${prefix}.pub.pem`);
      });
      const r = await keygen('--force');
      assert.equal(r.code, 2);
      assert.match(r.stderr, /Cannot write .*partner\.pub\.pem: a directory is in its place \(EISDIR\); nothing was written/);
      assert.equal(text(`${prefix}.pem`), OLD_PRIVATE, 'the private key that had been renamed is back');
      assert.equal(statSync(`${prefix}.pem`).mode & 0o777, 0o600);
      leftovers('partner.pem', 'partner.pub.pem');
    });

    it('without --force: a file created at <out>.pub.pem at the last moment is kept, and no private key stays', async () => {
      interfere(() => writeFileSync(`${prefix}.pub.pem`, 'made meanwhile'));
      const r = await keygen();
      assert.equal(r.code, 2);
      assert.match(r.stderr, /partner\.pub\.pem already exists: nothing was overwritten/);
      assert.equal(existsSync(`${prefix}.pem`), false, 'no private key without its public half');
      assert.equal(text(`${prefix}.pub.pem`), 'made meanwhile');
      leftovers('partner.pub.pem');
    });
  });

  it('--force over a whole pair replaces both, the private key with mode 0600', async () => {
    oldPair();
    const r = await keygen('--force');
    assert.equal(r.code, 0, r.stderr);
    assert.match(text(`${prefix}.pem`), /^-----BEGIN PRIVATE KEY-----/);
    assert.match(text(`${prefix}.pub.pem`), /^-----BEGIN PUBLIC KEY-----/);
    if (process.platform !== 'win32') assert.equal(statSync(`${prefix}.pem`).mode & 0o777, 0o600);
    leftovers('partner.pem', 'partner.pub.pem');
  });
});
