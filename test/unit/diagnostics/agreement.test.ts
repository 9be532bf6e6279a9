import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as fc from 'fast-check';
import { runCli } from '../../../src/cli/cli';
import type { ValidateJsonProblem } from '../../../src/cli/commands/validate';
import { PAYLOAD_KINDS, stripMeta, type PayloadKind } from '../../../src/core/contract';
import { MAX_TIRE_COUNT } from '../../../src/core/contract/limits';
import { diagnosePayload } from '../../../src/core/diagnostics/payload';
import { startSandbox } from '../../../src/core/sandbox/server';
import { Client, newKey, track } from '../sandbox/helpers';

/**
 * Editor, CLI and Local sandbox agree: payloads generated around each rule's boundary get the same
 * verdict from the core diagnostics (the editor's), `tpp validate --format json` (run in-process) and the Local
 * sandbox over HTTP: an error <=> the sandbox answers 400; at most warnings <=> the sandbox answers 2xx.
 * Boundaries: string(n) lengths in characters (accents precomposed and combining, emoji), v2 numbers sent as
 * strings and '', money decimals, dates, v2 and v3 years, customer e-mail (an "email string") vs the shop's
 * plain string, CommercialVehicle's case, TireDOT count vs TiresCovered, tire counts up to MAX_TIRE_COUNT.
 * The one documented exception: a tire count outside the Local sandbox's range (above MAX_TIRE_COUNT, below
 * MIN_TIRE_COUNT: negative, or a claim of 0 tires) is a warning that the Local sandbox answers with 400; generated
 * counts stay at or below the maximum (the warning itself is checked without the sandbox) and reach below the minimum.
 * Only the sandbox's HTTP behaviour is used (no store internals), and invoice numbers are unique per run.
 * Not covered: `cancellation` (a cancelledOn before the enrolment or after the program term answers 409 by the
 * spec's state rules, whatever the payload's diagnostics) and the deprecated `v2-cancellations`.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies are edited freely
type Body = Record<string, any>;
type Mutation = (b: Body) => void;

const RUNS = Number(process.env.TPP_AGREEMENT_RUNS ?? 30);
const PARTNER = 'agree';

/** Characters of different UTF-16 and code point sizes: each counts as one character of a string(n). */
const CHARS = ['x', 'é', 'e\u0301', '😀', '👍🏽', '🇫🇷', 'Ω', ' '];
/** A string of n-1, n or n+1 characters, from one repeated or mixed characters. */
const around = (n: number) =>
  fc.oneof(
    fc.tuple(fc.constantFrom(n - 1, n, n + 1), fc.constantFrom(...CHARS)).map(([k, c]) => c.repeat(k)),
    fc.array(fc.constantFrom(...CHARS), { minLength: n - 1, maxLength: n + 1 }).map((a) => a.join('')),
  );
const v2Int = fc.oneof(fc.constantFrom<unknown>(0, 1, 4, '4', '', ' 4', '4.0', '-1', 1.5, 'four', null, true), fc.integer({ min: -5, max: MAX_TIRE_COUNT }), fc.integer({ min: 0, max: MAX_TIRE_COUNT }).map(String));
const money = fc.oneof(
  fc.constantFrom<unknown>(12, 12.5, 12.55, 12.555, 0.1 + 0.2, '12.50', '12.5', '12.555', '', '$12', '12,50', -1, '-0.99', null),
  fc.integer({ min: 0, max: 100000 }).map((c) => c / 100),
  fc.integer({ min: 0, max: 100000 }).map((c) => (c / 100).toFixed(2)),
);
const dates = fc.constantFrom<unknown>('2025-01-15', '2024-02-29', '2023-02-29', '2025-01-15T14:30:00Z', '2025-01-15T14:30:00+02:00', '2025-01-15T14:30:00', '1990-01-01', '2099-01-01', '', '15/01/2025', 20250115);
const v2Year = fc.constantFrom<unknown>('2021', '1885', '1899', '0999', '2099', '21', '', 'abcd', 2021);
const v3Year = fc.constantFrom<unknown>(2021, 1885, 1899, 999, 1000, 9999, 10000, 2021.5, '2021', 2099);
const customerEmail = fc.constantFrom<unknown>('jane@example.com', 'not-an-email', 'x@y', '', 'a b@c.d', 5);
const plainEmail = fc.constantFrom<unknown>('service@example.com', 'front desk', 'x@y', '', 'not-an-email');
const yesNo = fc.constantFrom<unknown>('Yes', 'No', 'yes', 'NO', 'nO', 'Maybe', '', 'Yess!', true);
const v3Number = fc.constantFrom<unknown>(12.75, 0, -3, '12.75', '', null);
const v3Integer = fc.constantFrom<unknown>(4, 0, -1, 4.5, '4', 1e21);

