import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { z } from 'zod';
import { PAYLOAD_KINDS, type PayloadKind } from '../../../src/core/contract';
import { compileAccept } from '../../../src/core/diagnostics/fastAccept';
import { localizedIssues } from '../../../src/core/diagnostics/localizedIssues';
import { paths, setAt } from './mutate';

const KINDS = Object.keys(PAYLOAD_KINDS) as PayloadKind[];

/** Values likely to sit on a rule's edge: lengths around 25/50/200, money decimals, dates, digits. */
const edgy = fc.oneof(
  fc.constantFrom(undefined, null, '', ' ', 'x', 'REPLACE', 'replace', 'Yes', 'yes', '2024-02-29', '2023-02-29', '2024-03-15T14:30:00Z', '2024-03-15T14:30:00', '12.5', '12.50', '12.555', '-1', '4', '4.0', 'a@b.co', 'a@b', '2021', '21', true, false, 0, 4, -3, 1.5, 12.5, 12.555, 0.1 + 0.2, 2021, 1e21, [], {}, [{}]),
  fc.string({ maxLength: 30 }),
  fc.integer({ min: 20, max: 210 }).map((n) => 'x'.repeat(n)),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

describe('accept-only fast path (compiled from the contract zod schemas)', () => {
  it('compiles every payload kind', () => {
    for (const kind of KINDS) assert.ok(compileAccept(PAYLOAD_KINDS[kind].schema), kind);
  });

  it('agrees with zod safeParse on mutated templates of every kind (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...KINDS), fc.array(fc.tuple(fc.nat(), edgy), { minLength: 1, maxLength: 3 }), (kind, edits) => {
        const def = PAYLOAD_KINDS[kind];
        const body = structuredClone(def.template) as Record<string, unknown>;
        delete body.$schema;
        for (const [i, value] of edits) {
          const all = paths(body);
          if (all.length) setAt(body, all[i % all.length]!, value);
        }
        const zodOk = def.schema.safeParse(body).success;
        assert.equal(compileAccept(def.schema)!(body), zodOk, JSON.stringify(body));
        // localized issues are exactly zod's (order aside)
        const key = (i: { path: readonly PropertyKey[]; code: string; message: string }) => `${i.path.join('.')}|${i.code}|${i.message}`;
        const whole = zodOk ? [] : def.schema.safeParse(body).error!.issues.map(key).sort();
        assert.deepEqual(localizedIssues(def.schema, body).map(key).sort(), whole);
      }),
      { numRuns: 1500 },
    );
  });

  it('declines schemas it does not understand (the caller then uses zod)', () => {
    assert.equal(compileAccept(z.record(z.string(), z.number())), undefined);
    assert.equal(compileAccept(z.string().superRefine(() => undefined)), undefined);
    assert.equal(compileAccept(z.object({ a: z.string().pipe(z.string()) })), undefined);
  });
});
