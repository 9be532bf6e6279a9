import { strict as assert } from 'node:assert';
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { REQUEST_BODY_CAP, REQUEST_LOG_BYTES, RESPONSE_BODY_CAP, RequestLog, RequestLogEntry } from '../../../src/core/requestLog/requestLog';
import type { SandboxHandle } from '../../../src/core/sandbox/server';
import { request, startWith, tpRegistration, v2Registration } from './helpers';

/**
 * The Local sandbox's request log: one entry per answered request, a diagnosis per failure. Each
 * bad token is minted here with node:crypto, independently of the toolkit's minting and of the checklist it is
 * diagnosed with, and must be named by the rule it breaks.
 */

const HASH = { ES256: 'sha256', ES384: 'sha384', ES512: 'sha512' } as const;
const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');

/** A compact JWS with `header` and `claims`, signed by `key` with `hash`; `der` gives the DER form of the signature. */
function token(key: KeyObject, header: Record<string, unknown>, claims: Record<string, unknown>, opts: { hash?: string; der?: boolean } = {}): string {
  const input = `${b64(header)}.${b64(claims)}`;
  const sig = sign(opts.hash ?? 'sha256', Buffer.from(input), { key, dsaEncoding: opts.der ? 'der' : 'ieee-p1363' });
  return `${input}.${sig.toString('base64url')}`;
}

