import * as assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PAYLOAD_KINDS, jsonSchemaFor, type PayloadKind } from '../../../src/core/contract';
import { editorSchema } from '../../../src/core/diagnostics/editorSchema';
import { addSchemaEdit, diagnosePayload, guessKind, kindFromFileName, specAnchor } from '../../../src/core/diagnostics/payload';
import type { Problem, TextEdit } from '../../../src/core/diagnostics/types';

const NOW = new Date('2026-01-15T12:00:00Z');
const KINDS = Object.keys(PAYLOAD_KINDS) as PayloadKind[];
const diagnose = (text: string, fileName?: string) => diagnosePayload(text, { now: NOW, fileName })?.problems ?? assert.fail('not diagnosed as a payload');
const apply = (text: string, edits: readonly TextEdit[]) => [...edits].sort((a, b) => b.offset - a.offset).reduce((t, e) => t.slice(0, e.offset) + e.newText + t.slice(e.offset + e.length), text);
const codes = (ps: Problem[]) => ps.map((p) => p.code);

/** Pretty JSON of `kind`'s template with `edit` applied to a deep copy. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test bodies are edited freely
type Body = Record<string, any>;
function variant(kind: PayloadKind, edit: (body: Body) => void): string {
  const body = structuredClone(PAYLOAD_KINDS[kind].template) as Body;
  edit(body);
  return JSON.stringify(body, null, 2);
}

/** Expected problem: its code, and the exact text under its range (`at`), found after `after` if given. */
interface Expect {
  code: string;
  at: string;
  after?: string;
  message?: RegExp | string;
  severity?: 'error' | 'warning';
}

function check(text: string, expected: Expect[]): Problem[] {
  const ps = diagnose(text);
  const want = expected
    .map((e) => {
      const start = text.indexOf(e.at, e.after ? text.indexOf(e.after) : 0);
      assert.ok(start >= 0, `${e.at} not in text`);
      return `${e.code}@${start}:${e.at}`;
    })
    .sort();
  const got = ps.map((p) => `${p.code}@${p.start}:${text.slice(p.start, p.end)}`).sort();
  assert.deepEqual(got, want, ps.map((p) => p.message).join('\n'));
  for (const e of expected) {
    const p = ps.find((x) => x.code === e.code && text.slice(x.start, x.end) === e.at)!;
    if (e.message instanceof RegExp) assert.match(p.message, e.message);
    else if (e.message) assert.equal(p.message, e.message);
    if (e.severity) assert.equal(p.severity, e.severity);
  }
  return ps;
}

const reg0 = '"Registrations": [\n    {';
const itemBrace = (text: string, arrayKey: string) => text.indexOf('{', text.indexOf(`"${arrayKey}"`));

describe('payload diagnostics: valid examples', () => {
  for (const kind of KINDS) {
    it(`${kind}: the template gives ${PAYLOAD_KINDS[kind].deprecated ? 'only the deprecation warning' : 'zero problems'}`, () => {
      const ps = diagnose(JSON.stringify(PAYLOAD_KINDS[kind].template, null, 2));
      assert.deepEqual(codes(ps), PAYLOAD_KINDS[kind].deprecated ? ['deprecated'] : [], ps.map((p) => p.message).join('\n'));
    });
  }

  const dir = join(__dirname, '../../../examples');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    it(`examples/${file} gives no error`, () => {
      const text = readFileSync(join(dir, file), 'utf8');
      const d = diagnosePayload(text, { now: NOW });
      assert.ok(d?.kind, `${file} declares a kind`);
      assert.deepEqual(d.problems.filter((p) => p.code !== 'deprecated').map((p) => p.message), []);
    });
  }
});

