import { strict as assert } from 'node:assert';
import { Client, request, startWith } from './helpers';

/**
 * A sandbox that loads its sample data before it is ready (`tpp sandbox --seed-count`) answers while it loads
 * (docs/testing-your-application.md, The fixture pattern): health 503 `starting` with `Retry-After: 1`, partner routes
 * 503 with nothing processed, then ready. The load gives the event loop a turn between its statements, so these
 * answers come before the load ends (asserted by order, not by time).
 */
describe('Local sandbox: starting while its sample data loads', function () {
  this.timeout(120_000);

  it('answers health 503 starting and partner routes 503 (Retry-After: 1) before the load ends, then ready', async () => {
    const { sb, clients } = await startWith({ admin: { starting: true } });
    const c = clients[0] as Client;
    const order: string[] = [];
    const load = sb.loadSampleData('P1001', 6000).then((s) => (order.push('loaded'), s));
    const health = await request('GET', `${sb.origin}/__tpp/health`, {});
    order.push('health');
    const partner = await c.call('GET', '/tire-protection/registrations');
    order.push('partner');
    assert.equal(health.status, 503, health.text);
    assert.equal(health.json.status, 'starting');
    assert.equal(health.headers.get('retry-after'), '1');
    assert.equal(partner.status, 503, partner.text.slice(0, 200));
    assert.equal(partner.headers.get('retry-after'), '1');
    assert.match(partner.json.message, /starting/);
    const loaded = await load;
    assert.deepEqual(order, ['health', 'partner', 'loaded'], 'both answered while the sample data was loading');
    assert.equal(loaded.registrations, 6000 + 25);
    sb.setReady();
    assert.equal((await request('GET', `${sb.origin}/__tpp/health`, {})).json.status, 'ready');
    const listed = await c.call('GET', '/tire-protection/registrations?pageSize=1');
    assert.equal(listed.status, 200, listed.text);
    assert.ok(listed.json.totalRecordCount >= 6000, listed.text);
    const journal = (await request('GET', `${sb.origin}/__tpp/requests?status=503`, {})).json;
    assert.equal(journal.entries[0]?.diagnosis[0]?.rule, 'starting', JSON.stringify(journal.entries[0]?.diagnosis));
    await sb.close();
  });
});
