import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { SEMANTIC_CHECKS, SEMANTIC_RULES } from '../../../src/core/diagnostics/semantic';

/**
 * duplicate-registration (plausibility, spec: Registration (v2): "resending the same ShopID and InvoiceNumber
 * updates the existing registration"): each registration repeating the ShopID + InvoiceNumber of an earlier one is
 * reported once, against the first of them. Read plainly: one map from the pair of texts to the first index.
 */
function reference(regs: readonly Record<string, unknown>[]): string[] {
  const first = new Map<string, number>();
  const out: string[] = [];
  regs.forEach((r, i) => {
    if (r.ShopID === undefined || r.InvoiceNumber === undefined) return;
    const key = JSON.stringify([String(r.ShopID), String(r.InvoiceNumber)]);
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, i);
    else out.push(`Registrations[${i}] repeats ShopID ${String(r.ShopID)} + InvoiceNumber ${String(r.InvoiceNumber)} of Registrations[${earlier}]`);
  });
  return out;
}

describe('plausibility: duplicate registrations', () => {
  it('reports every repeat of a ShopID + InvoiceNumber against its first registration, shops sharing invoice numbers included (property)', () => {
    const value = fc.constantFrom(undefined, 'A', 'B', 'C', '1', 1, 'A\u0000B', 'B\u0000C');
    const record = fc.record({ ShopID: value, InvoiceNumber: value }, { requiredKeys: [] });
    fc.assert(
      fc.property(fc.array(record, { maxLength: 12 }), (regs) => {
        const findings = SEMANTIC_CHECKS['v2-registrations']!.flatMap((check) => [...check({ Registrations: regs }, { now: new Date('2025-06-01T00:00:00Z') })]);
        const duplicates = findings.filter((f) => f.code === SEMANTIC_RULES.duplicateRegistration);
        assert.deepEqual(
          duplicates.map((f) => f.message.replace(/^InvoiceNumber: /, '').replace(/; the later one overwrites the earlier$/, '')),
          reference(regs),
        );
        for (const f of duplicates) assert.equal(f.path[2], 'InvoiceNumber');
      }),
      { numRuns: 3000 },
    );
  });
});
