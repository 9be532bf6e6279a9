import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import type { z } from 'zod';
import { PAYLOAD_KINDS, type PayloadKind } from '../../../src/core/contract';
import { findUnknownProperties, knownProperties, schemaAt } from '../../../src/core/contract/schemaWalk';
import type { JsonPath } from '../../../src/core/diagnostics/types';
import { edgy, paths, setAt } from './mutate';

const KINDS = Object.keys(PAYLOAD_KINDS) as PayloadKind[];

/**
 * The unknown-property rule read plainly (spec: each resource's field table lists every property; a property it
 * does not list is a warning, `$`-names at the top level are meta data): visit every object, look every key up.
 */
function reference(v: unknown, s: z.ZodType, path: JsonPath, out: JsonPath[]): JsonPath[] {
  if (v === null || typeof v !== 'object') return out;
  if (Array.isArray(v)) {
    const element = schemaAt(s, [0]);
    if (element) v.forEach((x, i) => reference(x, element, [...path, i], out));
    return out;
  }
  if (knownProperties(s).length === 0) return out;
  for (const k of Object.keys(v)) {
    const child = schemaAt(s, [k]);
    if (child) reference((v as Record<string, unknown>)[k], child, [...path, k], out);
    else if (!(path.length === 0 && k.startsWith('$'))) out.push([...path, k]);
  }
  return out;
}

/** Every array of the template holding `copies` items, so that most records are clean and a few are not. */
function widen(v: unknown, copies: number): unknown {
  if (Array.isArray(v)) return v.length ? Array.from({ length: copies }, () => widen(structuredClone(v[0]), copies)) : v;
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, widen(x, copies)]));
  return v;
}

describe('unknown properties: clean records skipped by a generated predicate (so that large files stay fast and small)', () => {
  it('reports exactly the properties the field tables do not list, at every depth and in every record (property, every kind)', () => {
    const extraKey = fc.oneof(fc.constantFrom('InvoiceNumer', 'shopid', 'extra', '$meta', 'constructor', 'toString', '0'), fc.string({ maxLength: 8 }));
    const edit = fc.oneof(fc.tuple(fc.constant('add' as const), fc.nat(), extraKey, edgy), fc.tuple(fc.constant('set' as const), fc.nat(), fc.constant(''), edgy));
    fc.assert(
      fc.property(fc.constantFrom(...KINDS), fc.integer({ min: 1, max: 4 }), fc.array(edit, { minLength: 1, maxLength: 4 }), (kind, copies, edits) => {
        const { schema, template } = PAYLOAD_KINDS[kind];
        const body = widen(template, copies) as Record<string, unknown>;
        for (const [op, i, key, value] of edits) {
          const all = paths(body);
          if (op === 'set' && all.length) setAt(body, all[i % all.length]!, value);
          if (op === 'add') {
            const objects = [[], ...all].filter((p) => {
              const at = p.reduce<unknown>((o, seg) => (o as Record<string | number, unknown>)[seg], body);
              return at !== null && typeof at === 'object' && !Array.isArray(at);
            });
            const target = objects[i % objects.length]!;
            if (key !== '__proto__') setAt(body, [...target, key], value === undefined ? null : value);
          }
        }
        const found = findUnknownProperties(body, schema).map((u) => JSON.stringify(u.path));
        assert.deepEqual(found.sort(), reference(body, schema, [], []).map((p) => JSON.stringify(p)).sort(), JSON.stringify(body));
      }),
      { numRuns: 1500 },
    );
  });
});
