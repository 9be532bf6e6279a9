// The setup checklist of an environment (spec: Base addresses, Authentication items 2–3): every
// item at once, one state for the tree, status bar and Get Started, and marks tied to the key and settings they
// were made with. Plain Node (no editor).
import * as assert from 'node:assert/strict';
import { baseUrlProblem, checklist, missingPrerequisites, setupDone, setupStateOf } from '../../../src/extension/services/environmentChecklist';

const FP = 'a'.repeat(64);
const BASE = 'https://sandbox.example.com/api/v3';

describe('environment setup checklist', () => {
  it('lists every missing item of an empty remote environment at once, in order', () => {
    const items = checklist({ env: 'sandbox', baseUrl: '', partnerId: '', marks: {} });
    assert.deepEqual(
      items.map((it) => `${it.id}:${it.state}`),
      ['baseUrl:missing', 'partnerId:missing', 'key:missing', 'publicKeyExported:missing', 'connection:missing'],
    );
    assert.deepEqual(missingPrerequisites(items).map((it) => it.title), ['Base address', 'Partner ID', 'Key pair']);
    assert.equal(setupStateOf(items), 'needsSetup');
    assert.equal(setupDone(items), false);
  });

  it('is ready once the prerequisites are there, and done once exported and verified for this key and these settings', () => {
    const base = { env: 'production' as const, fingerprint: FP, curve: 'P-256', baseUrl: BASE, partnerId: 'P-1' };
    assert.equal(setupStateOf(checklist({ ...base, marks: {} })), 'ready');
    assert.equal(setupDone(checklist({ ...base, marks: {} })), false);
    const verified = { fingerprint: FP, partnerId: 'P-1', baseUrl: BASE, at: '2026-11-23T12:00:00Z' };
    assert.equal(setupDone(checklist({ ...base, marks: { exported: FP, verified } })), true);
    // A verification made with another Partner ID, address or key no longer counts.
    for (const stale of [{ partnerId: 'P-2' }, { baseUrl: 'https://other.example.com/api/v3' }, { fingerprint: 'b'.repeat(64) }]) {
      const items = checklist({ ...base, marks: { exported: FP, verified: { ...verified, ...stale } } });
      assert.equal(items.find((it) => it.id === 'connection')?.state, 'missing', JSON.stringify(stale));
    }
    // During a rotation the key to export is the new one.
    const rotating = checklist({ ...base, exportFingerprint: 'c'.repeat(64), marks: { exported: FP, verified } });
    assert.equal(rotating.find((it) => it.id === 'publicKeyExported')?.state, 'missing');
  });

  it('Local needs only a key: address, Partner ID and export are automatic, and its Partner ID is shown', () => {
    const items = checklist({ env: 'local', localPartnerId: 'local-1a2b3c4d', marks: {} });
    assert.deepEqual(items.map((it) => it.state), ['automatic', 'automatic', 'missing', 'automatic', 'missing']);
    assert.equal(items.find((it) => it.id === 'partnerId')?.detail, 'local-1a2b3c4d');
    assert.deepEqual(missingPrerequisites(items).map((it) => it.id), ['key']);
    assert.equal(setupStateOf(checklist({ env: 'local', fingerprint: FP, marks: {} })), 'ready');
  });

  it('accepts only a version 3 base address', () => {
    assert.equal(baseUrlProblem(BASE), undefined);
    assert.equal(baseUrlProblem(`${BASE}/`), undefined);
    assert.equal(baseUrlProblem('http://127.0.0.1:4010/api/v3'), undefined);
    assert.match(baseUrlProblem('https://sandbox.example.com')!, /ends in \/api\/v3/);
    assert.match(baseUrlProblem('sandbox.example.com/api/v3')!, /absolute address/);
    assert.match(baseUrlProblem('ftp://sandbox.example.com/api/v3')!, /https/);
    assert.match(baseUrlProblem('https://u:p@sandbox.example.com/api/v3')!, /user name/);
    assert.match(baseUrlProblem(`${BASE}?x=1`)!, /query/);
  });
});
