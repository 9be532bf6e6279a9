import { strict as assert } from 'node:assert';
import { Client, request, startWith, tpRegistration, type Reply } from './helpers';

/**
 * The clock together with reset and the journal (docs/testing-your-application.md, Time and tokens; Control API
 * reference): a reset brings the clock back before it reloads the start's sample data, which keeps the instant it was
 * loaded at; a frozen clock's instant is the journal's time of a request; no number moves the clock into a 500.
 */
describe('Local sandbox: the clock, reset and the journal together', function () {
  this.timeout(60_000);

  const ctl = (origin: string, method: string, path: string, body?: unknown): Promise<Reply> =>
    request(method, `${origin}/__tpp/${path}`, method === 'POST' ? { 'content-type': 'application/json' } : {}, body === undefined ? undefined : JSON.stringify(body));
  const idSeconds = (id: string) => Number.parseInt(id.slice(0, 8), 16);

  it('a reset after a clock move reloads the start sample at its own instant: the clock may go back right after', async () => {
    // "Real time" is the test's: the sandbox started at T0 and ten seconds have passed when it resets.
    const T0 = Date.parse('2026-05-04T10:00:00.000Z');
    let real = T0;
    const { sb } = await startWith({ now: () => real, seedCount: 20 });
    const startRows = (await ctl(sb.origin, 'GET', 'records?kind=registrations&limit=1000')).json.records as { id: string; created_date: string }[];
    assert.ok(startRows.length >= 20);
    real = T0 + 10_000;
    assert.equal((await ctl(sb.origin, 'POST', 'clock', { advanceSeconds: 30 * 86_400 })).status, 200);
    const reset = await ctl(sb.origin, 'POST', 'reset');
    assert.equal(reset.status, 200, reset.text);
    assert.equal(reset.json.reloaded[0]?.registrations, startRows.length);
    const rows = (await ctl(sb.origin, 'GET', 'records?kind=registrations&limit=1000')).json.records as { id: string; created_date: string }[];
    assert.deepEqual(new Set(rows.map((r) => r.created_date)), new Set(startRows.map((r) => r.created_date)), 'stamped as at the start, not 30 days ahead');
    for (const r of rows) assert.equal(idSeconds(r.id), Math.floor(T0 / 1000), 'the seconds of each _id are the start');
    const clock = (await ctl(sb.origin, 'GET', 'clock')).json;
    assert.deepEqual({ offsetSeconds: clock.offsetSeconds, frozen: clock.frozen }, { offsetSeconds: 0, frozen: false });
    const back = await ctl(sb.origin, 'POST', 'clock', { advanceSeconds: -1 });
    assert.equal(back.status, 200, `going back one second right after a reset: ${back.text}`);
    const tooFar = await ctl(sb.origin, 'POST', 'clock', { advanceSeconds: -60 });
    assert.equal(tooFar.status, 409, 'never before the start sample');
    assert.equal(tooFar.json.newestRecord, new Date(T0).toISOString());
    await sb.close();
  });

  it("under a frozen clock a request's journal time is the frozen instant, which since= finds, as its record's", async () => {
    const { sb, clients } = await startWith();
    const c = clients[0] as Client;
    const at = '2027-01-31T12:00:00.000Z';
    assert.equal((await ctl(sb.origin, 'POST', 'clock', { at, freeze: true })).status, 200);
    c.now = () => Date.parse(at);
    const created = await c.call('POST', '/tire-protection/registrations', tpRegistration('FROZEN-1'));
    assert.equal(created.status, 201, created.text);
    const record = (await ctl(sb.origin, 'GET', 'records?kind=registrations')).json.records[0];
    assert.equal(record.created_date, at);
    const found = (await ctl(sb.origin, 'GET', `requests?since=${encodeURIComponent('2027-01-31T12:00:00Z')}`)).json;
    assert.equal(found.total, 1, JSON.stringify(found));
    assert.equal(found.entries[0].time, at);
    await sb.close();
  });

  it('no number moves the clock into a 500: every out-of-range move is a 400 naming its field, nothing changed', async () => {
    const { sb } = await startWith();
    const before = (await ctl(sb.origin, 'GET', 'clock')).json;
    for (const [body, field] of [
      [{ advanceSeconds: 1e20 }, 'advanceSeconds'],
      [{ advanceSeconds: -1e20 }, 'advanceSeconds'],
      [{ advanceSeconds: 1e308 }, 'advanceSeconds'],
      [{ offsetSeconds: 1e20 }, 'offsetSeconds'],
      [{ offsetSeconds: -1.7e308 }, 'offsetSeconds'],
      [{ advanceSeconds: 1e20, freeze: true }, 'advanceSeconds'],
      [{ at: '9999-12-31T23:59:59Z', freeze: true }, 'at'],
      [{ at: '0001-01-01T00:00:00Z' }, 'at'],
    ] as const) {
      const r = await ctl(sb.origin, 'POST', 'clock', body);
      assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.text}`);
      assert.deepEqual(r.json.issues.map((i: { path: string }) => i.path), [field], JSON.stringify(body));
      assert.match(r.json.message, /within ±10 years/);
    }
    const after = (await ctl(sb.origin, 'GET', 'clock')).json;
    assert.equal(after.frozen, false);
    assert.equal(before.offsetSeconds, 0);
    assert.ok(Math.abs(after.offsetSeconds) < 1, JSON.stringify(after));
    await sb.close();
  });
});