/** Sets (or, for undefined, deletes) the value at `path`. */
const at = (path: readonly (string | number)[], value: fc.Arbitrary<unknown>): fc.Arbitrary<Mutation> =>
  value.map((v) => (b: Body) => {
    let o = b;
    for (const seg of path.slice(0, -1)) o = (o[seg] ??= {});
    const last = path[path.length - 1]!;
    if (v === undefined) delete o[last];
    else o[last] = v;
  });
const drop = (path: readonly (string | number)[]) => at(path, fc.constant(undefined));

interface KindCase {
  readonly kind: PayloadKind;
  /** A fresh valid body for run `uid` (unique invoice numbers), after any setup requests. */
  readonly base: (uid: string) => Promise<Body>;
  readonly mutations: readonly fc.Arbitrary<Mutation>[];
  readonly send: (body: Body) => Promise<number>;
}

describe('editor, CLI and Local sandbox agree on payloads at each rule boundary (property)', function () {
  this.timeout(240000);
  let dir: string;
  let client: Client;
  let close: () => Promise<void>;
  let seq = 0;
  const uid = () => `AG${Date.now().toString(36)}${(seq++).toString(36)}`.toUpperCase();
  const template = (kind: PayloadKind): Body => structuredClone(PAYLOAD_KINDS[kind].template) as Body;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tpp-agree-'));
    const key = newKey('ES256');
    const sb = track(await startSandbox({ partners: [{ id: PARTNER, spkiPem: key.spkiPem, name: PARTNER }] }));
    close = () => sb.close();
    client = new Client(sb, PARTNER, key);
    const shop = await client.call('POST', '/tire-protection/shops', { uniqueId: 'AGREE-SHOP', legalName: 'Agreement Tires' });
    assert.equal(shop.status, 204, shop.text);
  });
  after(async () => {
    await close?.();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const today = () => new Date().toISOString().slice(0, 10);
  const v2Post = async (b: Body) => (await client.call('POST', `/v2/partners/${PARTNER}`, stripMeta(b))).status;
  const v3Post = (path: string) => async (b: Body) => (await client.call('POST', path, stripMeta(b))).status;
  const v2Reg = (b: Body) => b.Registrations[0];

  const CASES: KindCase[] = [
    {
      kind: 'v2-registrations',
      base: async (id) => {
        const b = template('v2-registrations');
        Object.assign(v2Reg(b), { InvoiceNumber: id, PlanEnrollDate: today() });
        return b;
      },
      mutations: [
        ...['ShopID', 'TireBrand', 'TireSize', 'TireDOT1', 'VehicleMake'].map((f) => at(['Registrations', 0, f], around(25))),
        ...['EmployeeID', 'CustomerID', 'OrgID', 'VIN'].map((f) => at(['Registrations', 0, f], around(50))),
        ...['TiresCovered', 'CurrentMileage'].map((f) => at(['Registrations', 0, f], v2Int)),
        ...['TPPPrice', 'TirePrice', 'TireCost'].map((f) => at(['Registrations', 0, f], money)),
        at(['Registrations', 0, 'PlanEnrollDate'], dates),
        at(['Registrations', 0, 'VehicleYear'], v2Year),
        at(['Registrations', 0, 'CommercialVehicle'], yesNo),
        fc.integer({ min: 2, max: 6 }).map((n) => (b: Body) => {
          for (let i = 1; i <= n; i++) v2Reg(b)[`TireDOT${i}`] = `DOT-${i}`;
        }),
        drop(['Registrations', 0, 'TireSize']),
        fc.constant((b: Body) => void b.Registrations.push({ ...v2Reg(b) })),
      ],
      send: v2Post,
    },
    {
      kind: 'v2-claims',
      base: async (id) => {
        const reg = { ...template('v2-registrations').Registrations[0], InvoiceNumber: id, PlanEnrollDate: today(), TiresCovered: MAX_TIRE_COUNT };
        const r = await client.call('POST', `/v2/partners/${PARTNER}`, { Registrations: [reg] });
        assert.equal(r.status, 200, r.text);
        const b = template('v2-claims');
        Object.assign(b.Claims[0], { InvoiceNumber: id, RepairInvoiceNumber: `R${id}`, ClaimDate: today() });
        return b;
      },
      mutations: [
        ...['RepairShopID', 'TireBrand', 'TireSize'].map((f) => at(['Claims', 0, f], around(25))),
        ...['RepairInvoiceNumber', 'VIN'].map((f) => at(['Claims', 0, f], around(50))),
        ...['TireLocation1', 'ServiceDescription'].map((f) => at(['Claims', 0, f], around(200))),
        ...['TireClaimCount', 'VehicleMileage'].map((f) => at(['Claims', 0, f], v2Int)),
        ...['CreditAmount', 'CostPerUnit', 'TireCost'].map((f) => at(['Claims', 0, f], money)),
        at(['Claims', 0, 'ClaimDate'], dates),
        at(['Claims', 0, 'ServiceType'], fc.constantFrom('REPLACE', 'REPAIR', 'repair', 'FIX', '')),
      ],
      send: v2Post,
    },
    {
      kind: 'v2-sales',
      base: async (id) => {
        const b = template('v2-sales');
        Object.assign(b.Sales[0], { InvoiceNumber: id.slice(-25), SaleDate: today() });
        return b;
      },
      mutations: [
        ...['ShopID', 'InvoiceNumber', 'TireBrand', 'TireModel', 'TireSize'].map((f) => at(['Sales', 0, f], around(25))),
        at(['Sales', 0, 'OrgID'], around(50)),
        at(['Sales', 0, 'TireCount'], v2Int),
        ...['TirePrice', 'TireCost'].map((f) => at(['Sales', 0, f], money)),
        at(['Sales', 0, 'SaleDate'], dates),
      ],
      send: v2Post,
    },
    {
      kind: 'registration',
      base: async (id) => ({ ...template('registration'), invoiceNumber: id, enrollDate: today(), vehicle: { year: 2021, make: 'Toyota', model: 'RAV4' } }),
      mutations: [at(['customer', 'email'], customerEmail), at(['vehicle', 'year'], v3Year), at(['enrollDate'], dates), at(['tires', 0, 'retailPrice'], v3Number), at(['customer', 'name'], fc.constantFrom('', 'Jane', undefined)), at(['tires'], fc.constant([]))],
      send: v3Post('/registrations'),
    },
    {
      kind: 'tire-protection-registration',
      base: async (id) => ({ ...template('tire-protection-registration'), invoiceNumber: id, enrollDate: today() }),
      mutations: [at(['customer', 'email'], customerEmail), at(['vehicle', 'year'], v3Year), at(['enrollDate'], dates), at(['tires', 0, 'retailPrice'], v3Number), at(['customer', 'name'], around(30))],
      send: v3Post('/tire-protection/registrations'),
    },
    {
      kind: 'motor-club-registration',
      base: async (id) => ({ ...template('motor-club-registration'), invoiceNumber: id, enrollDate: today() }),
      mutations: [at(['customer', 'email'], customerEmail), at(['enrollDate'], dates), at(['customer', 'phone'], fc.constantFrom('+1 555 010 0123', '', 5))],
      send: v3Post('/motor-club/registrations'),
    },
    {
      kind: 'shop',
      base: async (id) => ({ ...template('shop'), uniqueId: id }),
      mutations: [at(['email'], plainEmail), at(['startDate'], dates), at(['phone'], fc.constantFrom('+1 555 010 0199', 'call us', 5))],
      send: v3Post('/tire-protection/shops'),
    },
    {
      kind: 'shop-update',
      base: async () => ({ ...template('shop-update'), $uniqueId: 'AGREE-SHOP' }),
      mutations: [at(['email'], fc.oneof(plainEmail, fc.array(plainEmail, { maxLength: 3 }))), at(['endDate'], dates), at(['startDate'], dates)],
      send: async (b) => (await client.call('PATCH', '/tire-protection/shops/AGREE-SHOP', stripMeta(b))).status,
    },
    {
      kind: 'part',
      base: async () => ({ ...template('part'), $uniqueId: 'AGREE-SHOP', date: today() }),
      mutations: [at(['quantity'], v3Integer), at(['cost'], v3Number), at(['date'], dates)],
      send: v3Post('/tire-protection/shops/AGREE-SHOP/parts'),
    },
    {
      kind: 'transaction',
      base: async () => ({ ...template('transaction'), date: today() }),
      mutations: [at(['quantity'], v3Integer), at(['unitPrice'], v3Number), at(['treadDepth'], v3Number), at(['date'], dates), at(['isTrailer'], fc.constantFrom(true, 'yes', 0))],
      send: v3Post('/tire-protection/transactions'),
    },
    {
      kind: 'motor-club-customer',
      base: async (id) => {
        const r = await client.call('POST', '/motor-club/registrations', { ...stripMeta(template('motor-club-registration')), invoiceNumber: id, enrollDate: today() });
        assert.equal(r.status, 201, r.text);
        return { ...template('motor-club-customer'), $registrationId: String(r.json.id), $invoiceNumber: undefined };
      },
      mutations: [at(['customer', 'email'], customerEmail), at(['customer', 'name'], around(40)), at(['customer', 'address', 'zip'], fc.constantFrom('12345', '', 12345)), drop(['customer'])],
      send: async (b) => (await client.call('PATCH', `/motor-club/registrations/${encodeURIComponent(b.$registrationId)}`, stripMeta(b))).status,
    },
    {
      kind: 'tire-protection-claim',
      base: async (id) => {
        const r = await client.call('POST', '/tire-protection/registrations', { ...template('tire-protection-registration'), $schema: undefined, invoiceNumber: id, enrollDate: today() });
        assert.equal(r.status, 201, r.text);
        return { ...template('tire-protection-claim'), $registrationId: String(r.json.id), serviceInvoiceDate: today() };
      },
      mutations: [at(['vehicleMileage'], v3Number), at(['authorizedAmount'], v3Number), at(['serviceInvoiceDate'], dates), at(['damageReason'], around(50))],
      send: async (b) => (await client.call('POST', `/tire-protection/registrations/${encodeURIComponent(b.$registrationId)}/claims`, stripMeta(b))).status,
    },
  ];

  /** The CLI's verdict: `tpp validate --format json <file>` in-process. */
  async function cli(text: string, file: string): Promise<{ code: number; problems: ValidateJsonProblem[] }> {
    writeFileSync(file, text);
    let stdout = '';
    const io = { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: () => true } };
    const code = await runCli(['validate', '--format', 'json', file], io);
    return { code, problems: JSON.parse(stdout) as ValidateJsonProblem[] };
  }

  for (const c of CASES) {
    it(`${c.kind}: same verdict from the diagnostics, tpp validate and the Local sandbox`, async () => {
      const file = join(dir, `case.${c.kind}.json`);
      const seen = { errors: 0, warnings: 0, clean: 0 };
      await fc.assert(
        fc.asyncProperty(fc.array(fc.oneof(...c.mutations), { minLength: 1, maxLength: 3 }), async (mutations) => {
          const body = await c.base(uid());
          for (const m of mutations) m(body);
          const text = JSON.stringify(body, null, 2);
          const core = diagnosePayload(text, { fileName: file })!.problems;
          const errors = core.filter((p) => p.severity === 'error');
          // Every error cites the spec section stating its rule.
          for (const e of errors) assert.ok(e.section, `${e.code} without a spec section: ${e.message}`);
          const fromCli = await cli(text, file);
          assert.deepEqual(
            fromCli.problems.map((p) => `${p.severity} ${p.code} ${p.line}:${p.column} ${p.message}`),
            core.map((p) => `${p.severity} ${p.code} ${p.range.start.line + 1}:${p.range.start.character + 1} ${p.message}`),
            'tpp validate reports what the editor reports',
          );
          assert.equal(fromCli.code, errors.length > 0 ? 1 : 0);
          const status = await c.send(body);
          const why = `${text}\n${core.map((p) => `${p.severity} ${p.code}: ${p.message}`).join('\n')}`;
          // The documented exception: a tire count the Local sandbox refuses is a warning (sandbox-tire-limit) and a 400.
          const refusedCount = core.some((p) => p.code === 'sandbox-tire-limit');
          if (errors.length > 0) assert.equal(status, 400, `errors, so the sandbox must answer 400:\n${why}`);
          else if (refusedCount) assert.equal(status, 400, `a tire count the Local sandbox refuses, so it must answer 400:\n${why}`);
          else assert.ok(status >= 200 && status < 300, `at most warnings, so the sandbox must answer 2xx, got ${status}:\n${why}`);
          if (errors.length > 0) seen.errors++;
          else if (core.length > 0) seen.warnings++;
          else seen.clean++;
        }),
        { numRuns: RUNS, seed: process.env.TPP_AGREEMENT_SEED ? Number(process.env.TPP_AGREEMENT_SEED) : undefined },
      );
      // The generators reach both sides of the rules (a property that only saw valid payloads proves little).
      assert.ok(seen.errors > 0 && seen.errors < RUNS, `${c.kind}: ${JSON.stringify(seen)}`);
    });
  }

  it(`the documented exception: a tire count above ${MAX_TIRE_COUNT} or below the least count is a warning (the Local sandbox refuses it)`, () => {
    const b = template('v2-registrations');
    v2Reg(b).TiresCovered = String(MAX_TIRE_COUNT + 1);
    const c = template('v2-claims');
    c.Claims[0].TireClaimCount = MAX_TIRE_COUNT + 1;
    for (const body of [b, c]) {
      const ps = diagnosePayload(JSON.stringify(body, null, 2))!.problems;
      assert.deepEqual(ps.map((p) => `${p.severity} ${p.code}`), ['warning sandbox-tire-limit']);
      assert.match(ps[0]!.message, /Local sandbox refuses it with 400/);
    }
    v2Reg(b).TiresCovered = MAX_TIRE_COUNT;
    assert.deepEqual(diagnosePayload(JSON.stringify(b))!.problems, []);
    v2Reg(b).TiresCovered = -2;
    c.Claims[0].TireClaimCount = 0;
    for (const body of [b, c]) {
      const ps = diagnosePayload(JSON.stringify(body, null, 2))!.problems.filter((p) => p.code !== 'tire-dots');
      assert.deepEqual(ps.map((p) => `${p.severity} ${p.code}`), ['warning sandbox-tire-limit']);
      assert.match(ps[0]!.message, /less than the Local sandbox accepts .* refuses it with 400/);
    }
  });
});
