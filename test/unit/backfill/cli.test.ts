/**
 * A backfill through `tpp run` (src/cli/commands/backfill.ts), in this process, against an in-process Local sandbox:
 * `--journal-check` and its exit codes (docs/backfills.md, A damaged journal: 0 when --resume goes on as it is, 1
 * something to repair or check by hand, 2 not this backfill's journal), and a journal in use by another run: exit 2, the run that
 * holds it named, nothing sent (One run at a time).
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/cli';
import { defaultJournalPath } from '../../../src/core/backfill';
import { lockDirOf } from '../../../src/core/lock/fileLock';
import { bootId, processStart } from '../../../src/core/lock/owner';
import type { Client } from '../sandbox/helpers';
import { backfill, REGISTRATION_FLOW, registrationCsv, registrationsPerInvoice, suiteSandbox } from './helpers';

describe('backfill: tpp run --journal-check and a journal in use, through the CLI', function () {
  this.timeout(60_000);
  const suite = suiteSandbox();
  let c: Client;
  before(() => (c = suite.client()));

  /** Runs `tpp run <flow> …` with the sandbox's partner flags; what it wrote and its exit code. */
  async function tpp(w: { dir: string; flowPath: string }, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const key = join(w.dir, 'key.pem');
    writeFileSync(key, c.key.privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    let stdout = '';
    let stderr = '';
    const io = { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } };
    const code = await runCli(['run', w.flowPath, '--base-url', c.sb.v3BaseUrl, '--iss', c.partnerId, '--key', key, ...args], io);
    return { code, stdout, stderr };
  }

  it('--journal-check: exit 0 when --resume can go on as it is (rows started after a crash named), 1 with something to repair, 2 for a file that is not a journal', async () => {
    const w = suite.ws(registrationCsv('JCHK', 3));
    assert.equal((await backfill(w, c)).summary.created, 3);
    const clean = await tpp(w, '--journal-check');
    assert.equal(clean.code, 0, clean.stdout + clean.stderr);
    assert.match(clean.stdout, /Nothing in doubt: --resume continues it as it is\./);
    const path = defaultJournalPath(w.flowPath, w.dataPath);
    const started = `${JSON.stringify({ t: 'open', boot: bootId(), pid: 1 })}\n${JSON.stringify({ t: 'started', row: 2, key: 'invoiceNumber JCHK-2', hash: 'x' })}\n`;
    appendFileSync(path, started);
    const crashed = await tpp(w, '--journal-check');
    assert.equal(crashed.code, 0, crashed.stdout + crashed.stderr);
    assert.match(crashed.stdout, /Started, not ended .*: 1\n {2}row 2 \(invoiceNumber JCHK-2\)/);
    appendFileSync(path, `typed by hand\n${started}`);
    const damaged = await tpp(w, '--journal-check');
    assert.equal(damaged.code, 1, damaged.stdout + damaged.stderr);
    assert.match(damaged.stdout, /Repaired by --resume: .*not JSON/);
    writeFileSync(path, 'not a journal\n');
    const broken = await tpp(w, '--journal-check');
    assert.equal(broken.code, 2, broken.stdout + broken.stderr);
    assert.match(broken.stdout + broken.stderr, /not a journal/);
  });

  it('a journal in use by another run: exit 2 naming the tpp run that holds it and its row sender, nothing sent', async function () {
    if (process.platform !== 'linux') this.skip(); // the holder's start time is read from /proc
    const w = suite.ws(registrationCsv('BUSY', 3));
    const path = defaultJournalPath(w.flowPath, w.dataPath);
    // The run that holds it: its row sender (a process that stays), started by a `tpp run` that runs (this one).
    const sender = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      const pid = sender.pid as number;
      mkdirSync(lockDirOf(path), { recursive: true });
      const launcher = { pid: process.pid, start: processStart(process.pid) ?? '', what: 'tpp run' };
      writeFileSync(join(lockDirOf(path), '1.json'), JSON.stringify({ pid, boot: bootId(), start: processStart(pid) ?? '', host: hostname(), since: '2025-01-02T03:04:05.000Z', what: 'backfill', launcher }));
      const r = await tpp(w, '--resume');
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.match(r.stderr, new RegExp(`is in use by another run of this backfill: pid ${process.pid} on ${hostname()} \\(tpp run, since 2025-01-02T03:04:05\\.000Z; the lock is held by its process pid ${pid}\\) \\(lock file .*1\\.json\\)\\. Wait for it to end`));
      assert.equal([...(await registrationsPerInvoice(c)).keys()].filter((k) => k.startsWith('BUSY-')).length, 0, 'nothing was sent');
    } finally {
      sender.kill('SIGKILL');
    }
  });

  it('a # @prompt without its --var: exit 2 before any row, naming --var (a backfill asks nothing)', async () => {
    const flow = REGISTRATION_FLOW.replace('### Registration\n', '### Registration\n# @prompt dealer\n').replace('"product_id": "tp-road-hazard-36",', '"product_id": "tp-road-hazard-36", "storeNumber": "{{dealer}}",');
    const w = suite.ws(registrationCsv('PRMPT', 2), flow);
        const refused = await tpp(w);
    assert.equal(refused.code, 2, refused.stdout + refused.stderr);
    assert.match(refused.stderr, /# @prompt dealer asks for the value of \{\{dealer\}\} when the request is sent; a backfill asks nothing: give it with --var dealer=<value>/);
    assert.deepEqual([...(await registrationsPerInvoice(c)).keys()].filter((k) => k.startsWith('PRMPT-')), [], 'no row was sent');
    const given = await tpp(w, '--var', 'dealer=S-9');
    assert.equal(given.code, 0, given.stdout + given.stderr);
  });
});
