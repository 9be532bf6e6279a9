import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSandboxCommand } from '../../../src/cli/commands/sandbox';
import { sandboxCommand } from '../../../src/cli/commands/sandbox';
import { FaultInjector, RateLimiter } from '../../../src/core/sandbox/realism';
import { Client, FaultWaits, newKey, startWith, tpRegistration } from './helpers';

/** Rate limit (429 + Retry-After), fault injection (5xx, slow), sample data and the `tpp sandbox` command. */
describe('Local sandbox: realism knobs, sample data and CLI', function () {
  this.timeout(30_000);

  it('RateLimiter: a burst of perSecond, then a wait in whole seconds; refills over time', () => {
    const rl = new RateLimiter(2);
    assert.equal(rl.take('p', 0), 0);
    assert.equal(rl.take('p', 0), 0);
    assert.equal(rl.take('p', 0), 1);
    assert.equal(rl.take('q', 0), 0, 'per partner');
    assert.equal(rl.take('p', 600), 0, '0.6 s refills 1.2 tokens');
    assert.equal(new RateLimiter(0.1).take('p', 0), 0);
    const slow = new RateLimiter(0.1);
    slow.take('p', 0);
    assert.equal(slow.take('p', 0), 10);
  });

  it('answers 429 with Retry-After per partner when the rate limit is on, and never by default', async () => {
    // The sandbox's clock stands still: no token is refilled while the requests are sent, however slow the machine.
    const at = Date.now();
    const { sb, clients } = await startWith({ rateLimitPerSecond: 3, now: () => at }, ['ES256', 'ES256']);
    const [a, b] = clients as [Client, Client];
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await a.call('GET', '/verify-token')).status);
    assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
    const r = await a.call('GET', '/verify-token');
    assert.equal(r.status, 429);
    assert.equal(r.json.error, 'too_many_requests');
    assert.match(r.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
    assert.equal((await b.call('GET', '/verify-token')).status, 200, 'another partner is not limited');
    await sb.close();
    const { sb: sb2, clients: c2 } = await startWith();
    for (let i = 0; i < 50; i++) assert.equal((await (c2[0] as Client).call('GET', '/verify-token')).status, 200);
    await sb2.close();
  });

  it('FaultInjector: the configured share of 500/502/503/504, seeded', () => {
    const f = new FaultInjector({ errorRate: 0.3, seed: 42 });
    const seen = new Map<number, number>();
    for (let i = 0; i < 10_000; i++) {
      const d = f.decide();
      if (d.status) seen.set(d.status, (seen.get(d.status) ?? 0) + 1);
    }
    const total = [...seen.values()].reduce((x, y) => x + y, 0);
    assert.ok(total > 2700 && total < 3300, `~30% faults, got ${total}`);
    assert.deepEqual([...seen.keys()].sort(), [500, 502, 503, 504]);
    assert.equal(new FaultInjector({}).enabled, false);
  });

  it('injects 5xx before processing (nothing stored) and slow responses', async () => {
    const { sb, clients } = await startWith({ faults: { errorRate: 1, seed: 1 } });
    const c = clients[0] as Client;
    const r = await c.call('POST', '/tire-protection/registrations', tpRegistration('F-1'));
    assert.ok([500, 502, 503, 504].includes(r.status));
    assert.equal(r.json.statusCode, r.status);
    const stored = await sb.context.db.query<{ n: number }>('SELECT count(*)::int AS n FROM tpp.registrations', []);
    assert.equal(stored.rows[0]?.n, 0, 'a failed request changed nothing');
    await sb.close();
    const waits = new FaultWaits();
    const { sb: slow, clients: sc } = await startWith({ faults: { slowRate: 1, slowMs: 150, seed: 1 }, sleep: waits.sleep });
    const answered: string[] = [];
    const call = (name: string) => (sc[0] as Client).call('GET', '/verify-token').then((r) => (answered.push(name), r));
    const first = call('first');
    assert.equal((await waits.nth(0)).ms, 150, 'held for slowMs');
    const second = call('second');
    (await waits.nth(1)).release();
    assert.equal((await second).status, 200);
    waits.asked[0]!.release();
    assert.equal((await first).status, 200);
    assert.deepEqual(answered, ['second', 'first'], 'each answer waited for its own hold');
    await slow.close();
  });

  it('--fault-mode after-commit: the write is stored, then its answer is replaced by a 500; failures keep their answer', async () => {
    const { sb, clients } = await startWith({ faults: { errorRate: 1, mode: 'after-commit', seed: 1 } });
    const c = clients[0] as Client;
    const r = await c.call('POST', '/tire-protection/registrations', tpRegistration('F-AC-1'));
    assert.equal(r.status, 500);
    assert.deepEqual([r.json.error, r.json.statusCode], ['internal_server_error', 500]);
    assert.match(r.json.message, /after the request was processed and stored/);
    const stored = await sb.context.db.query<{ n: number }>('SELECT count(*)::int AS n FROM tpp.registrations', []);
    assert.equal(stored.rows[0]?.n, 1, 'the write was committed');
    const again = await c.call('POST', '/tire-protection/registrations', tpRegistration('F-AC-1'));
    assert.equal(again.status, 409, 'a request that fails on its own keeps its answer');
    await sb.close();
  });

  it('loads a few hundred consistent sample registrations with claims, shops and motor-club registrations', async () => {
    const { sb, clients } = await startWith();
    const c = clients[0] as Client;
    const s = await sb.loadSampleData('P1001');
    assert.ok(s.registrations >= 300, JSON.stringify(s));
    assert.ok(s.claims > 30 && s.cancellations > 5 && s.shops === 8 && s.motorClub === 40, JSON.stringify(s));
    const list = await c.call('GET', '/tire-protection/registrations?pageSize=1000');
    assert.equal(list.json.totalRecordCount, s.registrations);
    const statuses = (await c.call('GET', '/v2/partners/partner1?rec=registrationstatus')).json as { WarrantyStatus: number; TiresLeft: number; TiresCovered: number; TireClaimCount: number; TireCancelCount: number }[];
    const kinds = new Set(statuses.map((x) => x.WarrantyStatus));
    for (const k of [1, 2, 4]) assert.ok(kinds.has(k), `status ${k} present`);
    for (const x of statuses) assert.equal(x.TiresLeft, Math.max(0, x.TiresCovered - x.TireClaimCount - x.TireCancelCount));
    assert.equal((await c.call('GET', '/motor-club/registrations')).json.totalRecordCount, 40);
    const again = await sb.loadSampleData('P1001');
    assert.ok(again.registrations >= 300, 'loading twice adds more, no conflicts');
    // loads within the same second (ids share their time prefix) never collide
    for (let i = 0; i < 3; i++) assert.equal((await sb.loadSampleData('P1001', 20)).registrations, 45);
    await assert.rejects(sb.loadSampleData('NOPE'), /Unknown partner/);
    await sb.close();
  });

  describe('tpp sandbox', () => {
    let dir: string;
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'tpp-sb-cli-'));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    const io = () => {
      const out = { stdout: '', stderr: '' };
      return { out, io: { stdout: { write: (s: string) => (out.stdout += s) }, stderr: { write: (s: string) => (out.stderr += s) } } };
    };

    it('prints the v3 base address first, logs requests to stderr, seeds, and stops on abort', async () => {
      const key = newKey();
      const pem = join(dir, 'p1.pem');
      writeFileSync(pem, key.spkiPem);
      const { out, io: cio } = io();
      const stop = new AbortController();
      const running = runSandboxCommand(['--partner', `P7=${pem}`, '--seed', '--rate-limit', '1000'], cio, stop.signal);
      after(() => stop.abort());
      while (!out.stdout.includes('\n')) await new Promise((r) => setTimeout(r, 20));
      const v3 = out.stdout.split('\n')[0] as string;
      assert.match(v3, /^http:\/\/127\.0\.0\.1:\d+\/api\/v3$/);
      const origin = v3.replace('/api/v3', '');
      const c = new Client({ origin, v3BaseUrl: v3, v2BaseUrl: origin } as never, 'P7', key);
      const l = await c.call('GET', '/tire-protection/registrations?pageSize=1');
      assert.ok(l.json.totalRecordCount >= 300);
      stop.abort();
      assert.equal(await running, 0);
      assert.match(out.stderr, /GET \/api\/v3\/tire-protection\/registrations\?pageSize=1 200 /);
      assert.match(out.stderr, /Sample data for P7: \d+ registrations/);
      assert.doesNotMatch(out.stderr, /eyJ/, 'no token in the log');
    });

    it('rejects bad options with exit 2 (usage errors)', async () => {
      for (const args of [['--port', 'abc'], ['--fault-rate', '2'], ['--fault-rate', '0.3', '--fault-mode', 'later'], ['--partner', 'nokey'], ['--partner', `X=${join(dir, 'missing.pem')}`], ['--seed']]) {
        const { out, io: cio } = io();
        await assert.rejects(runSandboxCommand(args, cio), (err: Error) => err.name === 'UsageError', args.join(' '));
        assert.equal(out.stdout, '');
      }
      assert.match(sandboxCommand.usage, /--data-dir/);
      assert.match(sandboxCommand.usage, /--fault-mode before\|after-commit/);
    });

    it('exits 2 with a message when the port is taken', async () => {
      const { sb } = await startWith();
      const port = new URL(sb.origin).port;
      const { out, io: cio } = io();
      assert.equal(await runSandboxCommand(['--port', port], cio), 2);
      assert.match(out.stderr, /cannot start/);
      await sb.close();
    });
  });
});
