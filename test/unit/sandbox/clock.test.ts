import { strict as assert } from 'node:assert';
import { addMonths } from '../../../src/core/sandbox/model';
import { controlOpenApi } from '../../../src/core/sandbox/control/openapi';
import { clockBody, requestsFilters } from '../../../src/core/sandbox/control/schemas';
import { Client, request, startWith, tpRegistration, type Reply } from './helpers';

/**
 * The sandbox's test clock (docs/testing-your-application.md, Time and tokens; Control API reference): frozen, set to
 * an instant, moved; never back past a stored record; record ids, timestamps and expiry follow it.
 */
describe('Local sandbox: the test clock', function () {
  this.timeout(60_000);

  const ctl = (c: Client, method: string, path: string, body?: unknown): Promise<Reply> =>
    request(method, `${c.sb.origin}/__tpp/${path}`, method === 'POST' ? { 'content-type': 'application/json' } : {}, body === undefined ? undefined : JSON.stringify(body));
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
  /** The stored registrations, as the database holds them. */
  const stored = async (c: Client) => (await ctl(c, 'GET', 'records?kind=registrations')).json.records as { id: string; created_date: string; invoice_number: string }[];
  /** Unix seconds in the first 8 hex digits of an `_id`. */
  const idSeconds = (id: string) => Number.parseInt(id.slice(0, 8), 16);

  it('freeze holds now across requests; records made while frozen share its time yet have unique ids; unfreeze runs on from it', async () => {
    const { sb, clients } = await startWith();
    const c = clients[0] as Client;
    const frozen = await ctl(c, 'POST', 'clock', { freeze: true });
    assert.equal(frozen.status, 200, frozen.text);
    assert.equal(frozen.json.frozen, true);
    await pause(30);
    const again = (await ctl(c, 'GET', 'clock')).json;
    assert.equal(again.now, frozen.json.now, 'the frozen clock reads the same instant later');
    assert.equal(again.frozen, true);
    for (const n of ['F-1', 'F-2', 'F-3']) assert.equal((await c.call('POST', '/tire-protection/registrations', tpRegistration(n))).status, 201);
    const rows = await stored(c);
    assert.deepEqual(new Set(rows.map((r) => r.created_date)), new Set([frozen.json.now]), 'every record was created at the frozen instant');
    assert.equal(new Set(rows.map((r) => r.id)).size, 3, 'ids stay unique under a frozen clock');
    for (const r of rows) assert.equal(idSeconds(r.id), Math.floor(Date.parse(frozen.json.now) / 1000));
    const thawed = await ctl(c, 'POST', 'clock', { freeze: false });
    assert.equal(thawed.json.frozen, false);
    assert.ok(Date.parse(thawed.json.now) - Date.parse(frozen.json.now) < 5_000, 'runs on from the instant it held, not from real time');
    assert.ok(thawed.json.offsetSeconds < 0, 'it lags real time by the time it was frozen');
    await sb.close();
  });

  it('at sets an absolute instant (and with freeze holds it); a bad or far instant is a 400 naming at', async () => {
    const { sb, clients } = await startWith();
    const c = clients[0] as Client;
    const at = '2027-03-01T09:30:00.000Z';
    const set = await ctl(c, 'POST', 'clock', { at, freeze: true });
    assert.equal(set.status, 200, set.text);
    assert.deepEqual({ now: set.json.now, frozen: set.json.frozen }, { now: at, frozen: true });
    assert.equal((await ctl(c, 'GET', 'clock')).json.now, at);
    const moved = await ctl(c, 'POST', 'clock', { advanceSeconds: 60 });
    assert.equal(moved.json.now, '2027-03-01T09:31:00.000Z', 'a frozen clock advances by exactly the seconds asked and stays frozen');
    assert.equal(moved.json.frozen, true);
    const running = await ctl(c, 'POST', 'clock', { at: '2027-03-02T00:00:00+02:00', freeze: false });
    assert.ok(Math.abs(Date.parse(running.json.now) - Date.parse('2027-03-01T22:00:00Z')) < 5_000, running.text);
    for (const [body, field] of [
      [{ at: 'tomorrow' }, 'at'],
      [{ at: '2099-01-01T00:00:00Z' }, 'at'],
      [{ at: 20270301 }, 'at'],
      [{ at: '2027-03-01T00:00:00Z', advanceSeconds: 5 }, 'advanceSeconds'],
      [{ freeze: 'yes' }, 'freeze'],
      [{ frozen: true }, 'frozen'],
    ] as const) {
      const r = await ctl(c, 'POST', 'clock', body);
      assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.text}`);
      assert.deepEqual(r.json.issues.map((i: { path: string }) => i.path), [field], JSON.stringify(body));
    }
    assert.equal((await ctl(c, 'POST', 'reset')).status, 200);
    const reset = (await ctl(c, 'GET', 'clock')).json;
    assert.deepEqual({ offsetSeconds: reset.offsetSeconds, frozen: reset.frozen }, { offsetSeconds: 0, frozen: false }, 'reset: real time, running');
    await sb.close();
  });

  it('refuses to go back past the newest stored record (409 naming its time), allows going back short of it; reset still goes back', async () => {
    const { sb, clients } = await startWith();
    const c = clients[0] as Client;
    assert.equal((await ctl(c, 'POST', 'clock', { advanceSeconds: 3 * 86_400 })).status, 200);
    c.now = () => Date.now() + 3 * 86_400_000;
    assert.equal((await c.call('POST', '/tire-protection/registrations', tpRegistration('B-1'))).status, 201);
    const [record] = await stored(c);
    const newest = record?.created_date as string;
    const before = (await ctl(c, 'GET', 'clock')).json;
    for (const body of [{ advanceSeconds: -86_400 }, { offsetSeconds: 0 }, { at: new Date(Date.parse(newest) - 1000).toISOString() }]) {
      const r = await ctl(c, 'POST', 'clock', body);
      assert.equal(r.status, 409, `${JSON.stringify(body)}: ${r.text}`);
      assert.equal(r.json.newestRecord, newest);
      assert.equal(r.json.issues[0].path, Object.keys(body)[0]);
      assert.ok(r.json.message.includes(newest), r.json.message);
    }
    assert.ok(Math.abs((await ctl(c, 'GET', 'clock')).json.offsetSeconds - before.offsetSeconds) < 5, 'the clock did not move');
    assert.equal((await ctl(c, 'POST', 'clock', { advanceSeconds: 86_400 })).status, 200, 'forward is always allowed');
    assert.equal((await ctl(c, 'POST', 'clock', { advanceSeconds: -86_000 })).status, 200, 'back, but not past the record');
    assert.equal((await ctl(c, 'POST', 'reset')).status, 200);
    assert.equal((await ctl(c, 'GET', 'clock')).json.offsetSeconds, 0, 'reset empties the records and goes back to real time');
    await sb.close();
  });

  it('a registration created after advancing 30 days carries the moved time in its _id and created date; its expiry and WarrantyStatus follow the clock', async () => {
    const { sb, clients } = await startWith();
    const c = clients[0] as Client;
    const moved = (await ctl(c, 'POST', 'clock', { advanceSeconds: 30 * 86_400 })).json;
    c.now = () => Date.now() + moved.offsetSeconds * 1000;
    const sandboxNow = Date.parse(moved.now);
    const enrollDate = moved.now.slice(0, 10);
    const created = await c.call('POST', '/tire-protection/registrations', tpRegistration('T-30', 4, enrollDate));
    assert.equal(created.status, 201, created.text);
    const id = created.json.id as string;
    assert.ok(Math.abs(idSeconds(id) - sandboxNow / 1000) < 60, `the _id ${id} holds the moved time, not real time`);
    const [row] = await stored(c);
    assert.ok(Math.abs(Date.parse(row?.created_date ?? '') - sandboxNow) < 60_000, `created ${row?.created_date} is the moved time`);
    const status = async () => (await c.call('GET', '/v2/partners/partner1?rec=registrationstatus&invoicenumber=T-30')).json[0];
    const first = await status();
    assert.equal(first.WarrantyStatus, 1);
    assert.equal(first.ExpireDate, addMonths(new Date(enrollDate).toISOString(), 36));
    assert.ok(Math.abs(Date.parse(first.CreatedDate) - sandboxNow) < 60_000, first.CreatedDate);
    const past = (await ctl(c, 'POST', 'clock', { at: new Date(Date.parse(first.ExpireDate) + 86_400_000).toISOString() })).json;
    c.now = () => Date.now() + past.offsetSeconds * 1000;
    assert.equal((await status()).WarrantyStatus, 4, 'Expired once the clock passes its expiry');
    await sb.close();
  });

  it('the control OpenAPI export describes the clock body and the journal filters from the same zod schemas the sandbox checks', () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const paths = controlOpenApi().paths as any;
    const body = paths['/__tpp/clock'].post.requestBody.content['application/json'].schema;
    assert.deepEqual(Object.keys(body.properties), Object.keys(clockBody.shape));
    assert.deepEqual(Object.keys(body.properties), ['at', 'offsetSeconds', 'advanceSeconds', 'freeze']);
    assert.equal(body.additionalProperties, false, 'unknown properties are refused, as the sandbox does');
    assert.equal(body.properties.at.format, 'date-time');
    assert.ok(paths['/__tpp/clock'].post.responses['409'], 'going back past a stored record');
    const names = paths['/__tpp/requests'].get.parameters.map((p: { name: string }) => p.name);
    assert.deepEqual(names, Object.keys(requestsFilters));
    assert.ok(names.includes('fault'));
    assert.match(paths['/__tpp/requests'].get.summary, /body\.<field path>=<value>/);
  });
});