describe('payload diagnostics: broken variants give exactly the expected codes and ranges', () => {
  it('v2-registrations: too long ShopID, money, unknown property with did-you-mean, missing InvoiceNumber', () => {
    const text = variant('v2-registrations', (b) => {
      const r = b.Registrations[0];
      r.ShopID = 'S'.repeat(31);
      r.TPPPrice = '12.555';
      r.InvoiceNumer = r.InvoiceNumber;
      delete r.InvoiceNumber;
    });
    const ps = check(text, [
      { code: 'max-length', at: `"${'S'.repeat(31)}"`, message: 'ShopID: at most 25 characters, got 31' },
      { code: 'money', at: '"12.555"', message: /^TPPPrice: money with at most 2 decimals/ },
      { code: 'unknown-property', at: '"InvoiceNumer"', message: 'InvoiceNumer: unknown property; did you mean InvoiceNumber?', severity: 'warning' },
      { code: 'required', at: '{', after: reg0.slice(0, 16), message: 'InvoiceNumber: required field is missing' },
    ]);
    assert.equal(ps.find((p) => p.code === 'required')!.start, itemBrace(text, 'Registrations'));
    assert.equal(ps.find((p) => p.code === 'max-length')!.section, 'Registration (v2)');
  });

  it('v2-registrations: every quick fix together removes every problem it is attached to', () => {
    const text = variant('v2-registrations', (b) => {
      const r = b.Registrations[0];
      r.TPPPrice = '$12.5';
      r.TireCost = 142.555;
      r.InvoiceNumer = 'INV-9';
      delete r.InvoiceNumber;
      delete r.EmployeeID;
    });
    const before = diagnose(text);
    assert.deepEqual(codes(before).sort(), ['money', 'money', 'required', 'required', 'unknown-property']);
    // The rename and the "add missing" fix overlap in purpose: apply the rename, then fix the rest.
    const rename = before.find((p) => p.code === 'unknown-property')!.fix!;
    const step1 = apply(text, rename.edits);
    const mid = diagnose(step1);
    assert.deepEqual(codes(mid).sort(), ['money', 'money', 'required']);
    const fixes = [...new Set(mid.map((p) => p.fix!))];
    const done = apply(step1, fixes.flatMap((f) => f.edits));
    assert.deepEqual(diagnose(done).map((p) => p.message), []);
    const r = JSON.parse(done).Registrations[0];
    assert.equal(r.TPPPrice, '12.50');
    assert.equal(r.EmployeeID, 'EMP-01', 'placeholder taken from the template');
  });

  it('v2-registrations: a missing Registrations array is reported on the root {', () => {
    check('{ "$schema": "tpp://schemas/v2-registrations.json" }', [{ code: 'required', at: '{', message: 'Registrations: required field is missing' }]);
  });

  it('v2-registrations: more TireDOT serials than TiresCovered, future enrolment, vehicle year, duplicate invoice', () => {
    const text = variant('v2-registrations', (b) => {
      const r = b.Registrations[0];
      r.TiresCovered = '2';
      r.TireDOT2 = 'DOT-B';
      r.TireDOT4 = 'DOT-D';
      r.PlanEnrollDate = '2026-03-01';
      r.VehicleYear = '1899';
      b.Registrations.push({ ...r, TireDOT4: undefined, VehicleYear: '2027', PlanEnrollDate: '2026-01-16' });
    });
    check(text, [
      { code: 'tire-dots', at: '"DOT-D"', message: 'TireDOT4: more TireDOT serials (3) than TiresCovered (2); check the count', severity: 'warning' },
      { code: 'future-date', at: '"2026-03-01"', severity: 'warning' },
      { code: 'vehicle-year', at: '"1899"', message: 'VehicleYear: vehicle year 1899 is outside 1900..2027; check it', severity: 'warning' },
      { code: 'duplicate-registration', at: '"INV-0001"', after: '},\n    {', severity: 'warning', message: /Registrations\[1\] repeats ShopID SHOP-0001 \+ InvoiceNumber INV-0001 of Registrations\[0\]; the later one overwrites the earlier/ },
    ]);
  });

  it('plausibility warnings the spec does not back: CommercialVehicle case (with a fix), far-past dates, empty v3 required strings, shop-update e-mails', () => {
    const v2 = variant('v2-registrations', (b) => {
      b.Registrations[0].CommercialVehicle = 'yes';
      b.Registrations[0].PlanEnrollDate = '2015-12-31';
      b.Registrations[0].CurrentMileage = '';
    });
    const ps = check(v2, [
      { code: 'commercial-vehicle-case', at: '"yes"', severity: 'warning', message: 'CommercialVehicle: the spec writes Yes; "yes" is accepted and read as Yes' },
      { code: 'past-date', at: '"2015-12-31"', severity: 'warning' },
    ]);
    const fixed = apply(v2, ps.find((p) => p.code === 'commercial-vehicle-case')!.fix!.edits);
    assert.match(fixed, /"CommercialVehicle": "Yes"/);
    check(variant('registration', (b) => (b.customer.name = '')), [{ code: 'empty-value', at: '""', severity: 'warning' }]);
    check(variant('shop-update', (b) => (b.email = ['a@b.co', 'front desk'])), [{ code: 'email-format', at: '"front desk"', severity: 'warning' }]);
    check(variant('v2-registrations', (b) => (b.Registrations[0].PlanEnrollDate = '2016-01-16')), []);
    // Version 3: a timestamp without a zone is ISO 8601 (a warning with a fix); version 2 asks for Z or an offset.
    const v3 = variant('tire-protection-registration', (b) => (b.enrollDate = '2025-01-15T14:30:00'));
    const [zoneless] = check(v3, [{ code: 'date-without-zone', at: '"2025-01-15T14:30:00"', severity: 'warning' }]);
    assert.match(apply(v3, zoneless!.fix!.edits), /"enrollDate": "2025-01-15T14:30:00Z"/);
    check(variant('v2-sales', (b) => (b.Sales[0].SaleDate = '2025-01-15T14:30:00')), [{ code: 'datetime', at: '"2025-01-15T14:30:00"', severity: 'error' }]);
    check(variant('v2-claims', (b) => (b.Claims[0].TireClaimCount = 0)), [{ code: 'sandbox-tire-limit', at: '0', after: '"TireClaimCount"', severity: 'warning' }]);
    const dot = { code: 'tire-dots', at: '"DOT U2LL LMLR 5107"', severity: 'warning' } as const;
    check(variant('v2-registrations', (b) => (b.Registrations[0].TiresCovered = 0)), [{ code: 'tire-count', at: '0', after: '"TiresCovered"', severity: 'warning' }, dot]);
    check(variant('v2-registrations', (b) => (b.Registrations[0].TiresCovered = -2)), [{ code: 'sandbox-tire-limit', at: '-2', severity: 'warning' }, dot]);
    check(variant('v2-sales', (b) => (b.Sales[0].TireCount = '5000')), []);
  });

  it('v2-claims: lower-case ServiceType gets a quick fix; empty required string; int', () => {
    const text = variant('v2-claims', (b) => {
      b.Claims[0].ServiceType = 'replace';
      b.Claims[0].RepairShopID = '';
      b.Claims[0].TireClaimCount = 1.5;
    });
    const ps = check(text, [
      { code: 'enum', at: '"replace"', message: 'ServiceType: REPLACE (tire replaced) or REPAIR (tire repaired)' },
      { code: 'empty', at: '""', message: 'RepairShopID: required field is empty' },
      { code: 'int', at: '1.5' },
    ]);
    const fixed = apply(text, ps.find((p) => p.code === 'enum')!.fix!.edits);
    assert.deepEqual(codes(diagnose(fixed)).sort(), ['empty', 'int']);
  });

  it('v2-sales: a future sale date, an invalid date and a wrong type', () => {
    const text = variant('v2-sales', (b) => {
      b.Sales.push({ ...b.Sales[0], InvoiceNumber: 'INV-3', SaleDate: '2027-01-01' });
      b.Sales[0].SaleDate = '2025-02-30';
      b.Sales[0].TireBrand = 7;
    });
    check(text, [
      { code: 'datetime', at: '"2025-02-30"' },
      { code: 'type', at: '7', message: 'TireBrand: expected a string' },
      { code: 'future-date', at: '"2027-01-01"' },
    ]);
  });

  it('v2-cancellations: deprecated (warning on $schema)', () => {
    const text = JSON.stringify(PAYLOAD_KINDS['v2-cancellations'].template, null, 2);
    check(text, [{ code: 'deprecated', at: '"tpp://schemas/v2-cancellations.json"', severity: 'warning' }]);
  });

  it('registration: missing customer name on the "customer" key, bad e-mail, empty tires, impossible vehicle year', () => {
    const text = variant('registration', (b) => {
      delete b.customer.name;
      b.customer.email = 'not-an-email';
      b.tires = [];
      b.vehicle = { ...(b.vehicle ?? { make: 'Ford', model: 'F-150' }), year: 1850 };
    });
    check(text, [
      { code: 'required', at: '"customer"', message: 'name: required field is missing' },
      { code: 'email', at: '"not-an-email"' },
      { code: 'min-items', at: '[]', message: 'tires: at least one tire' },
      { code: 'vehicle-year', at: '1850' },
    ]);
  });

  it('tire-protection-registration: year as a string, future enrolment', () => {
    const text = variant('tire-protection-registration', (b) => {
      b.vehicle = { year: '2020', make: 'Ford', model: 'F-150' };
      b.enrollDate = '2030-01-01';
    });
    check(text, [
      { code: 'year-format', at: '"2020"' },
      { code: 'future-date', at: '"2030-01-01"' },
    ]);
  });

  it('tire-protection-claim: number as a string, future service date', () => {
    const text = variant('tire-protection-claim', (b) => {
      b.authorizedAmount = '12';
      b.serviceInvoiceDate = '2026-02-01';
    });
    check(text, [
      { code: 'number', at: '"12"', message: 'authorizedAmount: number expected' },
      { code: 'future-date', at: '"2026-02-01"' },
    ]);
  });

  it('shop: an e-mail that is not an address (a warning: the spec types it string) and a misspelt property', () => {
    const text = variant('shop', (b) => {
      b.email = 'x';
      b.phon = b.phone;
      delete b.phone;
    });
    check(text, [
      { code: 'email-format', at: '"x"', severity: 'warning' },
      { code: 'unknown-property', at: '"phon"', message: 'phon: unknown property; did you mean phone?' },
    ]);
  });

  it('shop-update: invalid endDate', () => {
    check(variant('shop-update', (b) => (b.endDate = '2025-13-01')), [{ code: 'datetime', at: '"2025-13-01"' }]);
  });

  it('part: a fractional quantity', () => {
    check(variant('part', (b) => (b.quantity = 1.5)), [{ code: 'integer', at: '1.5', message: 'quantity: integer expected (a whole JSON number such as 4)' }]);
  });

  it('transaction: isTrailer as a string', () => {
    check(variant('transaction', (b) => (b.isTrailer = 'yes')), [{ code: 'boolean', at: '"yes"' }]);
  });

  it('motor-club-registration: future enrolment', () => {
    check(variant('motor-club-registration', (b) => (b.enrollDate = '2027-01-01T00:00:00Z')), [{ code: 'future-date', at: '"2027-01-01T00:00:00Z"' }]);
  });

  it('motor-club-customer: missing customer on the root {', () => {
    check(variant('motor-club-customer', (b) => delete b.customer), [{ code: 'required', at: '{', message: 'customer: required field is missing' }]);
  });

  it('motor-club-customer with cancelledOn too: an error on cancelledOn (separate requests), not an unknown property', () => {
    check(variant('motor-club-customer', (b) => (b.cancelledOn = '2025-06-01')), [
      { code: 'separate-requests', at: '"2025-06-01"', severity: 'error', message: /^cancelledOn: a customer update and a cancellation are separate requests/ },
    ]);
  });

  it('cancellation with a customer too: an error on customer (separate requests)', () => {
    check(variant('cancellation', (b) => ((b.$product = 'motor-club'), (b.customer = { name: 'Jane' }))), [
      { code: 'separate-requests', at: '{\n    "name": "Jane"\n  }', severity: 'error', message: /^customer: a cancellation takes cancelledOn alone/ },
    ]);
  });

  it('the completion schema does not offer the property the other PATCH body carries', () => {
    const props = (kind: PayloadKind) => Object.keys((editorSchema(jsonSchemaFor(kind)) as { properties: object }).properties);
    assert.ok(!props('motor-club-customer').includes('cancelledOn'));
    assert.ok(!props('cancellation').includes('customer'));
  });

  it('tire-protection-claim listing no tires: the sandbox-tire-limit warning (the Local sandbox refuses it)', () => {
    check(variant('tire-protection-claim', (b) => (b.tires = [])), [{ code: 'sandbox-tire-limit', at: '[]', severity: 'warning' }]);
  });

  it('cancellation: cancelledOn not a date', () => {
    check(variant('cancellation', (b) => (b.cancelledOn = 'yesterday')), [{ code: 'datetime', at: '"yesterday"' }]);
  });

  it('syntax errors, a non-object top level and an empty file are reported for payload files', () => {
    const broken = '{ "$schema": "tpp://schemas/v2-sales.json", "Sales": [ } ';
    assert.ok(codes(diagnose(broken)).includes('syntax'));
    assert.deepEqual(codes(diagnose('', 'march.v2-sales.tpp.json')), ['empty-file']);
    assert.deepEqual(codes(diagnose('[]', 'march.v2-sales.tpp.json')), ['not-object']);
  });

  it('an unknown kind in $schema is one error with a fix to the nearest kind', () => {
    const text = '{ "$schema": "tpp://schemas/v2-registration.json", "Registrations": [] }';
    const [p, ...rest] = diagnose(text);
    assert.equal(rest.length, 0);
    assert.equal(p!.code, 'unknown-kind');
    assert.equal(text.slice(p!.start, p!.end), '"tpp://schemas/v2-registration.json"');
    assert.match(p!.message, /did you mean v2-registrations\?/);
    assert.equal(diagnosePayload(apply(text, p!.fix!.edits), { now: NOW })?.kind, 'v2-registrations');
  });
});

