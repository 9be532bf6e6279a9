// The editor's part of an exchange's description, added by its send path (spec: Errors; Authentication): a 401's
// JWT checklist of the token sent, failing rules first; a 409's conflicting record in place of the server's message.
// Plain Node (no editor): the reads are stubs.
import * as assert from 'node:assert/strict';
import { exchangeEndpoint } from '../../../src/core/exchange/endpoint';
import type { Exchange } from '../../../src/core/exchange/types';
import type { JwtInspection } from '../../../src/core/jwt/inspect';
import { EditorDiagnosisReads, withEditorDiagnosis } from '../../../src/extension/services/editorDiagnosis';

const BASE = 'http://127.0.0.1:1/api/v3';

function exchange(status: number, endpointId: string, path: string, body?: unknown, over: Partial<Exchange> = {}): Exchange {
  const url = `${BASE}${path}`;
  const endpoint = exchangeEndpoint(endpointId, url);
  return {
    id: 'x1',
    env: 'local',
    source: 'client',
    time: '2026-11-27T10:00:00Z',
    ...(endpoint ? { endpoint } : {}),
    request: { method: 'POST', url, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) },
    response: { status, body: JSON.stringify({ message: 'server says no' }) },
    durationMs: 1,
    attempts: 1,
    diagnosis: [{ rule: 'status', message: 'Server: server says no' }],
    ...over,
  };
}

/** Reads that record what they were asked. */
function reads(rows: unknown[] = [], checks: JwtInspection['checks'] = [], record: unknown = undefined) {
  const asked: { lists: unknown[]; reads: unknown[]; tokens: string[] } = { lists: [], reads: [], tokens: [] };
  const r: EditorDiagnosisReads = {
    list: (env, id, query) => (asked.lists.push({ env, id, query }), Promise.resolve({ results: rows })),
    read: (env, id, registrationId) => (asked.reads.push({ env, id, registrationId }), record === undefined ? Promise.reject(new Error('404')) : Promise.resolve(record)),
    inspect: (_env, token) => (asked.tokens.push(token), Promise.resolve({ checks } as unknown as JwtInspection)),
  };
  return { r, asked };
}

const check = (id: string, status: 'pass' | 'fail' | 'skip') => ({ id, rule: `rule ${id}`, status, detail: status === 'fail' ? 'wrong' : undefined }) as unknown as JwtInspection['checks'][number];

