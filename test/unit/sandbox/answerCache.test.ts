import { strict as assert } from 'node:assert';
import { AnswerCache, readsOnly, recordKey } from '../../../src/core/sandbox/db/answerCache';
import { AnswerWarmer } from '../../../src/core/sandbox/answerWarmer';
import { claim, Client, newKey, postgresDatabaseOrSkip, request, startWith, tpRegistration, v2Registration } from './helpers';

/**
 * The answer cache of the embedded sandbox (docs/sandbox.md, Storage): a read answered from it is never stale, whatever
 * wrote since (partner API v3 and v2, claims, cancellations, control API seed and reset), and it stays within its bound.
 */
describe('Local sandbox: answer cache', function () {
  this.timeout(60_000);

  it('keeps an answer until a write starts; one built while a write ran or started is not kept', async () => {
    const cache = new AnswerCache();
    let builds = 0;
    const build = async () => `"${++builds}"`;
    assert.equal(await cache.through('a', build), '"1"');
    assert.equal(await cache.through('a', build), '"1"', 'kept');
    cache.beginWrite();
    assert.equal(await cache.through('a', build), '"2"', 'dropped when the write started');
    assert.equal(await cache.through('a', build), '"3"', 'not kept while the write runs');
    cache.endWrite();
    const during = cache.through('a', async () => {
      cache.beginWrite(); // a write starts while this answer is built
      cache.endWrite();
      return build();
    });
    assert.equal(await during, '"4"');
    assert.equal(await cache.through('a', build), '"5"', 'the answer built across a write was not kept');
    assert.equal(await cache.through('a', build), '"5"');
    await assert.rejects(cache.through('b', async () => Promise.reject(new Error('404'))), /404/);
    assert.equal(cache.size, 1, 'a failed build keeps nothing');
  });

  it('holds at most its bound of characters, least recently used dropped first; an answer over its share is sent, not kept', async () => {
    const cache = new AnswerCache(16 * 1024, 1024);
    const text = 'x'.repeat(900);
    for (let i = 0; i < 40; i++) await cache.through(`k${i}`, async () => text);
    assert.ok(cache.heldChars <= 16 * 1024, `${cache.heldChars} characters held`);
    assert.ok(cache.size > 0 && cache.size < 40, `${cache.size} kept`);
    await cache.through('k39', async () => 'rebuilt'); // most recent: still there
    assert.equal(await cache.through('k39', async () => 'rebuilt'), text);
    assert.equal(await cache.through('k0', async () => 'rebuilt'), 'rebuilt', 'the oldest went first');
    await cache.through('big', async () => 'y'.repeat(2000));
    assert.equal(await cache.through('big', async () => 'again'), 'again');
    // At the default bound: a page of 50 registrations (~530 characters each in a list) is kept, a page of 1,000 is
    // not, so that exporting every record in pages of 1,000 leaves the bound to the reads by id warming fills.
    const real = new AnswerCache();
    await real.through('page of 50', async () => 'r'.repeat(50 * 530));
    assert.equal(await real.through('page of 50', async () => 'rebuilt'), 'r'.repeat(50 * 530));
    await real.through('page of 1000', async () => 'p'.repeat(1000 * 530));
    assert.equal(await real.through('page of 1000', async () => 'rebuilt'), 'rebuilt');
  });

  it('a write that says what it changes drops only that: list pages, and the reads by id of the one registration named', async () => {
    const cache = new AnswerCache();
    const keep = (key: string, page = false) => cache.through(key, async () => `"${key}"`, page);
    const [a, b] = [recordKey('P1', 'tire-protection registration', 'a'), recordKey('P1', 'registration', 'b')];
    const [aOld, other] = [recordKey('P1', 'registration', 'a'), recordKey('P2', 'tire-protection registration', 'a')];
    for (const k of [a, b, aOld, other]) await keep(k);
    await keep('page 1', true);
    const epoch = cache.epoch;
    cache.beginWrite({ partner: 'P1' }); // a create
    cache.endWrite({ partner: 'P1' });
    assert.equal(cache.size, 4, 'a create drops the list pages only');
    assert.equal(await cache.through('page 1', async () => 'rebuilt', true), 'rebuilt');
    cache.beginWrite({ partner: 'P1', id: 'a' }); // a claim on a
    cache.endWrite({ partner: 'P1', id: 'a' });
    assert.equal(await cache.through(a, async () => 'rebuilt'), 'rebuilt', 'both views of a');
    assert.equal(await cache.through(aOld, async () => 'rebuilt'), 'rebuilt');
    assert.equal(await cache.through('page 1', async () => 'rebuilt again', true), 'rebuilt again');
    assert.equal(await cache.through(b, async () => 'rebuilt'), `"${b}"`, 'another registration stays');
    assert.equal(await cache.through(other, async () => 'rebuilt'), `"${other}"`, 'another partner’s a stays');
    assert.equal(cache.epoch, epoch, 'never emptied whole');
    cache.beginWrite();
    cache.endWrite();
    assert.equal(cache.size, 0, 'a write without a scope empties it');
    assert.ok(cache.epoch > epoch);
  });

  it('counts as a read only a plain SELECT without sequences or locks', () => {
    for (const sql of ['SELECT id FROM tpp.registrations WHERE partner = $1', ' select 1']) assert.ok(readsOnly(sql), sql);
    for (const sql of [
      'INSERT INTO tpp.claims VALUES ($1)',
      'WITH pos AS (UPDATE tpp.partners SET n = n + 1) INSERT INTO x SELECT 1',
      'UPDATE tpp.registrations SET cancelled_on = $1',
      'TRUNCATE tpp.registrations',
      "SELECT setval('tpp.claim_id_seq', 1)",
      "SELECT nextval('tpp.claim_id_seq')",
      'SELECT pg_advisory_xact_lock(1)',
      'SELECT * FROM tpp.registrations FOR UPDATE',
    ]) {
      assert.ok(!readsOnly(sql), sql);
    }
  });

  it('never answers a stale read: every write path is seen by the next read by id and list page', async () => {
    const { sb, clients } = await startWith();
    const c = clients[0] as Client;
    const ctl = (method: string, path: string, body?: unknown) =>
      request(method, `${sb.origin}/__tpp/${path}`, method === 'POST' ? { 'content-type': 'application/json' } : {}, body === undefined ? undefined : JSON.stringify(body));
    try {
      const id = (await c.call('POST', '/tire-protection/registrations', tpRegistration('AC-1'))).json.id as string;
      const read = async () => (await c.call('GET', `/tire-protection/registrations/${id}`)).json;
      const list = async () => (await c.call('GET', '/tire-protection/registrations?pageSize=10')).json;
      const old = async () => (await c.call('GET', `/registrations/${id}`)).json;
      // Read twice each (the second from the cache), then write, then read.
      for (let i = 0; i < 2; i++) assert.deepEqual((await read()).claims, []);
      for (let i = 0; i < 2; i++) assert.equal((await list()).totalRecordCount, 1);
      for (let i = 0; i < 2; i++) assert.equal((await old()).cancelledOn, undefined);
      const cached = await c.call('GET', `/tire-protection/registrations/${id}`);
      assert.equal(cached.headers.get('content-type'), 'application/json; charset=utf-8');

      const id2 = (await c.call('POST', '/tire-protection/registrations', tpRegistration('AC-2'))).json.id as string;
      assert.equal((await list()).totalRecordCount, 2, 'a create');
      for (let i = 0; i < 2; i++) assert.equal((await c.call('GET', `/tire-protection/registrations/${id2}`)).json.cancelledOn, undefined);
      assert.equal((await c.call('PATCH', '/tire-protection/registrations?invoiceNumber=AC-2', { cancelledOn: new Date().toISOString() })).status, 204);
      assert.ok((await c.call('GET', `/tire-protection/registrations/${id2}`)).json.cancelledOn, 'a cancellation by invoice number');

      for (let i = 0; i < 2; i++) assert.deepEqual((await read()).claims, []);
      assert.equal((await c.call('POST', `/tire-protection/registrations/${id}/claims`, claim(1))).status, 201);
      assert.equal((await read()).claims.length, 1, 'a claim');

      assert.equal((await c.call('PATCH', `/tire-protection/registrations/${id}`, { cancelledOn: new Date().toISOString() })).status, 204);
      assert.ok((await read()).cancelledOn, 'a cancellation, tire-protection view');
      assert.ok((await old()).cancelledOn, 'a cancellation, earlier-revision view');

      assert.equal((await c.call('POST', '/v2/partners/partner1', { Registrations: [v2Registration('S1', 'V2-1', 2)] })).status, 200);
      for (let i = 0; i < 2; i++) assert.equal((await list()).totalRecordCount, 3, 'a version 2 create');
      const v2id = ((await list()).results as { _id: string; invoiceNumber: string }[]).find((r) => r.invoiceNumber === 'V2-1')?._id;
      for (let i = 0; i < 2; i++) assert.equal((await c.call('GET', `/tire-protection/registrations/${v2id}`)).json.tires.length, 2);
      assert.equal((await c.call('POST', '/v2/partners/partner1', { Registrations: [v2Registration('S1', 'V2-1', 5)] })).status, 200);
      assert.equal((await c.call('GET', `/tire-protection/registrations/${v2id}`)).json.tires.length, 5, 'a version 2 resend');

      assert.equal((await ctl('POST', 'seed', { count: 4 })).status, 201);
      assert.ok((await list()).totalRecordCount > 3, 'a control API seed');
      assert.equal((await ctl('POST', 'reset')).status, 200);
      assert.equal((await c.call('GET', `/tire-protection/registrations/${id}`)).status, 404, 'a control API reset');
      assert.equal((await list()).totalRecordCount, 0);
    } finally {
      await sb.close();
    }
  });

  it('keeps each partner to its own records: a key names the partner', async () => {
    const { sb, clients } = await startWith({}, ['ES256', 'ES256']);
    const [a, b] = clients as [Client, Client];
    try {
      const id = (await a.call('POST', '/tire-protection/registrations', tpRegistration('OWN-1'))).json.id as string;
      for (let i = 0; i < 2; i++) assert.equal((await a.call('GET', `/tire-protection/registrations/${id}`)).status, 200);
      assert.equal((await b.call('GET', `/tire-protection/registrations/${id}`)).status, 404);
      assert.equal((await b.call('GET', '/tire-protection/registrations')).json.totalRecordCount, 0);
    } finally {
      await sb.close();
    }
  });

  it('warms the answers of reads by id in the background: the same text a read answers, within its share of the bound, never across a write', async () => {
    const { sb, clients } = await startWith();
    const c = clients[0] as Client;
    try {
      const ids: string[] = [];
      for (let i = 0; i < 20; i++) ids.push((await c.call('POST', '/tire-protection/registrations', tpRegistration(`W-${i}`))).json.id);
      assert.equal((await c.call('POST', `/tire-protection/registrations/${ids[2]}/claims`, claim(2))).status, 201);
      const warmed = async (cache: AnswerCache, want: number) => {
        const warmer = new AnswerWarmer(sb.context, cache, () => ['P1001'], 0);
        warmer.schedule();
        for (let i = 0; i < 100 && cache.size < want; i++) await new Promise((r) => setTimeout(r, 50));
        await new Promise((r) => setTimeout(r, 100));
        warmer.stop();
      };
      const cache = new AnswerCache();
      await warmed(cache, ids.length);
      assert.equal(cache.size, ids.length);
      for (const id of ids) {
        const kept = await cache.through(recordKey('P1001', 'tire-protection registration', id), async () => 'not warmed');
        assert.equal(kept, (await c.call('GET', `/tire-protection/registrations/${id}`)).text);
      }
      const small = new AnswerCache(16_000, 1000); // room for ~14 of the 20 answers within its warming share (0.75)
      await warmed(small, ids.length);
      assert.ok(small.size > 5 && small.size < ids.length && small.heldChars <= 0.75 * small.maxChars + 1000, `${small.size} answers, ${small.heldChars} characters`);
      const writing = new AnswerCache();
      writing.beginWrite();
      await warmed(writing, 1);
      assert.equal(writing.size, 0, 'nothing warmed while a write runs');
    } finally {
      await sb.close();
    }
  });

  it('keeps nothing on a shared PostgreSQL server: two sandboxes on one database each read the other’s writes at once', async function () {
    const database = await postgresDatabaseOrSkip(this);
    const key = newKey();
    const partner = { id: 'P1001', spkiPem: key.spkiPem, name: 'partner1' };
    const one = await startWith({ database, partners: [partner] }, []);
    const two = await startWith({ database, partners: [partner] }, []);
    const [a, b] = [new Client(one.sb, 'P1001', key), new Client(two.sb, 'P1001', key)];
    try {
      const id = (await a.call('POST', '/tire-protection/registrations', tpRegistration('PG-1'))).json.id as string;
      for (let i = 0; i < 2; i++) assert.deepEqual((await b.call('GET', `/tire-protection/registrations/${id}`)).json.claims, []);
      for (let i = 0; i < 2; i++) assert.equal((await b.call('GET', '/tire-protection/registrations')).json.totalRecordCount, 1);
      assert.equal((await a.call('POST', `/tire-protection/registrations/${id}/claims`, claim(1))).status, 201);
      assert.equal((await b.call('GET', `/tire-protection/registrations/${id}`)).json.claims.length, 1, 'the other sandbox’s claim');
      assert.equal((await a.call('POST', '/tire-protection/registrations', tpRegistration('PG-2'))).status, 201);
      assert.equal((await b.call('GET', '/tire-protection/registrations')).json.totalRecordCount, 2, 'the other sandbox’s create');
      for (let i = 0; i < 2; i++) assert.equal((await a.call('GET', `/tire-protection/registrations/${id}`)).json.cancelledOn, undefined);
      assert.equal((await b.call('PATCH', `/tire-protection/registrations/${id}`, { cancelledOn: new Date().toISOString() })).status, 204);
      assert.ok((await a.call('GET', `/tire-protection/registrations/${id}`)).json.cancelledOn, 'the other sandbox’s cancellation');
      const second = (await a.call('GET', '/tire-protection/registrations')).json.results[1]._id as string;
      assert.equal((await a.call('GET', `/tire-protection/registrations/${second}`)).status, 200);
      assert.equal((await request('POST', `${two.sb.origin}/__tpp/reset`, { 'content-type': 'application/json' })).status, 200, 'the other sandbox empties the database');
      assert.equal((await a.call('GET', `/tire-protection/registrations/${second}`)).status, 404, 'nothing read before is answered for a record gone');
    } finally {
      await one.sb.close();
      await two.sb.close();
    }
  });
});
