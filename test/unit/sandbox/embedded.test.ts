import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedSandbox } from '../../../src/core/sandbox/embedded';
import * as server from '../../../src/core/sandbox/server';
import { Client, newKey, TestKey } from './helpers';

/** The embedded Local sandbox: lazy start, key registration under the Local Partner ID, persistence, stop. */
describe('Local sandbox: embedded (Local environment)', () => {
  let dir: string;
  const made: EmbeddedSandbox[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tpp-embedded-'));
  });
  afterEach(async () => {
    for (const e of made.splice(0)) await e.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  function make(key: () => TestKey | undefined, loads: { n: number }) {
    return remember(new EmbeddedSandbox({
      load: () => {
        loads.n++;
        return server;
      },
      partnerId: 'local-test1',
      dataDir: dir,
      publicKey: async () => key()?.spkiPem,
    }));
  }
  function remember(e: EmbeddedSandbox): EmbeddedSandbox {
    made.push(e);
    return e;
  }

  it('starts lazily and once, on 127.0.0.1 at a free port, with the Local key registered', async () => {
    const loads = { n: 0 };
    const k = newKey('ES256');
    const e = make(() => k, loads);
    assert.equal(loads.n, 0, 'nothing loaded before first use');
    assert.equal(e.info, undefined);
    const [i1, i2] = await Promise.all([e.ensureStarted(), e.ensureStarted()]);
    assert.equal(loads.n, 1);
    assert.deepEqual(i1, i2);
    assert.match(i1.v3BaseUrl, /^http:\/\/127\.0\.0\.1:\d+\/api\/v3$/);
    assert.equal(i1.partnerId, 'local-test1');
    const c = new Client(i1 as never, 'local-test1', k);
    assert.deepEqual((await c.call('GET', '/verify-token')).json, { partner_id: 'local-test1', name: 'local' });
    assert.equal((await c.call('GET', `/v2/partners/${i1.companyName}?rec=registrations`)).status, 200);
    await e.stop();
    await assert.rejects(e.ensureStarted(), /stopped/);
  });

  it('follows key changes (syncKey) and keeps data in the data directory across restarts', async () => {
    const ref: { k?: TestKey } = {};
    const e = make(() => ref.k, { n: 0 });
    const info = await e.ensureStarted();
    await assert.rejects(e.loadSampleData(), /no key pair/);
    const k = newKey('ES384');
    ref.k = k;
    await e.syncKey();
    const c = new Client(info as never, 'local-test1', k);
    assert.equal((await c.call('GET', '/verify-token')).status, 200);
    const s = await e.loadSampleData(20);
    assert.ok(s.registrations >= 20);
    const k2 = newKey('ES256');
    await e.registerPublicKey(k2.spkiPem);
    assert.equal((await c.call('GET', '/verify-token')).status, 401, 'the old key no longer works');
    await e.stop();

    const again = make(() => k2, { n: 0 });
    const info2 = await again.ensureStarted();
    const c2 = new Client(info2 as never, 'local-test1', k2);
    const list = await c2.call('GET', '/tire-protection/registrations?pageSize=1');
    assert.equal(list.json.totalRecordCount, s.registrations, 'data survived the restart');
    await again.stop();
  });

  it('a failed start is retried on the next use', async () => {
    let fail = true;
    const e = remember(new EmbeddedSandbox({
      load: () => {
        if (fail) throw new Error('boom');
        return server;
      },
      partnerId: 'local-x',
      publicKey: async () => undefined,
    }));
    await assert.rejects(e.ensureStarted(), /boom/);
    fail = false;
    assert.match((await e.ensureStarted()).origin, /^http:\/\/127\.0\.0\.1:/);
    await e.stop();
  });
});