describe('the editor part of a description (send path)', () => {
  it("a 401 gets the JWT checklist of the token sent, failing rules first, after the producer's items", async () => {
    const { r, asked } = reads([], [check('iat', 'pass'), check('aud', 'skip'), check('signature', 'fail')]);
    const x = await withEditorDiagnosis(r, exchange(401, 'verifyToken', '/verify-token'), 'tok.en.sent');
    assert.deepEqual(asked.tokens, ['tok.en.sent']);
    assert.deepEqual(x.diagnosis!.map((d) => `${d.rule}:${d.status ?? ''}`), ['status:', 'signature:fail', 'aud:skip', 'iat:pass']);
    assert.equal(x.diagnosis![1]!.message, 'rule signature — wrong');
  });

  it('a 401 without the token says it is no longer in memory; a logged 401 (sandbox, proxy) is left as its producer described it', async () => {
    const { r, asked } = reads();
    const gone = await withEditorDiagnosis(r, exchange(401, 'verifyToken', '/verify-token'), undefined);
    assert.match(gone.diagnosis!.at(-1)!.message, /no longer in memory/);
    const logged = exchange(401, 'verifyToken', '/verify-token', undefined, { source: 'sandbox-log' });
    assert.equal(await withEditorDiagnosis(r, logged, 'tok'), logged);
    assert.deepEqual(asked.tokens, []);
  });

  it('a failing inspection is one item saying why, never a throw', async () => {
    const r: EditorDiagnosisReads = { list: () => Promise.resolve({}), read: () => Promise.resolve({}), inspect: () => Promise.reject(new Error('no key pair')) };
    const x = await withEditorDiagnosis(r, exchange(401, 'verifyToken', '/verify-token'), 'tok');
    assert.match(x.diagnosis!.at(-1)!.message, /could not be inspected: no key pair/);
  });

  it("a 409 create lists the registration with that invoice and store, in place of the server's message", async () => {
    const { r, asked } = reads([{ _id: 'r-1' }, { noId: true }]);
    const x = await withEditorDiagnosis(r, exchange(409, 'createTireProtectionRegistration', '/tire-protection/registrations', { invoiceNumber: 'INV-9', storeNumber: 'S1' }), 'tok');
    assert.deepEqual(asked.lists, [{ env: 'local', id: 'listTireProtectionRegistrations', query: { invoiceNumber: 'INV-9', storeNumber: 'S1' } }]);
    assert.deepEqual(x.diagnosis!.map((d) => [d.rule, d.record?.id, d.record?.invoiceNumber]), [['conflict', 'r-1', 'INV-9']]);
  });

  it("a 409 the proxy logged (its conflict named without a record) gets the looked-up record in that item's place", async () => {
    const { r } = reads([{ _id: 'r-2' }]);
    const logged = exchange(409, 'createTireProtectionRegistration', '/tire-protection/registrations', { invoiceNumber: 'INV-7' }, { env: 'sandbox', source: 'proxy-log', diagnosis: [{ rule: 'conflict', message: 'A registration with invoiceNumber INV-7 already exists.' }] });
    const x = await withEditorDiagnosis(r, logged, undefined);
    assert.deepEqual(x.diagnosis!.map((d) => [d.rule, d.record?.id]), [['conflict', 'r-2']]);
  });

  it('a 409 to a claim or a cancellation names its registration by invoice number, as the rest of the editor does (one read)', async () => {
    const { r, asked } = reads([], [], { _id: 'r-7', invoiceNumber: 'INV-1042', cancelledOn: '2026-11-27T10:00:00.000Z' });
    const claim = await withEditorDiagnosis(r, exchange(409, 'createTireProtectionClaim', '/tire-protection/registrations/r-7/claims', { tires: 1 }), 'tok');
    assert.deepEqual(claim.diagnosis!.map((d) => [d.rule, d.record?.kind, d.record?.id, d.record?.label, d.record?.invoiceNumber]), [['conflict', 'tire-protection', 'r-7', 'Invoice INV-1042', 'INV-1042']]);
    assert.equal(claim.diagnosis![0]!.message, 'The request conflicts with the state of registration INV-1042 (it was cancelled on 2026-11-27).');
    assert.deepEqual(asked.reads, [{ env: 'local', id: 'getTireProtectionRegistration', registrationId: 'r-7' }]);
    assert.deepEqual(asked.lists, []);
    const mc = await withEditorDiagnosis(r, exchange(409, 'cancelMotorClubRegistration', '/motor-club/registrations/m-3', { cancelledOn: '2026-11-27' }), 'tok');
    assert.equal(mc.diagnosis![0]!.record?.kind, 'motor-club');
    assert.deepEqual(asked.reads.at(-1), { env: 'local', id: 'getMotorClubRegistration', registrationId: 'm-3' });
  });

  it('a 409 whose registration cannot be read names it by id; an unknown environment or a failed lookup leaves the exchange as it is', async () => {
    const { r } = reads();
    const claim = await withEditorDiagnosis(r, exchange(409, 'createTireProtectionClaim', '/tire-protection/registrations/r-7/claims', { tires: 1 }), 'tok');
    assert.deepEqual(claim.diagnosis!.map((d) => [d.rule, d.record?.id, d.record?.label]), [['conflict', 'r-7', 'Registration r-7']]);
    const cli = exchange(409, 'createTireProtectionRegistration', '/tire-protection/registrations', { invoiceNumber: 'INV-9' }, { env: 'cli' });
    assert.equal(await withEditorDiagnosis(r, cli, 'tok'), cli);
    const failing: EditorDiagnosisReads = { list: () => Promise.reject(new Error('down')), read: r.read, inspect: r.inspect };
    const create = exchange(409, 'createTireProtectionRegistration', '/tire-protection/registrations', { invoiceNumber: 'INV-9' });
    assert.equal(await withEditorDiagnosis(failing, create, 'tok'), create);
  });
});
