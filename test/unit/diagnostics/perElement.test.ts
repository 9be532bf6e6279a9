import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { PAYLOAD_KINDS, type PayloadKind } from '../../../src/core/contract';
import { validateText, type ValidationTarget } from '../../../src/core/diagnostics/engine';
import { compileAccept } from '../../../src/core/diagnostics/fastAccept';
import { diagnosePayload, targetFor } from '../../../src/core/diagnostics/payload';
import { edgy, paths, setAt } from './mutate';

const KINDS = Object.keys(PAYLOAD_KINDS) as PayloadKind[];

/** What this file reads of a zod 4 schema (zod is pinned; its internals are checked in zodInternals.test.ts). */
interface ZodInternals {
  _zod: { def: { shape: Record<string, ZodInternals>; element: ZodInternals }; run: (...args: unknown[]) => unknown };
}
const NOW = new Date('2025-06-15T12:00:00Z');

/**
 * The same target with zod run on the whole document: a no-op superRefine is a check the fast path does not
 * understand, so compileAccept declines the root and the engine hands the whole value to zod (the reference).
 */
function wholeDocument(target: ValidationTarget): ValidationTarget {
  const schema = target.schema.superRefine(() => undefined);
  assert.equal(compileAccept(schema), undefined, 'the reference must not take the fast path');
  return { ...target, schema };
}

/** A kind's template with every array of records holding `copies` records (so problems sit at several indexes). */
function multiplied(kind: PayloadKind, copies: number): Record<string, unknown> {
  const body = structuredClone(PAYLOAD_KINDS[kind].template) as Record<string, unknown>;
  for (const [k, v] of Object.entries(body)) if (Array.isArray(v) && v.length > 0) body[k] = Array.from({ length: copies }, (_, i) => structuredClone(v[i % v.length]));
  return body;
}

describe('diagnostics with zod on the failing elements only (so that large files stay fast and small)', () => {
  it('give exactly the problems of zod on the whole document: messages, ranges, codes, fixes, order (property, every kind)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...KINDS), fc.integer({ min: 1, max: 5 }), fc.array(fc.tuple(fc.nat(), edgy), { minLength: 1, maxLength: 6 }), (kind, copies, edits) => {
        const body = multiplied(kind, copies);
        for (const [i, value] of edits) {
          const all = paths(body, new Set(['$schema']));
          if (all.length) setAt(body, all[i % all.length]!, value);
        }
        const text = JSON.stringify(body, null, 2);
        const target = targetFor(kind);
        const fast = validateText(text, target, { now: NOW });
        assert.deepEqual(fast, validateText(text, wholeDocument(target), { now: NOW }), text);
      }),
      { numRuns: 600 },
    );
  });

  it('re-bases an element\'s issues onto its own index in a long array', () => {
    const kind: PayloadKind = 'v2-registrations';
    const body = multiplied(kind, 40);
    const regs = body.Registrations as Record<string, unknown>[];
    regs[7]!.ShopID = 'S'.repeat(31);
    regs[31]!.TPPPrice = '12.555';
    delete regs[33]!.CustomerID;
    const text = JSON.stringify(body, null, 2);
    const target = targetFor(kind);
    const fast = validateText(text, target, { now: NOW });
    assert.deepEqual(
      fast.filter((p) => p.severity === 'error').map((p) => `${p.path.join('.')}|${p.code}`),
      ['Registrations.7.ShopID|max-length', 'Registrations.31.TPPPrice|money', 'Registrations.33.CustomerID|required'],
    );
    assert.deepEqual(fast, validateText(text, wholeDocument(target), { now: NOW }));
  });

  it('stop at the problem cap on 15,000 failing records, without overflowing the stack, with zod run only up to the cap', function () {
    this.timeout(20000);
    const template = (PAYLOAD_KINDS['v2-registrations'].template as { Registrations: Record<string, unknown>[] }).Registrations[0]!;
    const regs = Array.from({ length: 15000 }, (_, i) => ({ ...template, ShopID: 'S'.repeat(31), TPPPrice: '12.555', InvoiceNumber: `INV-${i}`, CustomerID: undefined }));
    const text = JSON.stringify({ $schema: 'tpp://schemas/v2-registrations.json', Registrations: regs }, null, 2);
    // The work is counted, not timed: how many records' ShopID zod checked (each bad record gives 3 problems).
    const shopId = (targetFor('v2-registrations').schema as unknown as ZodInternals)._zod.def.shape.Registrations!._zod.def.element._zod.def.shape.ShopID!._zod;
    const run = shopId.run;
    let zodRuns = 0;
    shopId.run = (...args) => (zodRuns++, run(...args));
    let problems;
    try {
      problems = diagnosePayload(text, { now: NOW })!.problems;
    } finally {
      shopId.run = run;
    }
    assert.equal(problems.length, 1000);
    assert.deepEqual(problems.slice(0, 3).map((p) => `${p.path.join('.')}|${p.code}`), ['Registrations.0.CustomerID|required', 'Registrations.0.ShopID|max-length', 'Registrations.0.TPPPrice|money']);
    // Without the cap reaching into zod every record is parsed (15,000 runs; it took 2.5 s instead of 0.35 s).
    assert.ok(zodRuns > 0 && zodRuns <= 334, `zod checked the ShopID of ${zodRuns} records for 1,000 problems`);
    const empty = JSON.stringify({ $schema: 'tpp://schemas/v2-registrations.json', Registrations: Array.from({ length: 15000 }, () => ({})) });
    const none = diagnosePayload(empty, { now: NOW })!.problems;
    assert.ok(none.length === 1000 && none.every((p) => p.code === 'required'), `${none.length} problems`);
  });
});
