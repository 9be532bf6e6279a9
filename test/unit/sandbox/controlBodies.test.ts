import { strict as assert } from 'node:assert';
import { request as httpRequest } from 'node:http';
import { startSandbox } from '../../../src/core/sandbox/server';
import { Client, request, startWith, track, tpRegistration, v2Registration, type Reply } from './helpers';

/**
 * Bodies of control calls (docs/testing-your-application.md, Control API reference; Security): an empty JSON body is
 * no body on every bind, a body sent to a call that takes none is refused by name, and the field paths of the journal's
 * and the faults' body filters are read in either notation the sandbox writes.
 */
describe('Local sandbox: control call bodies and field paths', function () {
  this.timeout(60_000);

  /** A request with exactly these headers and body (fetch adds or drops some). */
  const raw = (origin: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Reply> =>
    new Promise((resolve, reject) => {
      const url = new URL(origin + path);
      const req = httpRequest({ host: url.hostname, port: url.port, method, path: url.pathname + url.search, headers: { ...headers, 'content-length': String(Buffer.byteLength(body ?? '')) } }, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: new Headers(), text, json: text ? JSON.parse(text) : undefined }));
      });
      req.on('error', reject);
      req.end(body);
    });
  const json = { 'content-type': 'application/json' };
  const ctl = (origin: string, method: string, path: string, body?: unknown): Promise<Reply> =>
    request(method, `${origin}/__tpp/${path}`, method === 'POST' ? json : {}, body === undefined ? undefined : JSON.stringify(body));

  it('off loopback without a token, the documented reset (Content-Type, no body) answers 404 as with {}', async () => {
    const sb = track(await startSandbox({ host: '0.0.0.0' }));
    const origin = `http://127.0.0.1:${new URL(sb.origin).port}`;
    const empty = await raw(origin, 'POST', '/__tpp/reset', json);
    const braces = await raw(origin, 'POST', '/__tpp/reset', json, '{}');
    assert.equal(empty.status, 404, empty.text);
    assert.equal(braces.status, 404, braces.text);
    assert.equal(empty.json.message, braces.json.message);
    await sb.close();
  });

  it('a partner POST with only its Content-Type is a 400 naming the missing body, not malformed JSON', async () => {
    const { sb, clients } = await startWith();
    const r = await (clients[0] as Client).call('POST', '/tire-protection/registrations', undefined, { rawBody: '' , contentType: 'application/json' });
    assert.equal(r.status, 400, r.text);
    assert.match(r.json.message, /JSON body is required/);
    await sb.close();
  });

  it('a body sent to a call that takes none is a 400 naming body, and nothing is done; an empty one is none', async () => {
    const { sb, clients } = await startWith();
    const c = clients[0] as Client;
    assert.equal((await c.call('POST', '/tire-protection/registrations', tpRegistration('SNAP-1'))).status, 201);
    assert.equal((await ctl(sb.origin, 'POST', 'snapshots', { name: 'base' })).status, 201);
    assert.equal((await c.call('POST', '/tire-protection/registrations', tpRegistration('SNAP-2'))).status, 201);
    const body = '{"keepClock":true}';
    for (const [method, path] of [
      ['POST', '/__tpp/snapshots/base/restore'],
      ['DELETE', '/__tpp/snapshots/base'],
      ['DELETE', '/__tpp/requests'],
      ['DELETE', '/__tpp/faults'],
      ['GET', '/__tpp/requests'],
      ['GET', '/__tpp/faults'],
      ['GET', '/__tpp/clock'],
      ['GET', '/__tpp/snapshots'],
      ['GET', '/__tpp/records?kind=registrations'],
      ['GET', '/__tpp/health'],
    ] as const) {
      const r = await raw(sb.origin, method, path, json, body);
      assert.equal(r.status, 400, `${method} ${path}: ${r.text}`);
      assert.deepEqual(r.json.issues.map((i: { path: string }) => i.path), ['body'], `${method} ${path}`);
    }
    assert.equal((await ctl(sb.origin, 'GET', 'records?kind=registrations')).json.records.length, 2, 'the restore was not done');
    assert.equal((await ctl(sb.origin, 'GET', 'snapshots')).json.snapshots.length, 1, 'the snapshot was not deleted');
    const restored = await raw(sb.origin, 'POST', '/__tpp/snapshots/base/restore', json);
    assert.equal(restored.status, 200, restored.text);
    assert.equal((await ctl(sb.origin, 'GET', 'records?kind=registrations')).json.records.length, 1);
    await sb.close();
  });

  it('journal and fault body filters take a field path with dots or brackets; the diagnosis writes brackets', async () => {
    const { sb, clients } = await startWith();
    const c = clients[0] as Client;
    const bad = tpRegistration('PATH-1');
    (bad.tires as Record<string, unknown>[])[0]!.retailPrice = 'free';
    const refused = await c.call('POST', '/tire-protection/registrations', bad);
    assert.equal(refused.status, 400);
    assert.ok(refused.json.issues.some((i: { path: string }) => i.path === 'tires.0.retailPrice'), refused.text);
    const [entry] = (await ctl(sb.origin, 'GET', 'requests')).json.entries;
    assert.ok(entry.diagnosis.some((d: { rule: string }) => d.rule === 'tires[0].retailPrice'), JSON.stringify(entry.diagnosis));
    for (const filter of ['body.tires.0.retailPrice=free', 'body.tires[0].retailPrice=free']) {
      assert.equal((await ctl(sb.origin, 'GET', `requests?${filter}`)).json.total, 1, filter);
    }
    assert.equal((await ctl(sb.origin, 'GET', 'requests?body.tires[1].retailPrice=free')).json.total, 0);
    const v2 = await ctl(sb.origin, 'POST', 'faults', { path: '/v2/**', fault: 503, body: { 'Registrations[0].ShopID': 'S9' } });
    assert.equal(v2.status, 201, v2.text);
    const sent = await c.call('POST', '/v2/partners/partner1', { Registrations: [v2Registration('S9', 'V2-PATH')] });
    assert.equal(sent.status, 503, sent.text);
    await sb.close();
  });

  it('scheduled fault ids start at 1 again after a reset, as after the start', async () => {
    const { sb } = await startWith();
    const path = '/api/v3/tire-protection/registrations';
    const first = (await ctl(sb.origin, 'POST', 'faults', [{ path, fault: 503 }, { path, fault: 500 }])).json.scheduled;
    assert.deepEqual(first.map((f: { id: number }) => f.id), [1, 2]);
    assert.equal((await ctl(sb.origin, 'POST', 'reset')).status, 200);
    const again = (await ctl(sb.origin, 'POST', 'faults', { path, fault: 503 })).json.scheduled;
    assert.deepEqual(again.map((f: { id: number }) => f.id), [1]);
    await sb.close();
  });

  it('a fault without path is a 400 naming path (there is no default path, as the reference says)', async () => {
    const { sb } = await startWith();
    const r = await ctl(sb.origin, 'POST', 'faults', { method: 'POST', fault: 503 });
    assert.equal(r.status, 400, r.text);
    assert.deepEqual(r.json.issues.map((i: { path: string }) => i.path), ['path']);
    await sb.close();
  });

  it("a version 2 fixture's registrations are listed in the seed's answer with their ids", async () => {
    const { sb } = await startWith();
    const r = await ctl(sb.origin, 'POST', 'seed', [{ $schema: 'tpp://schemas/v2-registrations.json', Registrations: [v2Registration('S1', 'V2-A'), v2Registration('S1', 'V2-B')] }]);
    assert.equal(r.status, 201, r.text);
    const stored = (await ctl(sb.origin, 'GET', 'records?kind=registrations')).json.records as { id: string; invoice_number: string }[];
    assert.deepEqual(
      r.json.registrations,
      ['V2-A', 'V2-B'].map((inv, i) => ({ index: 0, id: stored.find((s) => s.invoice_number === inv)?.id, invoiceNumber: inv, record: i })),
    );
    await sb.close();
  });
});
