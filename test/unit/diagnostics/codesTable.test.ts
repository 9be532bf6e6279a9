import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as fc from 'fast-check';
import { PAYLOAD_KINDS, type PayloadKind } from '../../../src/core/contract';
import { DIAGNOSTIC_CODES, NO_SCHEMA } from '../../../src/core/diagnostics/codes';
import { RULES } from '../../../src/core/diagnostics/engine';
import { CONTRACT_RULES, diagnosePayload, specAnchor } from '../../../src/core/diagnostics/payload';
import { SEMANTIC_RULES } from '../../../src/core/diagnostics/semantic';
import { REPO_ROOT, SPEC_PATH } from '../specPath';
import { paths, setAt } from './mutate';

/**
 * docs/diagnostics.md lists every diagnostic: every code the engine can emit is in its table with
 * the right severity, and every error cites the spec (a sentence found verbatim in the spec, and a section).
 */

interface Row {
  readonly code: string;
  readonly severity: string;
  readonly spec: string;
}

function tableRows(): Row[] {
  const md = readFileSync(join(REPO_ROOT, 'docs', 'diagnostics.md'), 'utf8');
  const rows: Row[] = [];
  for (const line of md.split('\n')) {
    const m = /^\| `([a-z0-9-]+)` \| (error|warning) \| (.*) \|$/.exec(line);
    if (!m) continue;
    const cells = m[3]!.split(/ (?<!\\)\| /);
    rows.push({ code: m[1]!, severity: m[2]!, spec: cells[1] ?? '' });
  }
  return rows;
}

/** The quoted parts of a spec cell ("…" splits a quote into parts that must each be in the spec). */
const quotes = (cell: string): string[] =>
  [...cell.matchAll(/"([^"]+)"/g)].flatMap((m) => m[1]!.replace(/\\\|/g, '|').split('…').map((s) => s.trim()).filter(Boolean));

const spec = existsSync(SPEC_PATH) ? readFileSync(SPEC_PATH, 'utf8') : undefined;
const squash = (s: string) => s.replace(/\s+/g, ' ');

describe('docs/diagnostics.md: every diagnostic, its severity and the spec sentence behind it', () => {
  const rows = tableRows();
  const byCode = new Map(rows.map((r) => [r.code, r]));

  it('lists each code of the engine once, with the severity the engine gives it', () => {
    assert.equal(byCode.size, rows.length, 'a code is listed twice');
    assert.deepEqual([...byCode.keys()].sort(), Object.keys(DIAGNOSTIC_CODES).sort());
    for (const [code, info] of Object.entries(DIAGNOSTIC_CODES)) assert.equal(byCode.get(code)?.severity, info.severity, code);
  });

  it('every rule code declared by the engine, the contract mapping and the checks is a known code', () => {
    for (const code of [...Object.values(RULES), ...Object.values(CONTRACT_RULES), ...Object.values(SEMANTIC_RULES), NO_SCHEMA]) assert.ok(DIAGNOSTIC_CODES[code], code);
  });

  it('every error cites the spec with a sentence found in it; plausibility and tool rows say so', function () {
    if (!spec) console.log(`      note: the spec is not at ${SPEC_PATH}; the quoted sentences are not compared with it`);
    for (const r of rows) {
      const basis = DIAGNOSTIC_CODES[r.code]!.basis;
      if (basis === 'plausibility') assert.match(r.spec, /^plausibility\b/, r.code);
      else if (basis === 'tool') assert.match(r.spec, /^tool\b/, r.code);
      else {
        const qs = quotes(r.spec);
        assert.ok(qs.length > 0, `${r.code}: quote the spec sentence it enforces`);
        if (spec) for (const q of qs) assert.ok(squash(spec).includes(squash(q)), `${r.code}: "${q}" is not in the spec`);
      }
    }
  });

  it('every code emitted for broken payloads of every kind is in the table, and every error carries a spec section (property)', () => {
    const headings = spec ? new Set([...spec.matchAll(/^#+ (.+)$/gm)].map((m) => specAnchor(m[1]!))) : undefined;
    const kinds = Object.keys(PAYLOAD_KINDS) as PayloadKind[];
    const values = fc.constantFrom<unknown>(undefined, null, '', 'x'.repeat(260), '😀'.repeat(26), 'yes', 'replace', '1885', 1885, 1.5, '1.555', '2099-01-01', '1990-01-01', '2024-02-30', 'not-an-email', 1001, '1001', [], {}, true, -1);
    const seen = new Set<string>();
    fc.assert(
      fc.property(fc.constantFrom(...kinds), fc.array(fc.tuple(fc.nat(), values), { minLength: 1, maxLength: 4 }), (kind, edits) => {
        const body = structuredClone(PAYLOAD_KINDS[kind].template) as Record<string, unknown>;
        for (const [i, v] of edits) {
          const leaves = paths(body, new Set(['$schema']));
          const p = leaves[i % leaves.length]!;
          setAt(body, p, v);
        }
        const problems = diagnosePayload(JSON.stringify(body, null, 2))?.problems ?? [];
        for (const p of problems) {
          seen.add(p.code);
          const info = DIAGNOSTIC_CODES[p.code];
          assert.ok(info, `${p.code} is not a known code (${p.message})`);
          assert.equal(p.severity, info.severity, `${p.code}: ${p.message}`);
          if (p.severity === 'error') {
            assert.ok(p.section, `${p.code} without a spec section: ${p.message}`);
            if (headings) assert.ok(headings.has(specAnchor(p.section)), `${p.code}: "${p.section}" is not a heading of the spec`);
          }
        }
      }),
      { numRuns: 400, seed: 15 },
    );
    assert.ok(seen.size >= 12, `the generator reaches many codes: ${[...seen].join(', ')}`);
  });
});

