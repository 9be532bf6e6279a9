/**
 * The check of each row before anything is sent (docs/backfills.md, Checks before sending): a row the contract accepts
 * is told valid without the located diagnostics, and every other row gets exactly the problems the payload
 * diagnostics (docs/diagnostics.md) find in its resolved body, with its row number, column and rule.
 * Spec: Tire-protection registration (its fields and types).
 */
import * as assert from 'node:assert/strict';
import { checkRow } from '../../../src/core/backfill/rowCheck';
import type { DataRow } from '../../../src/core/backfill/rows';
import { diagnosePayload } from '../../../src/core/diagnostics/payload';
import { parseFlow } from '../../../src/core/flows/parse';
import type { FlowEnvironment } from '../../../src/core/flows/types';
import { REGISTRATION_FLOW } from './helpers';

const env: FlowEnvironment = { id: 'local', baseUrl: 'http://127.0.0.1:9/api/v3', partnerId: 'P1' };
const flow = parseFlow(REGISTRATION_FLOW, 'flow.http');
const columns = ['invoice', 'enrollDate', 'name', 'email', 'year'];
const today = new Date().toISOString().slice(0, 10);
const row = (n: number, values: Partial<Record<string, string>> = {}): DataRow => ({ number: n, line: n + 1, values: { invoice: `INV-${n}`, enrollDate: today, name: `Person ${n}`, email: `p${n}@example.com`, year: '2021', ...values } as Record<string, string> });
const check = (r: DataRow) => checkRow(flow, env, {}, r, columns, new Set(), async () => '');

/** The errors the payload diagnostics find in the body the row resolves to (what a row was checked with before). */
function diagnosed(r: DataRow): string[] {
  const body = (REGISTRATION_FLOW.split('\n\n')[1] as string).replace(/\{\{row\.(\w+)\}\}/g, (_m, c: string) => (r.values[c] ?? '').replace(/"/g, '\\"'));
  const value: unknown = JSON.parse(body);
  return (diagnosePayload(JSON.stringify(value, null, 2), { kind: 'tire-protection-registration' })?.problems ?? []).filter((p) => p.severity === 'error').map((p) => `${p.code}: ${p.message}`);
}

describe('backfill row check', () => {
  it('a valid row has no problem', async () => {
    assert.deepEqual(await check(row(1)), []);
  });

  const bad: [string, Partial<Record<string, string>>, string, string][] = [
    ['an e-mail address that is not one', { email: 'not-an-email' }, 'email', 'email'],
    ['two bad values', { email: 'nobody', year: '99' }, 'email', 'email'],
    ['a date that is not one', { enrollDate: '2025-13-45' }, 'enrollDate', 'datetime'],
    ['a year that is not four digits', { year: '202' }, 'year', 'year-format'],
    ['a value that looks like a variable', { name: '{{unknown}}' }, 'name', ''],
  ];
  for (const [what, values, column, rule] of bad) {
    it(`${what}: the same problems as the payload diagnostics, with row, column and rule`, async () => {
      const r = row(7, values);
      const problems = await check(r);
      const expected = diagnosed(r);
      assert.deepEqual(problems.map((p) => `${p.rule}: ${p.message}`), expected);
      if (!rule) return;
      assert.ok(problems.length > 0, 'the row is invalid');
      assert.deepEqual([problems[0]?.row, problems[0]?.line, problems[0]?.column, problems[0]?.rule], [7, 8, column, rule]);
    });
  }
});
