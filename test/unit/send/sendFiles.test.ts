/**
 * sendFiles (src/core/send/sendFiles.ts): the variable hooks the editor's variables module plugs into
 * (`resolve` before routing, `capture` after each 2xx, `--var` pairs in their scope), the order of files, the
 * derived base addresses; and sameRecord's matching rules for the duplicate check.
 */
import assert from 'node:assert/strict';
import { createPublicKey } from 'node:crypto';
import { deriveBaseUrls } from '../../../src/core/environments';
import { sendFiles } from '../../../src/core/send/sendFiles';
import { sameClaim, sameRegistration } from '../../../src/core/client/sameRecord';
import type { PayloadKind } from '../../../src/core/contract/types';
import { generateKeyMaterial, type KeyMaterial } from '../../../src/core/jwt/keys';
import { startSandbox, type SandboxHandle } from '../../../src/core/sandbox/server';

describe('sendFiles and its hooks', function () {
  this.timeout(30_000);
  let sb: SandboxHandle;
  let key: KeyMaterial;
  before(async () => {
    key = await generateKeyMaterial('P-521');
    sb = await startSandbox({ partners: [{ id: 'P-HOOKS', spkiPem: createPublicKey(key.pkcs8Pem).export({ type: 'spki', format: 'pem' }).toString() }] });
  });
  after(async () => sb?.close());

  const files: Record<string, unknown> = {
    'a.json': {
      $schema: 'tpp://schemas/tire-protection-registration.json',
      product_id: 'TPP',
      invoiceNumber: '{{invoice}}',
      enrollDate: '2025-03-01',
      customer: { name: 'A', email: 'a@example.com' },
      vehicle: { year: 2021, make: 'Ford', model: 'F' },
      tires: [{ make: 'M', model: 'D', size: '1', retailPrice: 1 }],
    },
    'b.json': {
      $schema: 'tpp://schemas/tire-protection-claim.json',
      $registrationId: '{{lastRegistration.id}}',
      serviceInvoiceNumber: 'RO-H-1',
      tires: [{ original: { make: 'M', model: 'D', size: '1' } }],
    },
    'c.json': { $schema: 'tpp://schemas/tire-protection-claim.json', $registrationId: '{{$bad}}', serviceInvoiceNumber: 'RO-H-2', tires: [] },
  };

  it('calls resolve before routing (with the kind and the --var scope), sends in order, captures after each 2xx', async () => {
    const captured: Record<string, string> = {};
    const seen: string[] = [];
    const substitute = (v: unknown, vars: Record<string, string>): unknown =>
      typeof v === 'string'
        ? v.replace(/\{\{([^}]+)\}\}/g, (_m, name: string) => {
            const value = vars[name] ?? captured[name];
            if (value === undefined) throw new Error(`unknown variable {{${name}}}`);
            return value;
          })
        : Array.isArray(v)
          ? v.map((x) => substitute(x, vars))
          : v && typeof v === 'object'
            ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, substitute(x, vars)]))
            : v;
    const r = await sendFiles(['a.json', 'b.json', 'c.json'], {
      baseUrls: deriveBaseUrls(sb.v3BaseUrl),
      partnerId: 'P-HOOKS',
      privateKeyPem: key.pkcs8Pem,
      vars: { invoice: 'HOOK-1' },
      readText: (p) => JSON.stringify(files[p]),
      resolve: (value, kind: PayloadKind, scope) => {
        seen.push(`resolve ${kind}`);
        assert.equal(scope.baseUrl, sb.v3BaseUrl);
        return substitute(value, scope.vars as Record<string, string>);
      },
      capture: (kind, sent, body) => {
        seen.push(`capture ${kind}`);
        if (kind === 'tire-protection-registration') captured['lastRegistration.id'] = String((body as { id: string }).id);
        assert.ok(sent && typeof sent === 'object' && !('$schema' in sent), 'the body as sent, without meta');
      },
    });
    assert.deepEqual(seen, ['resolve tire-protection-registration', 'capture tire-protection-registration', 'resolve tire-protection-claim', 'capture tire-protection-claim', 'resolve tire-protection-claim']);
    assert.deepEqual(r.results.map((x) => x.exitCode), [0, 0, 2]);
    assert.match(r.results[2]?.message ?? '', /Not sent: c\.json: unknown variable \{\{\$bad\}\}/);
    assert.equal(r.exitCode, 2);
    assert.equal(JSON.parse(r.results[0]?.exchange?.request.body ?? '{}').invoiceNumber, 'HOOK-1');
    assert.match(r.results[1]?.exchange?.request.url ?? '', new RegExp(`/registrations/${captured['lastRegistration.id']}/claims$`));
  });

  it('derives the version 2 and eligibility bases from the version 3 base', () => {
    assert.deepEqual(deriveBaseUrls('https://api.example.com/api/v3/'), { v3: 'https://api.example.com/api/v3', v2: 'https://api.example.com', eligibility: 'https://api.example.com/api/v1' });
    assert.throws(() => deriveBaseUrls('https://api.example.com/api'), /ending in \/api\/v3/);
    assert.throws(() => deriveBaseUrls('nope'), /absolute address/);
  });
});

describe('sameRecord: is a stored record the create that was sent?', () => {
  const reg = { invoiceNumber: 'INV-1', enrollDate: '2025-03-01', customer: { name: 'Ada', email: 'ada@example.com' } };
  it('registrations: invoice number (and store number) must match; other fields where both have them; dates by day', () => {
    assert.equal(sameRegistration(reg, { ...reg, _id: 'x', enrollDate: '2025-03-01T00:00:00.000Z' }), true);
    assert.equal(sameRegistration(reg, { invoiceNumber: 'INV-1', _id: 'x' }), true, 'a read that leaves fields out');
    assert.equal(sameRegistration(reg, { ...reg, invoiceNumber: 'INV-2' }), false);
    assert.equal(sameRegistration(reg, { ...reg, enrollDate: '2025-03-02' }), false);
    assert.equal(sameRegistration(reg, { ...reg, customer: { name: 'Bob', email: 'ada@example.com' } }), false);
    assert.equal(sameRegistration(reg, { ...reg, storeNumber: 'S2' }, 'S1'), false);
    assert.equal(sameRegistration(reg, null), false);
  });
  it('claims: service invoice number must match; date, mileage, amount, reason, description and tire count where both have them', () => {
    const claim = { serviceInvoiceNumber: 'RO-1', serviceInvoiceDate: '2025-08-19', vehicleMileage: 100, authorizedAmount: 9.5, tires: [{}] };
    assert.equal(sameClaim(claim, { id: 7, ...claim }), true);
    assert.equal(sameClaim(claim, { id: 7, serviceInvoiceNumber: 'RO-1', vehicleMileage: '100' }), true, 'numbers as numbers');
    assert.equal(sameClaim(claim, { id: 7, ...claim, serviceInvoiceNumber: 'RO-2' }), false);
    assert.equal(sameClaim(claim, { id: 7, ...claim, vehicleMileage: 101 }), false);
    assert.equal(sameClaim(claim, { id: 7, ...claim, tires: [{}, {}] }), false);
    assert.equal(sameClaim({ ...claim, serviceInvoiceNumber: undefined }, { id: 7, ...claim }), false, 'no key, no match');
  });
});
