import { strict as assert } from 'node:assert';
import { RequestLog, RequestLogEntry } from '../../../src/core/requestLog/requestLog';
import type { SandboxHandle } from '../../../src/core/sandbox/server';
import { mint, newKey, request, startWith, tpRegistration, v2Registration, type TestKey } from './helpers';
import { eventually } from '../eventually';

/**
 * The request log publishes entries in the order the answers were sent, whatever order their diagnoses finish in
 * (a payload diagnosis loads the contract, a 401 checklist does not), and a diagnosis that never finishes holds
 * back the entries after it only for the order wait.
 */

const raw = (path: string, status: number) => ({ method: 'GET', url: `http://x${path}`, path, headers: {}, status, responseHeaders: {}, ms: 1 });

describe('Local sandbox: request log order', () => {
  it('five failing requests sent one after another appear in --log json in the order they were answered', async () => {
    const key: TestKey = newKey();
    const { sb } = await startWith({ requestLog: {} });
    const started: SandboxHandle = sb;
    try {
      await started.registerPartner('P2001', key.spkiPem, 'order');
      const lines: string[] = [];
      started.requestLog?.subscribe((e) => lines.push(JSON.stringify(e.line())));
      const v3 = started.v3BaseUrl;
      const bearer = (aud: string, over: { iat?: number } = {}) => `Bearer ${mint(key, { iss: 'P2001', aud, ...over })}`;
      const json = { 'content-type': 'application/json' };
      // Cold payload diagnoses first, quick token checklists after them: without ordering, the 401s overtake.
      const sent: [string, number][] = [];
      const send = async (method: string, url: string, headers: Record<string, string>, body?: unknown) => {
        const r = await request(method, url, headers, body === undefined ? undefined : JSON.stringify(body));
        sent.push([new URL(url).pathname, r.status]);
      };
      await send('POST', `${started.origin}/v2/partners/order`, { ...json, authorization: bearer(started.origin) }, { Registrations: [{ ...v2Registration('S1', 'INV-O1'), TirePrice: 1.999 }] });
      await send('GET', `${v3}/verify-token`, { authorization: bearer(v3, { iat: Date.now() }) });
      await send('POST', `${v3}/tire-protection/registrations`, { ...json, authorization: bearer(v3) }, { ...tpRegistration('INV-O2'), enrollDate: 'yesterday' });
      await send('GET', `${v3}/verify-token`, { authorization: bearer(`${v3}/`) });
      await send('GET', `${v3}/tire-protection/registrations/nope`, { authorization: bearer(v3) });
      assert.deepEqual(sent.map(([, s]) => s), [400, 401, 400, 401, 404]);
      await eventually(() => lines.length >= 5);
      const logged = lines.map((l) => JSON.parse(l) as { path: string; status: number; diagnosis: unknown[] });
      assert.deepEqual(logged.map((l) => [l.path, l.status]), sent);
      assert.ok(logged.every((l) => l.diagnosis.length > 0), 'every failure keeps its diagnosis');
    } finally {
      await started.close();
    }
  });

  it('publishes filled places in order, and gives up a place not filled within the order wait', async () => {
    const log = new RequestLog({ orderWaitMs: 50 });
    const seen: string[] = [];
    log.subscribe((e) => seen.push(e.path));
    const [a, b, c] = [log.reserve(), log.reserve(), log.reserve()];
    c(new RequestLogEntry(raw('/c', 400), [], Date.now()));
    b(new RequestLogEntry(raw('/b', 401), [], Date.now()));
    assert.deepEqual(seen, [], 'nothing before the first answer is published');
    a(new RequestLogEntry(raw('/a', 404), [], Date.now()));
    assert.deepEqual(seen, ['/a', '/b', '/c']);

    const [slow, quick] = [log.reserve(), log.reserve()];
    quick(new RequestLogEntry(raw('/quick', 200), [], Date.now()));
    await new Promise((r) => setTimeout(r, 120));
    assert.deepEqual(seen.slice(3), ['/quick'], 'a diagnosis that never ends stalls the log only for the order wait');
    slow(new RequestLogEntry(raw('/slow', 401), [], Date.now()));
    assert.deepEqual(seen.slice(3), ['/quick', '/slow'], 'a late entry is still logged');
  });

  it('settled(): waits until every place taken is published (a journal read sees the call just answered), at most its limit', async () => {
    let now = 0;
    const log = new RequestLog({ now: () => now });
    let done = false;
    const settle = (limitMs: number) => ((done = false), log.settled(limitMs).then(() => (done = true)));
    /** Lets settled() poll a few times. */
    const polls = async () => {
      for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 5));
    };

    const place = log.reserve(); // an answer went out; its diagnosis is running
    const diagnosed = settle(60_000);
    await polls();
    assert.equal(done, false, 'it waits for the diagnosis');
    place(new RequestLogEntry(raw('/diagnosed', 401), [], Date.now()));
    await diagnosed;
    assert.deepEqual(log.list().map((e) => e.path), ['/diagnosed'], 'the entry is there once settled');

    log.reserve(); // never filled
    const limited = settle(60);
    now += 59;
    await polls();
    assert.equal(done, false, 'a place never filled holds a read until the limit');
    now += 1;
    await polls();
    assert.equal(done, true, '... and no longer');
    await limited;
  });
});