describe('Local sandbox: request log and its diagnosis', () => {
  let sb: SandboxHandle;
  let key: KeyObject;
  const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  const now = () => Math.floor(Date.now() / 1000);

  before(async () => {
    const started = await startWith({ requestLog: { limit: 50 } });
    sb = started.sb;
    key = (started.clients[0] as { key: { privateKey: KeyObject } }).key.privateKey;
  });
  after(async () => sb.close());

  /** Sends one request and resolves with its log entry (the log is fed after the answer went out). */
  async function logged(method: string, url: string, authorization: string | undefined, body?: string): Promise<RequestLogEntry> {
    const log = sb.requestLog as RequestLog;
    const entry = new Promise<RequestLogEntry>((resolve) => {
      const off = log.subscribe((e) => {
        off();
        resolve(e);
      });
    });
    await request(method, url, { ...(authorization ? { authorization } : {}), ...(body ? { 'content-type': 'application/json' } : {}) }, body);
    return entry;
  }
  const claims = (over: Record<string, unknown> = {}) => ({ iss: 'P1001', aud: sb.v3BaseUrl, iat: now(), exp: now() + 300, ...over });
  const header = (over: Record<string, unknown> = {}) => ({ alg: 'ES256', typ: 'JWT', ...over });
  const verify = (jwt: string) => logged('GET', `${sb.v3BaseUrl}/verify-token`, `Bearer ${jwt}`);

  it('logs a success with no diagnosis, and its partner', async () => {
    const e = await verify(token(key, header(), claims()));
    assert.equal(e.status, 200);
    assert.deepEqual(e.diagnosis, []);
    assert.equal(e.partner, 'P1001');
    assert.equal(e.method, 'GET');
    assert.equal(e.path, '/api/v3/verify-token');
    assert.ok(e.ms >= 0);
  });

  const cases: { rule: string; what: string; make: () => string; says: RegExp }[] = [
    { rule: 'format', what: 'two parts', make: () => 'eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJQMTAwMSJ9', says: /parts?/ },
    { rule: 'typ', what: 'typ "jwt"', make: () => token(key, header({ typ: 'jwt' }), claims()), says: /typ/ },
    { rule: 'alg', what: 'alg HS256', make: () => token(key, header({ alg: 'HS256' }), claims()), says: /ES256, ES384 or ES512/ },
    { rule: 'alg', what: "ES384 with the P-256 key", make: () => token(key, header({ alg: 'ES384' }), claims(), { hash: HASH.ES384 }), says: /P-256.*use ES256/ },
    { rule: 'aud', what: 'aud missing', make: () => token(key, header(), claims({ aud: undefined })), says: /aud is missing/ },
    { rule: 'iat', what: 'iat in milliseconds', make: () => token(key, header(), claims({ iat: Date.now() })), says: /milliseconds/ },
    { rule: 'iat', what: 'iat in the future', make: () => token(key, header(), claims({ iat: now() + 3600 })), says: /future/ },
    { rule: 'iat', what: 'iat 3 hours old', make: () => token(key, header(), claims({ iat: now() - 3 * 3600, exp: now() + 60 })), says: /2 hours/ },
    { rule: 'exp', what: 'exp passed', make: () => token(key, header(), claims({ iat: now() - 900, exp: now() - 600 })), says: /Expired/ },
    { rule: 'exp', what: 'exp 3 hours ahead', make: () => token(key, header(), claims({ exp: now() + 3 * 3600 })), says: /at most 2 hours ahead/ },
    { rule: 'iss', what: 'unknown iss', make: () => token(key, header(), claims({ iss: 'NOBODY' })), says: /"NOBODY" is not a Partner ID.*"P1001"/ },
    { rule: 'aud', what: 'aud with a trailing slash', make: () => token(key, header(), claims({ aud: `${sb.v3BaseUrl}/` })), says: /^Remove the trailing slash: aud is "http/ },
    { rule: 'aud', what: 'aud without /api/v3', make: () => token(key, header(), claims({ aud: sb.origin })), says: /^Add \/api\/v3/ },
    { rule: 'aud', what: 'aud naming another host', make: () => token(key, header(), claims({ aud: sb.v3BaseUrl.replace('127.0.0.1', 'localhost') })), says: /^A different host; mint the token with aud set to the base address exactly \(TPP_BASE_URL; TPP_AUDIENCE when the request goes through a proxy\): aud is "http:\/\/localhost/ },
    { rule: 'signature', what: 'signed by another key', make: () => token(other, header(), claims()), says: /another key/ },
    { rule: 'signature', what: 'DER signature', make: () => token(key, header(), claims(), { der: true }), says: /DER/ },
  ];
  for (const c of cases) {
    it(`401 ${c.what}: the diagnosis names ${c.rule} and says how to fix it`, async () => {
      const e = await verify(c.make());
      assert.equal(e.status, 401);
      assert.deepEqual(
        e.diagnosis.map((d) => d.rule),
        [c.rule],
        JSON.stringify(e.diagnosis),
      );
      assert.match(e.diagnosis[0]?.message ?? '', c.says);
    });
  }

  it('401 without an Authorization header names it', async () => {
    const e = await logged('GET', `${sb.v3BaseUrl}/verify-token`, undefined);
    assert.deepEqual(e.diagnosis.map((d) => d.rule), ['authorization']);
  });

  it('never keeps the token: the exchange has Bearer [masked] and no signature part', async () => {
    const jwt = token(key, header(), claims({ aud: `${sb.v3BaseUrl}/` }));
    const e = await verify(jwt);
    const text = JSON.stringify(e.exchange());
    assert.equal(e.exchange().request.headers?.authorization, 'Bearer [masked]');
    assert.ok(!text.includes(jwt.split('.')[2] as string));
    assert.ok(!text.includes(jwt.split('.')[1] as string));
    assert.equal(e.exchange().source, 'sandbox-log');
    assert.equal(e.partner, 'P1001');
  });

  const good = () => `Bearer ${token(key, header(), claims())}`;

  it('400: the editor\'s payload diagnostics of the body sent, rule = the JSON path (a 3-decimal v2 money value)', async () => {
    const body = { Registrations: [{ ...v2Registration('S1', `INV-${Date.now()}`), TirePrice: 189.999 }] };
    const jwtV2 = `Bearer ${token(key, header(), claims({ aud: sb.origin }))}`;
    const e = await logged('POST', `${sb.origin}/v2/partners/partner1`, jwtV2, JSON.stringify(body));
    assert.equal(e.status, 400, JSON.stringify(e.exchange().response));
    const money = e.diagnosis.find((d) => d.rule === 'Registrations[0].TirePrice');
    assert.ok(money, JSON.stringify(e.diagnosis));
    assert.equal(money.code, 'money');
    assert.deepEqual(money.path, ['Registrations', 0, 'TirePrice']);
    assert.match(money.message, /2 decimals/);
    assert.equal(e.exchange().request.body, JSON.stringify(body));
  });

  it('400 of a v3 body names the bad field', async () => {
    const body = { ...tpRegistration(`INV-${Date.now()}`), enrollDate: 'yesterday' };
    const e = await logged('POST', `${sb.v3BaseUrl}/tire-protection/registrations`, good(), JSON.stringify(body));
    assert.equal(e.status, 400);
    assert.ok(e.diagnosis.some((d) => d.rule === 'enrollDate'), JSON.stringify(e.diagnosis));
  });

  it('404 says what was not found; 409 links the registration it conflicts with', async () => {
    const nf = await logged('GET', `${sb.v3BaseUrl}/tire-protection/registrations/nope`, good());
    assert.equal(nf.status, 404);
    assert.deepEqual(nf.diagnosis.map((d) => d.rule), ['not-found']);
    assert.match(nf.diagnosis[0]?.message ?? '', /nope/);

    const body = JSON.stringify(tpRegistration(`INV-DUP-${Date.now()}`));
    const url = `${sb.v3BaseUrl}/tire-protection/registrations`;
    const first = await logged('POST', url, good(), body);
    assert.equal(first.status, 201);
    const created = JSON.parse(first.exchange().response?.body ?? '{}') as { _id?: string; id?: string };
    const dup = await logged('POST', url, good(), body);
    assert.equal(dup.status, 409);
    assert.equal(dup.diagnosis[0]?.rule, 'conflict');
    assert.equal(dup.diagnosis[0]?.record?.id, created._id ?? created.id);
  });

  it('keeps at most `limit` entries, oldest dropped first', () => {
    const log = new RequestLog({ limit: 3 });
    const seen: number[] = [];
    log.subscribe((e) => seen.push(e.status));
    for (const status of [200, 201, 400, 401, 404]) {
      // Entries built from the smallest raw request: only the ring is under test.
      log.add(new RequestLogEntry({ method: 'GET', url: 'http://h/p', path: '/p', headers: {}, status, responseHeaders: {}, ms: 1 }, [], Date.now()));
    }
    assert.deepEqual(log.list().map((e) => e.status), [400, 401, 404]);
    assert.deepEqual(seen, [200, 201, 400, 401, 404]);
    assert.throws(() => new RequestLog({ limit: 0 }), RangeError);
  });

  it('keeps at most `maxBytes` of entries (bodies, URL and an allowance), oldest dropped first; the newest always kept', () => {
    const entry = (status: number, body: string) => new RequestLogEntry({ method: 'POST', url: 'http://h/p', path: '/p', headers: {}, body, status, responseHeaders: {}, ms: 1 }, [], Date.now());
    const one = entry(200, 'x'.repeat(4000)).bytes;
    assert.ok(one > 4000 && one < 6000, `an entry's estimate counts its body and an allowance: ${one}`);
    const log = new RequestLog({ limit: 100, maxBytes: 3 * one });
    for (const status of [200, 201, 202, 203, 204]) log.add(entry(status, 'x'.repeat(4000)));
    assert.deepEqual(log.list().map((e) => e.status), [202, 203, 204], 'three entries fit');
    log.add(entry(205, 'y'.repeat(REQUEST_BODY_CAP)));
    assert.deepEqual(log.list().map((e) => e.status), [205], 'an entry larger than the bound is kept alone');
    log.clear();
    log.add(entry(206, 'x'.repeat(4000)));
    assert.deepEqual(log.list().map((e) => e.status), [206]);
    assert.throws(() => new RequestLog({ maxBytes: 0 }), RangeError);
    assert.equal(new RequestLog().maxBytes, REQUEST_LOG_BYTES);
  });

  it('holds a cut body as a string of its own, not a view of the whole (which would keep the whole alive)', () => {
    const raw = (i: number, body: string) => ({ method: 'POST', url: 'http://h/p', path: '/p', headers: {}, body, status: 201, responseHeaders: {}, responseBody: `{"n":${i}}`.padEnd(RESPONSE_BODY_CAP * 2, ' '), ms: 1 });
    const wide = new RequestLogEntry(raw(0, `é€${'a'.repeat(REQUEST_BODY_CAP * 2)}`), [], Date.now()).exchange();
    assert.equal(wide.request.body, `é€${'a'.repeat(REQUEST_BODY_CAP - 2)}`, 'cut at the cap, every character kept');
    assert.equal(wide.response?.truncated, true);
    // 40 bodies of 1 MiB each: held as views they would keep 40 MiB alive after a full GC, cut copies 2 MiB.
    v8.setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    gc();
    const before = process.memoryUsage().heapUsed;
    const kept = Array.from({ length: 40 }, (_, i) => new RequestLogEntry(raw(i, String(i).padEnd(1024 * 1024, 'a')), [], Date.now()));
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    assert.equal(kept.length, 40);
    assert.ok(grown < 12 * 1024 * 1024, `${(grown / 1048576).toFixed(1)} MiB held for 40 entries`);
  });
});

describe('Local sandbox: request log of injected faults', () => {
  it('says a 5xx was injected by the fault option', async () => {
    const { sb, clients } = await startWith({ requestLog: {}, faults: { errorRate: 1, seed: 1 } });
    try {
      const entry = new Promise<RequestLogEntry>((resolve) => sb.requestLog?.subscribe(resolve));
      const r = await clients[0]!.call('GET', '/verify-token');
      assert.ok(r.status >= 500);
      const e = await entry;
      assert.deepEqual(e.diagnosis.map((d) => d.rule), ['fault']);
      assert.match(e.diagnosis[0]?.message ?? '', /--fault-rate/);
    } finally {
      await sb.close();
    }
  });
});
