import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/cli';
import { PAYLOAD_KINDS, type PayloadKind } from '../../../src/core/contract';
import { diagnosePayload } from '../../../src/core/diagnostics/payload';
import type { Problem } from '../../../src/core/diagnostics/types';

const NOW = new Date('2026-01-15T12:00:00Z');
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test bodies are edited freely
type Body = Record<string, any>;
function variant(kind: PayloadKind, edit: (body: Body) => void): string {
  const body = structuredClone(PAYLOAD_KINDS[kind].template) as Body;
  edit(body);
  return JSON.stringify(body, null, 2);
}
const diagnose = (text: string, variables?: ReadonlySet<string>): Problem[] => diagnosePayload(text, { now: NOW, variables })?.problems ?? assert.fail('not a payload');
const summary = (ps: Problem[]) => ps.map((p) => `${p.severity} ${p.code} ${p.path.join('.')}`);

describe('diagnostics: variables', () => {
  it('a whole-string variable is valid where the contract wants a string, an int or a number', () => {
    const text = variant('v2-registrations', (b) => {
      const r = b.Registrations[0];
      r.TiresCovered = '{{$randomInt 1 5}}';
      r.PlanEnrollDate = '{{$date -1}}';
      r.TPPPrice = '{{price}}';
      r.InvoiceNumber = '{{$guid}}';
      r.CurrentMileage = '{{$timestamp}}';
    });
    assert.deepEqual(summary(diagnose(text, new Set(['price']))), []);
    const v3 = variant('part', (b) => {
      b.quantity = '{{$randomInt 1 9}}';
      b.cost = '{{lastRegistration.id}}';
      b.date = '{{$datetime iso8601}}';
    });
    assert.deepEqual(summary(diagnose(v3)), []);
  });

  it('without a variable the same values are errors (the skip is specific to variables)', () => {
    const text = variant('part', (b) => {
      b.quantity = '{{$randomInt 1 9'; // not closed: not a variable
      b.date = 'today';
    });
    assert.deepEqual(summary(diagnose(text)).sort(), ['error datetime date', 'error integer quantity']);
  });

  it('embedded in a longer string: valid where a string goes, still a type error where a number goes', () => {
    const text = variant('v2-registrations', (b) => {
      b.Registrations[0].InvoiceNumber = 'INV-{{$randomInt 1000 10000}}';
      b.Registrations[0].TiresCovered = 'x{{$randomInt 1 5}}';
    });
    assert.deepEqual(summary(diagnose(text)), ['error int Registrations.0.TiresCovered']);
  });

  it('malformed variables are errors with the spec section; unknown names are warnings', () => {
    const text = variant('v2-registrations', (b) => {
      const r = b.Registrations[0];
      r.TiresCovered = '{{$randomInt a}}';
      r.ShopID = '{{storeNo}}';
      r.CustomerID = '{{lastRegistration.colour}}';
      r.EmployeeID = '{{$nope}}';
      r.InvoiceNumber = '{{lastClaim.id}}';
    });
    const ps = diagnose(text);
    assert.deepEqual(summary(ps).sort(), ['error variable Registrations.0.EmployeeID', 'error variable Registrations.0.TiresCovered', 'warning unknown-variable Registrations.0.CustomerID', 'warning unknown-variable Registrations.0.ShopID']);
    assert.match(ps.find((p) => p.code === 'variable' && p.path.includes('TiresCovered'))!.message, /^TiresCovered: \{\{\$randomInt a\}\}: \$randomInt takes two whole numbers/);
    for (const p of ps.filter((x) => x.severity === 'error')) assert.ok(p.section, p.code);
    assert.deepEqual(summary(diagnose(text, new Set(['storeNo']))).filter((s) => s.includes('ShopID')), [], 'a name of tpp.variables is known');
  });

  it('a dynamic value giving text where only a number goes is a type error', () => {
    assert.deepEqual(summary(diagnose(variant('part', (b) => (b.quantity = '{{$guid}}')))), ['error type quantity']);
  });

  it('plausibility warnings are not raised on values known only at send time', () => {
    const text = variant('v2-registrations', (b) => {
      b.Registrations.push({ ...b.Registrations[0] });
      for (const r of b.Registrations) r.InvoiceNumber = 'INV-{{$randomInt 1 1000000}}';
    });
    assert.deepEqual(summary(diagnose(text)), [], 'no duplicate-registration for two templated invoice numbers');
  });

  describe('tpp validate on a file with variables', () => {
    let dir: string;
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'tpp-vars-'));
      writeFileSync(join(dir, 'ok.json'), variant('part', (b) => (b.quantity = '{{$randomInt 1 9}}')));
      writeFileSync(join(dir, 'bad.json'), variant('part', (b) => (b.quantity = '{{$randomInt 9 1}}')));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));
    const run = async (argv: string[]) => {
      let out = '';
      const io = { stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (out += s) } };
      return { code: await runCli(argv, io), out };
    };
    it('exits 0 for valid variables and 1 for a malformed one, naming it', async () => {
      assert.equal((await run(['validate', join(dir, 'ok.json')])).code, 0);
      const bad = await run(['validate', join(dir, 'bad.json')]);
      assert.equal(bad.code, 1);
      assert.match(bad.out, /error: quantity: \{\{\$randomInt 9 1\}\}: \$randomInt: max \(1\) must be greater than min \(9\).*\[variable\]/);
    });
  });
});
