import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { z } from 'zod';
import { PAYLOAD_KINDS, type PayloadKind } from '../../../src/core/contract';
import { compileAccept } from '../../../src/core/diagnostics/fastAccept';
import { localizedIssues } from '../../../src/core/diagnostics/localizedIssues';
import { edgy, paths, setAt } from './mutate';

const KINDS = Object.keys(PAYLOAD_KINDS) as PayloadKind[];

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
