import * as assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import { HISTORY_LIMIT, HistoryStore, MAX_STORED_BODY_CHARS, NewHistoryEntry, storableBody } from '../../../src/core/history/history';

const b64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
function realJwt(): string {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const input = `${b64url({ alg: 'ES256', typ: 'JWT' })}.${b64url({ iss: '42', aud: 'http://127.0.0.1/api/v3', iat: 1, exp: 2 })}`;
  return `${input}.${sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
}

function entry(i: number, extra: Partial<NewHistoryEntry> = {}): NewHistoryEntry {
  return {
    env: i % 2 ? 'local' : 'sandbox',
    time: new Date(Date.UTC(2026, 10, 21, 12, 0, i % 60)).toISOString(),
    method: 'GET',
    path: `/api/v3/tire-protection/registrations?page=${i}`,
    url: `http://127.0.0.1:1/api/v3/tire-protection/registrations?page=${i}`,
    status: 200,
    durationMs: 10 + i,
    attempts: 1,
    ...extra,
  };
}

describe('request history', () => {
  it(`keeps only the newest ${HISTORY_LIMIT} entries, newest first`, () => {
    const h = new HistoryStore();
    for (let i = 0; i < HISTORY_LIMIT + 25; i++) h.add(entry(i));
    assert.equal(h.size, HISTORY_LIMIT);
    const list = h.list();
    assert.equal(list[0]!.path, `/api/v3/tire-protection/registrations?page=${HISTORY_LIMIT + 24}`);
    assert.equal(list.at(-1)!.path, '/api/v3/tire-protection/registrations?page=25');
  });

  it('lists per environment', () => {
    const h = new HistoryStore(10);
    for (let i = 0; i < 6; i++) h.add(entry(i));
    assert.deepEqual(
      h.list('local').map((e) => e.env),
      ['local', 'local', 'local'],
    );
    assert.equal(h.list('production').length, 0);
    h.clear('local');
    assert.equal(h.size, 3);
  });

  it('masks tokens in the URL, the error, the query and the body; never keeps an Authorization value', () => {
    const jwt = realJwt();
    const h = new HistoryStore();
    const e = h.add(
      entry(1, {
        url: `http://127.0.0.1/x?token=${jwt}`,
        path: `/x?access_token=${jwt}`,
        error: `Bearer ${jwt} refused`,
        replay: { endpointId: 'lookupShop', query: { query: jwt }, bodyJson: storableBody({ note: `Bearer ${jwt}`, nested: { password: 'hunter2' } }) },
      }),
    );
    const text = JSON.stringify(h.toJSON());
    assert.ok(!text.includes(jwt.split('.')[1]!), text);
    assert.ok(!text.includes('hunter2'), text);
    assert.match(e.error!, /Bearer \[masked\]/);
    assert.ok(e.replay?.bodyJson?.includes('[masked]'));
  });

  it('round-trips through JSON (as extension storage does) and re-masks what it reads', () => {
    const h = new HistoryStore();
    h.add(entry(1, { method: 'POST', status: 201, attempts: 2, replay: { endpointId: 'createTireProtectionRegistration', bodyJson: '{"invoiceNumber":"INV-1"}' } }));
    h.add(entry(2, { status: undefined, error: 'ECONNREFUSED' }));
    const restored = HistoryStore.fromJSON(JSON.parse(JSON.stringify(h.toJSON())));
    assert.deepEqual(restored.list(), h.list());
    assert.equal(restored.get(h.list()[1]!.id)?.replay?.endpointId, 'createTireProtectionRegistration');
    const jwt = realJwt();
    const tampered = { version: 1, entries: [{ ...h.list()[0], path: `/p?x=${jwt}` }] };
    assert.ok(!JSON.stringify(HistoryStore.fromJSON(tampered).toJSON()).includes(jwt.split('.')[2]!));
  });

  it('skips damaged stored data instead of throwing, and applies the limit on restore', () => {
    assert.equal(HistoryStore.fromJSON(undefined).size, 0);
    assert.equal(HistoryStore.fromJSON('garbage').size, 0);
    const mixed = { entries: [entry(1), { nope: true }, 42, null, entry(2), entry(3)] };
    assert.equal(HistoryStore.fromJSON(mixed).size, 3);
    assert.equal(HistoryStore.fromJSON(mixed, 2).size, 2);
  });

  it('refuses an entry without its required fields, and a bad limit', () => {
    const h = new HistoryStore();
    assert.throws(() => h.add({ ...entry(1), method: undefined as unknown as string }), TypeError);
    assert.throws(() => new HistoryStore(0), RangeError);
  });

  it('drops a body too large to keep, so storage stays small', () => {
    assert.equal(storableBody({ s: '1'.repeat(MAX_STORED_BODY_CHARS) }), undefined);
    assert.equal(storableBody({ s: 'x'.repeat(50000) }), JSON.stringify({ s: 'x'.repeat(50000) }), 'a long letter run under the limit is kept');
    assert.equal(storableBody(undefined), undefined);
    assert.equal(storableBody({ a: 1 }), '{"a":1}');
  });
});
