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

  it('a SIGKILLed tpp run takes the process sending the rows with it (Linux, from dist)', async function () {
    if (process.platform !== 'linux' || !existsSync(cli)) this.skip();
    // A server that takes connections and never answers: the rows stay in flight until the kill.
    const sockets: Socket[] = [];
    const server: Server = createServer((s) => void sockets.push(s));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    const key = join(dir, 'key.pem');
    writeFileSync(key, generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const tpp = spawn(process.execPath, [cli, 'run', join(dir, 'flow.http'), '--base-url', `http://127.0.0.1:${port}/api/v3`, '--iss', 'P1', '--key', key], { stdio: 'ignore' });
    try {
      const children = () => {
        try {
          return readFileSync(`/proc/${tpp.pid}/task/${tpp.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
        } catch {
          return [];
        }
      };
      let runner: number | undefined;
      for (let i = 0; i < 200 && (runner === undefined || sockets.length === 0); i++, await new Promise((r) => setTimeout(r, 100))) runner = children()[0];
      assert.ok(runner !== undefined && sockets.length > 0, 'the runner started and sends rows');
      // undici's WebAssembly HTTP parser left to Liftoff, and a small young generation (docs/backfills.md, Figures).
      const argv = readFileSync(`/proc/${runner}/cmdline`, 'utf8').split('\0');
      for (const flag of ['--liftoff-only', '--max-semi-space-size=4', '--heap-growing-percent=20']) assert.ok(argv.includes(flag), `the runner runs with ${flag}`);
      tpp.kill('SIGKILL');
      const alive = () => {
        try {
          return !/^State:\s+Z/m.test(readFileSync(`/proc/${runner}/status`, 'utf8'));
        } catch {
          return false;
        }
      };
      for (let i = 0; i < 50 && alive(); i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(alive(), false, 'the runner died with tpp run');
    } finally {
      tpp.kill('SIGKILL');
      for (const s of sockets) s.destroy();
      server.close();
    }
  });
});