describe('payload detection and helpers', () => {
  it('leaves files without a recognised $schema alone', () => {
    assert.equal(diagnosePayload('{"name": "x"}'), undefined);
    assert.equal(diagnosePayload('{"$schema": "http://json-schema.org/draft-07/schema#"}'), undefined);
    assert.equal(diagnosePayload(''), undefined);
  });

  it('recognises the *.<kind>.tpp.json file-name convention, and no other project\'s *.<kind>.json', () => {
    assert.equal(kindFromFileName('/w/march.v2-registrations.tpp.json'), 'v2-registrations');
    assert.equal(kindFromFileName('/w/package.json'), undefined);
    assert.equal(diagnosePayload('{}', { fileName: 'x.cancellation.tpp.json', now: NOW })?.problems[0]?.code, 'required');
    for (const other of ['/w/march.v2-registrations.json', '/w/x.registration.json', '/w/a.shop.json', '/w/registration.json', '/w/x.tpp.json']) {
      assert.equal(kindFromFileName(other), undefined, other);
      assert.equal(diagnosePayload('{}', { fileName: other, now: NOW }), undefined, other);
    }
  });

  it('guesses the kind of a $schema-less body only when exactly one kind matches', () => {
    const { $schema: _s, ...claims } = PAYLOAD_KINDS['v2-claims'].template;
    assert.equal(guessKind(claims), 'v2-claims');
    assert.equal(guessKind({}), undefined);
    assert.equal(guessKind({ make: 'Michelin' }), undefined, 'part and transaction both match');
    const text = JSON.stringify(claims, null, 2);
    const withSchema = apply(text, [addSchemaEdit(text, 0, 'v2-claims')]);
    assert.deepEqual(diagnose(withSchema), []);
    assert.ok(withSchema.startsWith('{\n  "$schema": "tpp://schemas/v2-claims.json",\n  "Claims"'));
  });

  it('links rules to spec section anchors', () => {
    assert.equal(specAnchor('Registration (v2)'), 'registration-v2');
    assert.equal(specAnchor('Cancellation (v2, deprecated)'), 'cancellation-v2-deprecated');
  });

  it('serves a completion-only JSON Schema: properties and descriptions kept, validation keywords dropped', () => {
    const s = JSON.stringify(editorSchema(jsonSchemaFor('v2-claims')));
    for (const k of ['"required"', '"maxLength"', '"pattern"', '"enum"', '"format"']) assert.ok(!s.includes(k), k);
    assert.ok(s.includes('"ShopID"') && s.includes('"description"') && s.includes('"REPLACE"'));
  });

  it('package.json maps *.<kind>.tpp.json to tpp://schemas/<kind>.json for every kind', () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as { contributes: { jsonValidation: { fileMatch: string; url: string }[] } };
    assert.deepEqual(
      pkg.contributes.jsonValidation.map((j) => [j.fileMatch, j.url]),
      KINDS.map((k) => [`*.${k}.tpp.json`, `tpp://schemas/${k}.json`]),
    );
  });
});
