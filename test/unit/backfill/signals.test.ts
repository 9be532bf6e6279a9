/**
 * How a backfill stops (docs/backfills.md, Stopping a run): a stop stops taking rows (also while they are checked),
 * the summary counts the rows not sent and the run exits 130; `tpp run` passes SIGINT, SIGTERM and SIGHUP to the
 * process that sends the rows as a stop message (a signal to `tpp` alone stops the run too); and when that process
 * dies by a signal, `tpp run` says which and how to continue. Signals are delivered by calling the handlers, not
 * by sending them (the test runner has its own).
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { backfillExitCode } from '../../../src/cli/commands/backfill';
import { summaryLine } from '../../../src/cli/commands/backfillReport';
import { STOPPED_EXIT, stopOnSignals } from '../../../src/cli/commands/backfillSignals';
import { runInRunner } from '../../../src/cli/runnerProcess';
import type { Client } from '../sandbox/helpers';
import { backfill, registrationCsv, suiteSandbox } from './helpers';

/** Calls the handlers `install` adds for `event`. */
function added(event: string, install: () => void): ((...a: unknown[]) => void)[] {
  const before = process.listeners(event as NodeJS.Signals);
  install();
  return process.listeners(event as NodeJS.Signals).filter((l) => !before.includes(l)) as ((...a: unknown[]) => void)[];
}

describe('backfill: stopping a run', function () {
  this.timeout(60_000);
  const suite = suiteSandbox();
  let c: Client;
  before(() => (c = suite.client()));

  it('a stop while rows are sent: in-flight rows finish, the rows not sent are counted, exit 130', async () => {
    const w = suite.ws(registrationCsv('STOP', 40));
    const stop = new AbortController();
    let ended = 0;
    const r = await backfill(w, c, { jobs: 2, signal: stop.signal, listener: { onRowEnd: () => ++ended === 5 && stop.abort('SIGINT') } });
    const s = r.summary;
    assert.ok(s.stopped);
    assert.ok(s.created >= 5 && s.created < 40, JSON.stringify(s));
    assert.equal(s.unsent, 40 - s.created - s.cancelled, JSON.stringify(s));
    assert.equal(backfillExitCode(s, false), STOPPED_EXIT);
    assert.match(summaryLine(s, 'SIGINT'), new RegExp(`^Stopped \\(SIGINT\\): ${s.created} created.*; ${s.unsent} of 40 rows were not sent.*continue with --resume`));
    const rest = await backfill(w, c, { resume: true });
    assert.equal(rest.summary.created + rest.summary.recovered, 40 - s.created, JSON.stringify(rest.summary));
  });

  it('a stop while rows are checked sends nothing, and says so', async () => {
    const w = suite.ws(registrationCsv('STOPCHK', 30));
    const r = await backfill(w, c, { signal: AbortSignal.abort('SIGTERM') });
    assert.ok(r.summary.stopped && r.summary.notSent);
    assert.equal(r.rows.length, 0);
    assert.match(summaryLine(r.summary, 'SIGTERM'), /^Stopped \(SIGTERM\): nothing was sent/);
    assert.equal(backfillExitCode(r.summary, false), STOPPED_EXIT);
  });

  it('SIGINT, SIGTERM, SIGHUP and a stop message from tpp each stop the run, named', () => {
    for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      let stop: ReturnType<typeof stopOnSignals> | undefined;
      const said: string[] = [];
      const [handler] = added(sig, () => (stop = stopOnSignals({ stdout: { write: () => true }, stderr: { write: (s: string) => said.push(s) } })));
      handler?.();
      assert.equal(stop?.signal.aborted, true, sig);
      assert.equal(stop?.by(), sig);
      assert.match(said.join(''), new RegExp(`${sig}: stopping: no new rows are taken, requests in flight finish`));
      stop?.dispose();
    }
    let stop: ReturnType<typeof stopOnSignals> | undefined;
    const [onMessage] = added('message', () => (stop = stopOnSignals({ stdout: { write: () => true }, stderr: { write: () => true } })));
    onMessage?.({ tpp: 'stop', signal: 'SIGTERM' });
    assert.equal(stop?.by(), 'SIGTERM');
    stop?.dispose();
  });

  describe('tpp run and the process that sends the rows', () => {
    let dir: string;
    before(() => (dir = mkdtempSync(join(tmpdir(), 'tpp-runner-signals-'))));
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('a SIGINT to tpp alone reaches the runner as a stop message, and its exit code is the run\'s', async () => {
      const script = join(dir, 'waits.js');
      writeFileSync(script, "process.on('message', (m) => { if (m && m.tpp === 'stop') { console.error('stop ' + m.signal); process.exit(130); } }); setTimeout(() => process.exit(9), 20000);");
      let done: Promise<number> | undefined;
      const [onSigint] = added('SIGINT', () => (done = runInRunner(['run', 'flow.http'], script)));
      await new Promise((r) => setTimeout(r, 400));
      onSigint?.();
      assert.equal(await done, 130);
    });

    it('a runner killed by a signal is reported with the signal and a --resume hint, exit 128 + N', async () => {
      const script = join(dir, 'dies.js');
      writeFileSync(script, "process.kill(process.pid, 'SIGKILL');");
      const said: string[] = [];
      const write = process.stderr.write.bind(process.stderr);
      process.stderr.write = ((s: string) => (said.push(String(s)), true)) as typeof process.stderr.write;
      let code: number;
      try {
        code = await runInRunner(['run', 'flow.http', '--resume'], script);
      } finally {
        process.stderr.write = write;
      }
      assert.equal(code, 137);
      assert.match(said.join(''), /the process sending the rows \(pid \d+\) was killed by SIGKILL; every row it sent is in the journal: continue with the same command and --resume/);
    });
  });
});
