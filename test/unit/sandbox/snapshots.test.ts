import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { READY_DELAY_MS } from '../../../src/core/sandbox/control/snapshotReady';
import { BACKENDS, claim, Client, request, startWith, tpRegistration, type Reply } from './helpers';

/** Snapshots and records of the control API (docs/testing-your-application.md, Snapshots; Records). */
describe('Local sandbox: snapshots and stored records', function () {
  this.timeout(120_000);

  const ctl = (c: Client, method: string, path: string, body?: unknown): Promise<Reply> =>
    request(method, `${c.sb.origin}/__tpp/${path}`, method === 'POST' ? { 'content-type': 'application/json' } : {}, body === undefined ? undefined : JSON.stringify(body));
  const count = async (c: Client) => (await c.call('GET', '/tire-protection/registrations')).json.totalRecordCount as number;

  for (const backend of BACKENDS) {
    describe(backend.name, () => {
      it('takes, lists, restores and deletes a named snapshot; ids continue from the snapshot', async () => {
        const { sb, clients } = await startWith(await backend.options());
        const c = clients[0] as Client;
        const first = await c.call('POST', '/tire-protection/registrations', tpRegistration('S-1'));
        assert.equal(first.status, 201);
        assert.equal((await c.call('POST', `/tire-protection/registrations/${first.json.id}/claims`, claim())).status, 201);
        const taken = await ctl(c, 'POST', 'snapshots', { name: 'one' });
        assert.equal(taken.status, 201, taken.text);
        assert.equal(taken.json.records.registrations, 1);
        assert.equal(taken.json.records.claims, 1);
        assert.equal((await c.call('POST', '/tire-protection/registrations', tpRegistration('S-2'))).status, 201);
        const laterClaim = await c.call('POST', `/tire-protection/registrations/${first.json.id}/claims`, claim(2));
        assert.equal(await count(c), 2);
        assert.deepEqual((await ctl(c, 'GET', 'snapshots')).json.snapshots.map((s: { name: string }) => s.name), ['one']);
        const restored = await ctl(c, 'POST', 'snapshots/one/restore');
        assert.equal(restored.status, 200, restored.text);
        assert.equal(await count(c), 1, 'the record written after the snapshot is gone');
        assert.equal((await c.call('GET', `/tire-protection/registrations/${first.json.id}`)).status, 200);
        const again = await c.call('POST', '/tire-protection/registrations', tpRegistration('S-2'));
        assert.equal(again.status, 201, 'the invoice number written after the snapshot is free again');
        const claimAgain = await c.call('POST', `/tire-protection/registrations/${first.json.id}/claims`, claim(2));
        assert.equal(claimAgain.json.id, laterClaim.json.id, 'the id counters went back with the records');
        assert.equal((await ctl(c, 'POST', 'reset')).status, 200);
        assert.equal((await ctl(c, 'POST', 'snapshots/one/restore')).status, 200, 'a reset keeps snapshots');
        assert.equal(await count(c), 1);
        assert.equal((await ctl(c, 'DELETE', 'snapshots/one')).status, 200);
        assert.equal((await ctl(c, 'POST', 'snapshots/one/restore')).status, 404);
        assert.equal((await ctl(c, 'DELETE', 'snapshots/one')).status, 404);
        await sb.close();
      });

      it('a snapshot taken while writers are in flight holds each write whole or not at all', async () => {
        const { sb, clients } = await startWith(await backend.options());
        const c = clients[0] as Client;
        // Each writer creates a registration and then its claim; a consistent snapshot may hold a registration without
        // its claim (two writes) but never a claim without its registration, and its counts match its rows.
        let stop = false;
        const writer = async (w: number) => {
          for (let i = 0; !stop; i++) {
            const r = await c.call('POST', '/tire-protection/registrations', tpRegistration(`W${w}-${i}`));
            if (r.status === 201) await c.call('POST', `/tire-protection/registrations/${r.json.id}/claims`, claim());
          }
        };
        const writers = [0, 1, 2, 3].map(writer);
        await new Promise((r) => setTimeout(r, 300));
        const snaps: Reply[] = [];
        for (let i = 0; i < 5; i++) snaps.push(await ctl(c, 'POST', 'snapshots', { name: `busy-${i}` }));
        stop = true;
        await Promise.all(writers);
        for (const [i, s] of snaps.entries()) {
          assert.equal(s.status, 201, s.text);
          const restored = await ctl(c, 'POST', `snapshots/busy-${i}/restore`);
          assert.equal(restored.status, 200, restored.text);
          assert.equal(await count(c), s.json.records.registrations, `snapshot ${i}: its count is what it restores`);
          const all = (await ctl(c, 'GET', 'records?kind=claims&limit=1000')).json.records as { registration: string }[];
          assert.equal(all.length, s.json.records.claims);
        }
        assert.ok(snaps.some((s) => s.json.records.registrations > 0));
        await sb.close();
      });

      it('restores the same snapshot twice in a row, and again after writes and a pause (its ready copy)', async () => {
        const { sb, clients } = await startWith(await backend.options());
        const c = clients[0] as Client;
        assert.equal((await c.call('POST', '/tire-protection/registrations', tpRegistration('R-1'))).status, 201);
        assert.equal((await ctl(c, 'POST', 'snapshots', { name: 'base' })).status, 201);
        for (const pause of [0, 0, READY_DELAY_MS + 700, READY_DELAY_MS + 700]) {
          await new Promise((r) => setTimeout(r, pause));
          const r = await ctl(c, 'POST', 'snapshots/base/restore');
          assert.equal(r.status, 200, r.text);
          assert.equal(await count(c), 1, `after a pause of ${pause} ms`);
          assert.equal((await c.call('POST', '/tire-protection/registrations', tpRegistration('R-2'))).status, 201, 'the invoice number written after the snapshot is free');
          assert.equal((await c.call('POST', '/tire-protection/registrations', tpRegistration('R-1'))).status, 409, 'the one in the snapshot is not');
        }
        await sb.close();
      });

      it('a restore while writers are in flight: every write answered, each whole, the next restore gives the snapshot', async () => {
        const { sb, clients } = await startWith(await backend.options());
        const c = clients[0] as Client;
        assert.equal((await c.call('POST', '/tire-protection/registrations', tpRegistration('B-1'))).status, 201);
        assert.equal((await ctl(c, 'POST', 'snapshots', { name: 'base' })).status, 201);
        await new Promise((r) => setTimeout(r, READY_DELAY_MS + 700));
        let stop = false;
        const statuses: number[] = [];
        const writer = async (w: number) => {
          for (let i = 0; !stop; i++) {
            const r = await c.call('POST', '/tire-protection/registrations', tpRegistration(`F${w}-${i}`));
            statuses.push(r.status);
            if (r.status === 201) statuses.push((await c.call('POST', `/tire-protection/registrations/${r.json.id}/claims`, claim())).status);
          }
        };
        const writers = [0, 1, 2].map(writer);
        for (let i = 0; i < 3; i++) {
          await new Promise((r) => setTimeout(r, 200));
          const r = await ctl(c, 'POST', 'snapshots/base/restore');
          assert.equal(r.status, 200, r.text);
        }
        stop = true;
        await Promise.all(writers);
        // A claim may lose its registration to a restore between the two calls (404); nothing else may fail.
        assert.deepEqual(statuses.filter((s) => s !== 201 && s !== 404), []);
        const regs = new Set(((await ctl(c, 'GET', 'records?kind=registrations&limit=1000')).json.records as { id: string }[]).map((r) => r.id));
        const claims = (await ctl(c, 'GET', 'records?kind=claims&limit=1000')).json.records as { registration: string }[];
        assert.deepEqual(claims.filter((k) => !regs.has(k.registration)), [], 'no claim without its registration');
        assert.equal((await ctl(c, 'POST', 'snapshots/base/restore')).status, 200);
        assert.equal(await count(c), 1);
        await sb.close();
      });
    });
  }

  it('keeps snapshots on disk under a data directory: they survive a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tpp-snap-'));
    try {
      const one = await startWith({ dataDir: dir });
      const c1 = one.clients[0] as Client;
      await c1.call('POST', '/tire-protection/registrations', tpRegistration('D-1'));
      assert.equal((await ctl(c1, 'POST', 'snapshots', { name: 'disk' })).status, 201);
      await c1.call('POST', '/tire-protection/registrations', tpRegistration('D-2'));
      await one.sb.close();
      const two = await startWith({ dataDir: dir });
      const c2 = two.clients[0] as Client;
      const listed = await c2.call('GET', '/tire-protection/registrations');
      assert.equal(listed.json.totalRecordCount, 2, listed.text);
      assert.equal((await ctl(c2, 'POST', 'snapshots/disk/restore')).status, 200);
      assert.equal(await count(c2), 1);
      await two.sb.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps apart two 64-character names that differ only at the end, and replaces a snapshot taken again', async () => {
    const { sb, clients } = await startWith();
    const c = clients[0] as Client;
    const [a, b] = ['a', 'b'].map((end) => `${'n'.repeat(63)}${end}`) as [string, string];
    await c.call('POST', '/tire-protection/registrations', tpRegistration('L-1'));
    assert.equal((await ctl(c, 'POST', 'snapshots', { name: a })).status, 201);
    await c.call('POST', '/tire-protection/registrations', tpRegistration('L-2'));
    assert.equal((await ctl(c, 'POST', 'snapshots', { name: b })).status, 201);
    assert.equal((await ctl(c, 'POST', `snapshots/${a}/restore`)).status, 200);
    assert.equal(await count(c), 1);
    assert.equal((await ctl(c, 'POST', `snapshots/${b}/restore`)).status, 200);
    assert.equal(await count(c), 2);
    await c.call('POST', '/tire-protection/registrations', tpRegistration('L-3'));
    const again = await ctl(c, 'POST', 'snapshots', { name: a });
    assert.equal(again.json.records.registrations, 3, 'taken again: the new state replaces the old');
    assert.equal((await ctl(c, 'POST', 'reset')).status, 200);
    assert.equal((await ctl(c, 'POST', `snapshots/${a}/restore`)).status, 200);
    assert.equal(await count(c), 3);
    assert.equal((await ctl(c, 'DELETE', `snapshots/${a}`)).status, 200);
    assert.deepEqual((await ctl(c, 'GET', 'snapshots')).json.snapshots.map((s: { name: string }) => s.name), [b]);
    await sb.close();
  });

  it('refuses a bad name, an unknown property and an unknown snapshot, naming each', async () => {
    const { sb, clients } = await startWith();
    const c = clients[0] as Client;
    const badName = await ctl(c, 'POST', 'snapshots', { name: 'a b' });
    assert.equal(badName.status, 400);
    assert.equal(badName.json.issues[0].path, 'name');
    const typo = await ctl(c, 'POST', 'snapshots', { name: 'ok', nmae: 'x' });
    assert.equal(typo.status, 400);
    assert.equal(typo.json.issues[0].path, 'nmae');
    const unknown = await ctl(c, 'POST', 'snapshots/nope/restore');
    assert.equal(unknown.status, 404);
    assert.match(unknown.json.message, /nope/);
    assert.equal((await ctl(c, 'GET', 'snapshots/nope/restore')).status, 405);
    await sb.close();
  });

  it('reads stored records without a partner token, one bounded page at a time', async () => {
    const { sb, clients } = await startWith({}, ['ES256', 'ES256']);
    const [a, b] = clients as [Client, Client];
    for (let i = 0; i < 5; i++) await a.call('POST', '/tire-protection/registrations', tpRegistration(`A-${i}`));
    await b.call('POST', '/tire-protection/registrations', tpRegistration('B-0'));
    const seen: string[] = [];
    let after: string | undefined;
    do {
      const page = await ctl(a, 'GET', `records?kind=registrations&partner=P1001&limit=2${after ? `&after=${after}` : ''}`);
      assert.equal(page.status, 200, page.text);
      assert.ok(page.json.records.length <= 2);
      seen.push(...page.json.records.map((r: { invoice_number: string }) => r.invoice_number));
      after = page.json.next;
    } while (after);
    assert.deepEqual(seen.sort(), ['A-0', 'A-1', 'A-2', 'A-3', 'A-4']);
    for (const [q, field] of [['kind=nothing', 'query.kind'], ['kind=registrations&limit=1001', 'query.limit'], ['kind=registrations&after=zzz', 'query.after'], ['kind=registrations&pageSize=2', 'query.pageSize'], ['', 'query.kind']] as const) {
      const r = await ctl(a, 'GET', `records?${q}`);
      assert.equal(r.status, 400, q);
      assert.equal(r.json.issues[0].path, field, q);
    }
    await sb.close();
  });
});
