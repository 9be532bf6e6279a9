import * as assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { routePayload } from '../../../src/core/client/route';
import { kindFromSchemaUri, validatePayload } from '../../../src/core/contract';
import { diagnosePayload } from '../../../src/core/diagnostics/payload';
import { resolvePayloadVariables, variablesUsed } from '../../../src/core/variables';
import { EXAMPLES_DIR, exampleCaptures, resolvedExample } from './exampleScope';

/** Every example (docs/sending.md, `tpp send`) can be sent again and again, so each uses variables for what must be fresh or captured. */
describe('examples/ with variables', () => {
  const files = readdirSync(EXAMPLES_DIR).filter((f) => f.endsWith('.json')).sort();
  const read = (f: string) => JSON.parse(readFileSync(join(EXAMPLES_DIR, f), 'utf8')) as Record<string, unknown>;

  for (const file of files) {
    it(`${file}: no error in the editor or tpp validate, and it resolves to a body the contract accepts and that routes`, () => {
      const text = readFileSync(join(EXAMPLES_DIR, file), 'utf8');
      const d = diagnosePayload(text);
      assert.ok(d?.kind, file);
      assert.deepEqual(d.problems.filter((p) => p.code !== 'deprecated').map((p) => `${p.code}: ${p.message}`), []);
      const resolved = resolvedExample(read(file));
      assert.ok(!JSON.stringify(resolved).includes('{{'), 'nothing is left unresolved');
      const check = validatePayload(d.kind, resolved);
      assert.ok(check.success, JSON.stringify(!check.success && check.error.issues));
      const routed = routePayload(resolved, file);
      assert.ok('route' in routed, `${file} says which record it is for`);
    });
  }

  it('creates get fresh invoice numbers or ids on every send; dependants use the captures', () => {
    for (const f of ['tire-protection-registration.json', 'registration.json', 'motor-club-registration.json', 'shop.json', 'v2-registrations.json', 'v2-sales.json', 'tire-protection-claim.json']) {
      const json = read(f);
      const kind = kindFromSchemaUri(String(json.$schema));
      const a = JSON.stringify(resolvePayloadVariables(json, kind, { captured: exampleCaptures(), now: new Date('2026-01-01T00:00:00Z') }));
      const b = JSON.stringify(resolvePayloadVariables(json, kind, { captured: exampleCaptures(), now: new Date('2026-01-01T00:00:01Z') }));
      assert.notEqual(a, b, `${f} differs from one send to the next`);
    }
    assert.deepEqual(variablesUsed(read('tire-protection-claim.json')).filter((n) => !n.startsWith('$')), ['lastRegistration.id']);
    assert.deepEqual(variablesUsed(read('part.json')).filter((n) => !n.startsWith('$')), ['lastShop.uniqueId']);
    assert.deepEqual(variablesUsed(read('motor-club-customer.json')).filter((n) => !n.startsWith('$')), ['lastMotorClubRegistration.id']);
  });

  it('examples/README.md says which file to send first', () => {
    const readme = readFileSync(join(EXAMPLES_DIR, 'README.md'), 'utf8');
    for (const f of files) assert.ok(readme.includes(f), `README mentions ${f}`);
    assert.ok(readme.indexOf('tire-protection-registration.json') < readme.indexOf('tire-protection-claim.json'));
  });
});
