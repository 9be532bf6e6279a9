import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { PAYLOAD_KINDS, type PayloadKind } from '../../../src/core/contract';
import { compileAccept } from '../../../src/core/diagnostics/fastAccept';
import { localizedIssues } from '../../../src/core/diagnostics/localizedIssues';

/**
 * fastAccept.ts (and contract/schemaWalk.ts) read zod's private definitions (`_zod.def`, `_zod.optin`). zod is pinned
 * to an exact version in package.json; these tests fail when an upgrade changes the shape of what
 * they read, before the fast path silently falls back to (or disagrees with) zod.
 */

type AnyDef = Record<string, unknown> & { type: string };
const def = (s: z.ZodType): AnyDef => (s as unknown as { _zod: { def: AnyDef } })._zod.def;
const checkDefs = (s: z.ZodType) => ((def(s).checks ?? []) as { _zod: { def: Record<string, unknown> } }[]).map((c) => c._zod.def);

describe('zod internals read by the diagnostics fast path (zod pinned)', () => {
  it('zod is pinned to one exact version, the one installed', () => {
    const root = join(__dirname, '../../..');
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const pinned = pkg.dependencies.zod!;
    assert.match(pinned, /^\d+\.\d+\.\d+$/, `zod must be pinned exactly, got ${pinned}`);
    const installed = (JSON.parse(readFileSync(require.resolve('zod/package.json'), 'utf8')) as { version: string }).version;
    assert.equal(installed, pinned);
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version: string }> };
    assert.equal(lock.packages['node_modules/zod']?.version, pinned);
  });

  it('string, number, length, pattern, integer and refine checks have the definitions fastAccept reads', () => {
    assert.equal(def(z.string()).type, 'string');
    const [min, max, pattern, custom] = checkDefs(z.string().min(1).max(3).regex(/^a/).refine((v) => v !== 'ab'));
    assert.deepEqual([min?.check, min?.minimum], ['min_length', 1]);
    assert.deepEqual([max?.check, max?.maximum], ['max_length', 3]);
    assert.equal(pattern?.check, 'string_format');
    assert.ok(pattern?.pattern instanceof RegExp);
    assert.equal(custom?.check, 'custom');
    assert.equal(typeof custom?.fn, 'function');
    const email = def(z.email());
    assert.equal(email.format, 'email');
    assert.ok(email.pattern instanceof RegExp);
    const [int] = checkDefs(z.number().int());
    assert.deepEqual([int?.check, int?.format], ['number_format', 'safeint']);
    assert.equal(def(z.int()).format, 'safeint');
    const [gt, lt] = checkDefs(z.number().min(2).max(5));
    assert.deepEqual([gt?.check, gt?.value, gt?.inclusive, lt?.check, lt?.value, lt?.inclusive], ['greater_than', 2, true, 'less_than', 5, true]);
  });

  it('wrappers, unions, pipes, enums, arrays and objects have the definitions fastAccept reads', () => {
    const inner = z.string();
    assert.equal(def(inner.optional()).innerType, inner);
    assert.equal((inner.optional() as unknown as { _zod: { optin?: string } })._zod.optin, 'optional');
    assert.equal(def(inner.nullable()).innerType, inner);
    assert.equal(def(inner.default('x')).innerType, inner);
    const union = def(z.union([z.number(), inner]));
    assert.equal(union.type, 'union');
    assert.equal((union.options as z.ZodType[])[1], inner);
    const pipe = def(inner.transform((v) => v.length));
    assert.equal(pipe.type, 'pipe');
    assert.equal(pipe.in, inner);
    assert.equal(def(pipe.out as z.ZodType).type, 'transform');
    assert.deepEqual(def(z.enum(['A', 'B'])).entries, { A: 'A', B: 'B' });
    assert.deepEqual(def(z.literal('x')).values, ['x']);
    assert.equal(def(z.array(inner)).element, inner);
    const obj = def(z.object({ a: inner }));
    assert.equal((obj.shape as Record<string, z.ZodType>).a, inner);
    assert.equal(obj.catchall, undefined);
    assert.equal(def(def(z.strictObject({})).catchall as z.ZodType).type, 'never');
  });

  it("issues read from zod's internal run (_zod.run + core.util.finalizeIssue) are safeParse's issues, whole", () => {
    const cases: [z.ZodType, unknown][] = [
      [z.record(z.string(), z.number({ error: (iss) => (iss.input === undefined ? 'missing' : 'a number') })), { a: 'x', b: 2, c: null }],
      [z.record(z.string(), z.union([z.number(), z.string().regex(/^\d+$/)])), { a: 'x1', b: true }],
      [z.record(z.string(), z.string().max(3).refine((v) => v !== 'ab', { error: 'not ab' })), { a: 'abcd', b: 'ab' }],
      [z.record(z.string(), z.enum(['A', 'B'])), { a: 'c' }],
    ];
    for (const [schema, value] of cases) {
      assert.equal(compileAccept(schema), undefined, 'the root must go to zod whole');
      assert.deepEqual(localizedIssues(schema, value), JSON.parse(JSON.stringify(schema.safeParse(value).error!.issues)));
    }
  });

  it('every payload kind compiles to a fast predicate that agrees with zod on its template', () => {
    for (const kind of Object.keys(PAYLOAD_KINDS) as PayloadKind[]) {
      const accept = compileAccept(PAYLOAD_KINDS[kind].schema);
      assert.ok(accept, `${kind}: the fast path fell back to zod (internals changed?)`);
      const { $schema: _s, ...body } = PAYLOAD_KINDS[kind].template as Record<string, unknown>;
      assert.equal(accept(body), PAYLOAD_KINDS[kind].schema.safeParse(body).success, kind);
    }
  });
});
