// History keeps each request's Exchange masked and capped, appended one line per request; rows read
// `POST /tire-protection/registrations → 201 · 184 ms · 10:42`.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Exchange } from '../../../src/core/exchange/types';
import { historyLabel, HistoryStore, MAX_STORED_BODY_CHARS, relativePath, storableExchange } from '../../../src/core/history/history';
import { CURRENT_FILE, HistoryLog } from '../../../src/core/history/historyLog';

const JWT = 'eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiI0MiJ9.c2lnbmF0dXJlc2lnbmF0dXJl';

function exchange(extra: Partial<Exchange> = {}): Exchange {
  return {
    id: 'x1',
    env: 'local',
    source: 'client',
    time: '2026-11-23T10:42:05.000Z',
    request: { method: 'POST', url: 'http://127.0.0.1:1/api/v3/tire-protection/registrations', headers: { authorization: `Bearer ${JWT}` }, body: JSON.stringify({ invoiceNumber: 'INV-1', note: JWT }) },
    response: { status: 201, headers: { 'content-type': 'application/json' }, body: '{"id":"abc"}', size: 12 },
    durationMs: 184,
    attempts: 1,
    ...extra,
  };
}

describe('history: exchanges', () => {
  it('masks every token of a stored exchange (headers and bodies)', () => {
    const x = storableExchange(exchange())!;
    const text = JSON.stringify(x);
    assert.ok(!text.includes(JWT.split('.')[2]!), text);
    assert.equal(x.request.headers?.authorization, 'Bearer [masked]');
    assert.match(x.request.body!, /INV-1/);
  });

  it(`cuts each body at ${MAX_STORED_BODY_CHARS} characters and flags it`, () => {
    const big = 'x'.repeat(MAX_STORED_BODY_CHARS + 10);
    const x = storableExchange(exchange({ request: { method: 'POST', url: 'http://h/api/v3/shops', body: big }, response: { status: 400, body: big } }))!;
    assert.equal(x.request.body!.length, MAX_STORED_BODY_CHARS);
    assert.equal(x.request.truncated, true);
    assert.equal(x.response!.body!.length, MAX_STORED_BODY_CHARS);
    assert.equal(x.response!.truncated, true);
    const small = storableExchange(exchange())!;
    assert.equal(small.request.truncated, undefined);
    assert.equal(small.response!.truncated, undefined);
  });

  it('refuses what is not an exchange, and keeps one without an answer', () => {
    assert.equal(storableExchange({ id: 'a' }), undefined);
    assert.equal(storableExchange('text'), undefined);
    const none = storableExchange(exchange({ response: undefined, problem: 'connect ECONNREFUSED' }))!;
    assert.equal(none.response, undefined);
    assert.equal(none.problem, 'connect ECONNREFUSED');
  });

  it('an entry keeps its exchange through the store and a JSON Lines round trip, appended one line per request', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tpp-hx-'));
    try {
      const log = HistoryLog.open(dir);
      log.append({ env: 'local', time: '2026-11-23T10:42:05.000Z', method: 'POST', path: '/api/v3/tire-protection/registrations', url: 'http://127.0.0.1:1/api/v3/tire-protection/registrations', status: 201, durationMs: 184, attempts: 1, exchange: exchange() });
      log.append({ env: 'local', time: '2026-11-23T10:43:05.000Z', method: 'GET', path: '/api/v3/verify-token', url: 'http://127.0.0.1:1/api/v3/verify-token', status: 200, durationMs: 5, attempts: 1 });
      return log.flushed().then(() => {
        const lines = readFileSync(join(dir, CURRENT_FILE), 'utf8').trim().split('\n');
        assert.equal(lines.length, 2);
        const again = HistoryLog.open(dir).list();
        assert.equal(again[1]!.exchange?.response?.body, '{"id":"abc"}');
        assert.equal(again[0]!.exchange, undefined);
        rmSync(dir, { recursive: true, force: true });
      });
    } catch (err) {
      rmSync(dir, { recursive: true, force: true });
      throw err;
    }
  });

  it('a history of 200 entries with their exchanges reads back from disk quickly (figure printed, not asserted)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tpp-hx-'));
    try {
      const log = HistoryLog.open(dir);
      const body = JSON.stringify({ invoiceNumber: 'INV-1', notes: 'n'.repeat(2000) });
      for (let i = 0; i < 200; i++) {
        const x = exchange({ id: `x${i}`, request: { method: 'POST', url: 'http://127.0.0.1:1/api/v3/tire-protection/registrations', body } });
        log.append({ env: 'local', time: x.time, method: 'POST', path: '/api/v3/tire-protection/registrations', url: x.request.url, status: 201, durationMs: 5, attempts: 1, exchange: x });
      }
      await log.flushed();
      const started = performance.now();
      const again = HistoryLog.open(dir);
      const labels = again.list('local').map(historyLabel);
      const ms = performance.now() - started;
      assert.equal(labels.length, 200);
      console.log(`      200 entries (about 2 KB of body each): read, masked and labelled in ${ms.toFixed(1)} ms (target ≤ 100 ms)`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('labels a row with the method, the path relative to the base address, status, duration and local time', () => {
    const h = new HistoryStore();
    const time = new Date(2026, 10, 23, 10, 42, 5).toISOString();
    const e = h.add({ env: 'local', time, method: 'POST', path: '/api/v3/tire-protection/registrations', url: 'u', status: 201, durationMs: 184.4, attempts: 1 });
    assert.equal(historyLabel(e), 'POST /tire-protection/registrations → 201 · 184 ms · 10:42');
    const f = h.add({ env: 'local', time, method: 'GET', path: '/api/v3/verify-token', url: 'u', error: 'ECONNREFUSED', durationMs: 3, attempts: 1 });
    assert.equal(historyLabel(f), 'GET /verify-token → ECONNREFUSED · 3 ms · 10:42');
    assert.equal(relativePath('/v2/partners/acme'), '/v2/partners/acme');
    assert.equal(relativePath('/api/v3'), '/');
    assert.equal(relativePath('/api/v1/vehicles/x?vin=1'), '/vehicles/x?vin=1');
    assert.equal(relativePath('/api/v30/x'), '/api/v30/x');
  });
});
