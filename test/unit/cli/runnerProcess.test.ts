/**
 * `tpp run` over a data file sends its rows from a process of its own with a smaller young generation
 * (docs/backfills.md, Figures: memory), and stops keep their meaning (What a stop can lose): a SIGKILLed `tpp run`
 * takes the process that sends the rows with it, so no row is sent after the kill.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDataRun, RUNNER_EXEC_ARGV, runsHere } from '../../../src/cli/runnerProcess';

const cli = join(__dirname, '../../../dist/cli.js');

describe('tpp run over a data file: the process that sends the rows', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'tpp-runner-'));
    writeFileSync(join(dir, 'flow.http'), '# @data ./rows.csv\n### One\nPOST {{baseUrl}}/tire-protection/registrations\nContent-Type: application/json\n\n{ "invoiceNumber": "{{row.invoice}}" }\n');
    writeFileSync(join(dir, 'plain.http'), '### One\nGET {{baseUrl}}/products\n');
    writeFileSync(join(dir, 'rows.csv'), `invoice\n${Array.from({ length: 50 }, (_, i) => `R-${i + 1}`).join('\n')}\n`);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('is used for `tpp run` of a flow that names its data, or with --data; not for other runs or commands', () => {
    assert.equal(isDataRun(['run', 'flow.http', '--dry-run'], dir), true);
    assert.equal(isDataRun(['run', 'plain.http', '--data', 'rows.csv'], dir), true);
    assert.equal(isDataRun(['run', 'plain.http', '--data=rows.csv'], dir), true);
    assert.equal(isDataRun(['run', 'plain.http'], dir), false);
    assert.equal(isDataRun(['run', 'missing.http'], dir), false);
    assert.equal(isDataRun(['run', 'flow.http', '--help'], dir), false);
    assert.equal(isDataRun(['validate', 'flow.http'], dir), false);
    assert.equal(runsHere([]), false);
    assert.equal(runsHere([...RUNNER_EXEC_ARGV]), true);
  });

  /** A server that takes connections and never answers: the rows stay in flight until the kill. */
  async function silentServer(): Promise<{ port: number; close: () => void; sockets: Socket[] }> {
    const sockets: Socket[] = [];
    const server: Server = createServer((s) => void sockets.push(s));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    return { port: (server.address() as { port: number }).port, sockets, close: () => (sockets.forEach((s) => s.destroy()), server.close()) };
  }
  const tppRun = (port: number, ...extra: string[]) => {
    const key = join(dir, 'key.pem');
    if (!existsSync(key)) writeFileSync(key, generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }));
    return spawn(process.execPath, [cli, 'run', join(dir, 'flow.http'), '--base-url', `http://127.0.0.1:${port}/api/v3`, '--iss', 'P1', '--key', key, ...extra], { stdio: ['ignore', 'ignore', 'pipe'] });
  };
  const childrenOf = (pid: number) => {
    try {
      return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  };
  const alive = (pid: number) => {
    try {
      return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
    } catch {
      return false;
    }
  };
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('a SIGKILLed tpp run takes the process sending the rows with it (Linux, from dist)', async function () {
    if (process.platform !== 'linux' || !existsSync(cli)) this.skip();
    const server = await silentServer();
    const tpp = tppRun(server.port);
    try {
      let runner: number | undefined;
      for (let i = 0; i < 200 && (runner === undefined || server.sockets.length === 0); i++, await sleep(100)) runner = childrenOf(tpp.pid as number)[0];
      assert.ok(runner !== undefined && server.sockets.length > 0, 'the runner started and sends rows');
      // undici's WebAssembly HTTP parser left to Liftoff, and a small young generation (docs/backfills.md, Figures).
      const argv = readFileSync(`/proc/${runner}/cmdline`, 'utf8').split('\0');
      for (const flag of ['--liftoff-only', '--max-semi-space-size=4', '--heap-growing-percent=20']) assert.ok(argv.includes(flag), `the runner runs with ${flag}`);
      tpp.kill('SIGKILL');
      for (let i = 0; i < 50 && alive(runner); i++) await sleep(20);
      assert.equal(alive(runner), false, 'the runner died with tpp run');
    } finally {
      tpp.kill('SIGKILL');
      server.close();
    }
  });

  it('a --resume started while the runner of a SIGKILLed tpp run still dies waits for it, then takes the journal (Linux, from dist)', async function () {
    if (process.platform !== 'linux' || !existsSync(cli)) this.skip();
    // The runner is stopped (SIGSTOP) before its tpp run is killed, so it cannot see its channel close until it goes on:
    // the moment a loaded machine can stretch (docs/backfills.md, One run at a time).
    const server = await silentServer();
    const journal = join(dir, '.tpp', 'runs', 'flow-rows.csv.jsonl');
    rmSync(join(dir, '.tpp'), { recursive: true, force: true }); // the journal of the test above
    const opens = () => (existsSync(journal) ? readFileSync(journal, 'utf8').split('\n').filter((l) => l.startsWith('{"t":"open"')).length : 0);
    const first = tppRun(server.port);
    let resume: ReturnType<typeof tppRun> | undefined;
    let runner: number | undefined;
    try {
      for (let i = 0; i < 200 && (runner === undefined || opens() === 0); i++, await sleep(50)) runner = childrenOf(first.pid as number)[0];
      assert.ok(runner !== undefined && opens() === 1, 'the first run opened the journal');
      process.kill(runner, 'SIGSTOP');
      first.kill('SIGKILL');
      await new Promise((r) => first.once('exit', r));
      resume = tppRun(server.port, '--resume');
      let said = '';
      resume.stderr?.on('data', (d: Buffer) => (said += d.toString()));
      const exited = new Promise<number | null>((r) => resume?.once('exit', (code) => r(code)));
      await sleep(1500);
      assert.equal(resume.exitCode, null, `the resume waits for the dying runner: ${said}`);
      assert.equal(opens(), 1);
      process.kill(runner, 'SIGCONT');
      for (let i = 0; i < 200 && opens() < 2 && resume.exitCode === null; i++) await sleep(50);
      assert.equal(opens(), 2, `the resume took the journal once the runner was gone: ${said}`);
      assert.equal(alive(runner), false);
      resume.kill('SIGKILL');
      await exited;
    } finally {
      if (runner !== undefined && alive(runner)) process.kill(runner, 'SIGKILL');
      first.kill('SIGKILL');
      resume?.kill('SIGKILL');
      server.close();
    }
  });
});
