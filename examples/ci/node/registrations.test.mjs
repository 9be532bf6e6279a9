// An integrator's tests of its own application (partner-client.mjs) against the Local sandbox's control API.
// Run: node --test registrations.test.mjs
import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import { ApiError } from './partner-client.mjs';
import { startSandbox } from './sandbox.mjs';

const REGISTRATIONS = '/api/v3/tire-protection/registrations';
const today = () => new Date().toISOString().slice(0, 10);
const registration = (invoiceNumber) => ({
  product_id: 'tire-protection',
  invoiceNumber,
  enrollDate: today(),
  customer: { name: 'Ava Garcia', email: 'ava@example.com' },
  vehicle: { year: 2021, make: 'Toyota', model: 'RAV4' },
  tires: Array.from({ length: 4 }, () => ({ make: 'Michelin', model: 'Defender2', size: '225/65R17', retailPrice: 189.99 })),
});
const claim = () => ({
  serviceInvoiceNumber: 'SVC-1',
  serviceInvoiceDate: today(),
  vehicleMileage: 12000,
  damageReason: 'Puncture',
  damageDescription: 'Nail in tread',
  authorizedAmount: 150,
  tires: [{ original: { make: 'Michelin', model: 'Defender2', size: '225/65R17' } }],
});

let sandbox;
before(async () => {
  sandbox = await startSandbox();
});
after(() => sandbox?.stop());
beforeEach(() => sandbox.reset());

test('a create is received exactly once', async () => {
  await sandbox.client().register(registration('JS-1001'));
  const journal = await sandbox.control('GET', `requests?method=POST&path=${REGISTRATIONS}`);
  assert.equal(journal.total, 1);
  assert.equal(journal.entries[0].status, 201);
  assert.equal(JSON.parse(journal.entries[0].request.body).invoiceNumber, 'JS-1001');
  assert.equal(journal.entries[0].request.headers.authorization, 'Bearer [masked]');
});

test('a 503 is retried and the registration stored once', async () => {
  await sandbox.control('POST', 'faults', { method: 'POST', path: REGISTRATIONS, fault: 503, times: 1 });
  await sandbox.client().register(registration('JS-1002'));
  const { entries } = await sandbox.control('GET', `requests?method=POST&path=${REGISTRATIONS}`);
  assert.deepEqual(entries.map((e) => e.status), [503, 201]);
  const listed = await sandbox.client().send('GET', '/tire-protection/registrations?invoiceNumber=JS-1002');
  assert.equal(listed.totalRecordCount, 1, 'the retry stored no duplicate');
});

test('a claim after expiry is refused with 409', async () => {
  const client = sandbox.client();
  const id = await client.register(registration('JS-1003'));
  const moved = await sandbox.control('POST', 'clock', { advanceSeconds: 37 * 31 * 86_400 }); // past the 36-month term
  sandbox.offsetMs = moved.offsetSeconds * 1000; // the application's clock moves with it
  await assert.rejects(client.claim(id, claim()), (err) => err instanceof ApiError && err.status === 409);
});

test('a broken token is diagnosed', async () => {
  const broken = sandbox.client({ audience: sandbox.origin }); // the version 2 aud: wrong for version 3 calls
  await assert.rejects(broken.register(registration('JS-1004')), (err) => err instanceof ApiError && err.status === 401);
  const [entry] = (await sandbox.control('GET', 'requests?status=401')).entries;
  assert.ok(entry.diagnosis.some((d) => d.rule === 'aud'), JSON.stringify(entry.diagnosis));
});
