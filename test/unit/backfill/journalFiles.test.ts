/**
 * A journal is a file this code owns (docs/backfills.md, The journal): it is never opened through a symbolic link (at
 * its own name, or at the `.tpp` and `runs` directories of the default path), a new one is made with O_EXCL and mode
 * 0600, and a file whose first line is not a journal header is neither truncated nor written. Nothing is sent in
 * these tests: the journal is opened after the rows are checked and before the first one is sent.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { defaultJournalPath, JournalError, runBackfill } from '../../../src/core/backfill';
import { parseFlow } from '../../../src/core/flows/parse';
import { REGISTRATION_FLOW, registrationCsv, workspace as makeWorkspace } from './helpers';

/** Runs the backfill of `w` against an address nothing listens on (nothing is sent before the journal is open). */
async function run(w: { flowPath: string; dataPath: string }, resume = false): Promise<unknown> {
  const text = readFileSync(w.flowPath, 'utf8');
  return runBackfill({ flow: parseFlow(text, w.flowPath), flowText: text, flowPath: w.flowPath, dataPath: w.dataPath, environment: { id: 'local', baseUrl: 'http://127.0.0.1:9/api/v3', partnerId: 'P1', token: () => 'x' }, readFile: async () => '', resume, jobs: 1, retry: { maxAttempts: 1 }, signal: AbortSignal.timeout(60_000) });
}

const refused = (code: string, re: RegExp) => (e: unknown) => e instanceof JournalError && e.code === code && re.test(e.message);

describe('a journal is a file tpp owns', () => {
  const dirs: string[] = [];
  const workspace = (flow: string, csv: string) => {
    const w = makeWorkspace(flow, csv);
    dirs.push(w.dir);
    return w;
  };
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('a symbolic link at the journal is refused; the file it points to is neither truncated nor written', async () => {
    const w = workspace(REGISTRATION_FLOW, registrationCsv('SYM', 2));
    const journal = defaultJournalPath(w.flowPath, w.dataPath);
    mkdirSync(dirname(journal), { recursive: true });
    const precious = join(w.dir, 'precious.txt');
    writeFileSync(precious, 'keep me\n');
    symlinkSync(precious, journal);
    await assert.rejects(run(w), refused('unsafe', /symbolic link/));
    await assert.rejects(run(w, true), refused('unsafe', /symbolic link/));
    assert.equal(readFileSync(precious, 'utf8'), 'keep me\n');
  });

  it('a dangling symbolic link at the journal is refused; no file is made where it points', async () => {
    const w = workspace(REGISTRATION_FLOW, registrationCsv('DNG', 2));
    const journal = defaultJournalPath(w.flowPath, w.dataPath);
    mkdirSync(dirname(journal), { recursive: true });
    const target = join(w.dir, 'made-by-tpp.txt');
    symlinkSync(target, journal);
    await assert.rejects(run(w), refused('unsafe', /symbolic link/));
    assert.equal(existsSync(target), false);
  });

  for (const which of ['.tpp', 'runs'] as const) {
    it(`a symbolic link at ${which} is refused; nothing is written where it points`, async () => {
      const w = workspace(REGISTRATION_FLOW, registrationCsv('DIR', 2));
      const elsewhere = join(w.dir, 'elsewhere');
      mkdirSync(elsewhere);
      if (which === '.tpp') symlinkSync(elsewhere, join(w.dir, '.tpp'));
      else {
        mkdirSync(join(w.dir, '.tpp'));
        symlinkSync(elsewhere, join(w.dir, '.tpp', 'runs'));
      }
      await assert.rejects(run(w), refused('unsafe', /symbolic link/));
      assert.deepEqual(readdirSync(elsewhere), []);
    });
  }

  it('a file without the journal header line is neither truncated nor written: the run stops and names it', async () => {
    const w = workspace(REGISTRATION_FLOW, registrationCsv('HDR', 2));
    const journal = defaultJournalPath(w.flowPath, w.dataPath);
    mkdirSync(dirname(journal), { recursive: true });
    const notes = 'my notes, not a journal\nsecond line\nand a last one without its end';
    writeFileSync(journal, notes);
    await assert.rejects(run(w), refused('broken', /is not a journal of tpp run/));
    await assert.rejects(run(w, true), refused('broken', new RegExp(journal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))));
    assert.equal(readFileSync(journal, 'utf8'), notes);
  });

  it('a new journal is made with mode 0600, its directories 0700', async function () {
    if (process.platform === 'win32') this.skip(); // no POSIX modes
    const w = workspace(REGISTRATION_FLOW, registrationCsv('MOD', 1));
    await run(w).catch(() => undefined); // the row cannot be sent here; the journal is made first
    const journal = defaultJournalPath(w.flowPath, w.dataPath);
    assert.equal(statSync(journal).mode & 0o777, 0o600);
    assert.equal(statSync(dirname(journal)).mode & 0o777, 0o700);
  });
});
