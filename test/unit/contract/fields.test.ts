import assert from 'node:assert/strict';
import { z } from 'zod';
import {
  CancellationBody,
  MotorClubCustomerUpdate,
  MotorClubRegistration,
  Part,
  Registration,
  Shop,
  ShopUpdate,
  TireProtectionClaim,
  TireProtectionRegistration,
  Transaction,
  V2CancellationsBody,
  V2ClaimsBody,
  V2RegistrationsBody,
  V2SalesBody,
} from '../../../src/core/contract';
import { buildValid, invalidVariants, issuePaths, kindOf, validVariants } from './fieldRules';
import * as T from './specTables';
import { SpecRow, parseTable } from './specTables';

/**
 * Table-driven tests of every request field table row of the spec: a valid value passes, each violation fails
 * with an issue whose path names the exact field. Objects are tested where they are sent (nested in their
 * body), so paths are the real ones, e.g. Registrations.0.ShopID or customer.address.zip.
 */

type Path = (string | number)[];

interface RequestCase {
  readonly title: string;
  readonly rows: readonly SpecRow[];
  /** Schema of the whole body. */
  readonly schema: z.ZodType;
  /** Where the object under test sits in the body. */
  readonly at: Path;
  /** Valid body with `obj` placed at `at`. */
  readonly body: (obj: Record<string, unknown>) => unknown;
  /** Fixtures for object/array fields (and fields the contract narrows, e.g. email). */
  readonly fixtures?: Record<string, unknown>;
}

const rows = (md: string | T.ProseTable) => parseTable(typeof md === 'string' ? md : md.table);

// Valid nested objects, built from their own rows.
const v3Address = buildValid(rows(T.V3_ADDRESS));
const v3Customer = buildValid(rows(T.V3_CUSTOMER), { address: v3Address });
const v3Tire = buildValid(rows(T.V3_TIRE));
const v3Vehicle = buildValid(rows(T.V3_VEHICLE));
const v3Registration = buildValid(rows(T.V3_REGISTRATION_TABLE), {
  customer: v3Customer,
  tires: [v3Tire],
  vehicle: v3Vehicle,
});
const tpCustomer = buildValid(rows(T.V3_TP_CUSTOMER));
const tpVehicle = buildValid(rows(T.V3_TP_VEHICLE));
const tpTire = buildValid(rows(T.V3_TP_TIRE));
const tpRegistration = buildValid(rows(T.V3_TP_REGISTRATION), { customer: tpCustomer, vehicle: tpVehicle, tires: [tpTire] });
const claimTireSpec = buildValid(rows(T.V3_CLAIM_TIRE_SPEC));
const claimTires = [{ original: claimTireSpec, replacement: claimTireSpec }];
const claim = buildValid(rows(T.V3_CLAIM_TABLE), { tires: claimTires });
const shopAddress = buildValid(rows(T.V3_SHOP_ADDRESS));
const shopFixtures = { address: shopAddress, mailingAddress: shopAddress, email: 'service@example.com' };
const shop = buildValid(rows(T.V3_SHOP_TABLE), shopFixtures);
const mcAddress = buildValid(rows(T.V3_MOTOR_CLUB_ADDRESS));
const mcCustomer = buildValid(rows(T.V3_MOTOR_CLUB_CUSTOMER), { address: mcAddress });
const mcRegistration = buildValid(rows(T.V3_MOTOR_CLUB_REGISTRATION), { customer: mcCustomer });

const v2 = (key: string, schema: z.ZodType, md: string): RequestCase => ({
  title: `v2 ${key} record`,
  rows: parseTable(md),
  schema,
  at: [key, 0],
  body: (o) => ({ [key]: [o] }),
});

const CASES: RequestCase[] = [
  v2('Registrations', V2RegistrationsBody, T.V2_REGISTRATION_TABLE),
  v2('Claims', V2ClaimsBody, T.V2_CLAIM_TABLE),
  v2('Sales', V2SalesBody, T.V2_SALE_TABLE),
  v2('Cancellations', V2CancellationsBody, T.V2_CANCELLATION_TABLE),
  {
    title: 'v3 registration (earlier revision)',
    rows: rows(T.V3_REGISTRATION_TABLE),
    schema: Registration,
    at: [],
    body: (o) => o,
    fixtures: { customer: v3Customer, tires: [v3Tire], vehicle: v3Vehicle },
  },
  {
    title: 'v3 registration customer',
    rows: rows(T.V3_CUSTOMER),
    schema: Registration,
    at: ['customer'],
    body: (o) => ({ ...v3Registration, customer: o }),
    fixtures: { address: v3Address },
  },
  {
    title: 'v3 registration customer address',
    rows: rows(T.V3_ADDRESS),
    schema: Registration,
    at: ['customer', 'address'],
    body: (o) => ({ ...v3Registration, customer: { ...v3Customer, address: o } }),
  },
  {
    title: 'v3 registration tire',
    rows: rows(T.V3_TIRE),
    schema: Registration,
    at: ['tires', 0],
    body: (o) => ({ ...v3Registration, tires: [o] }),
  },
  {
    title: 'v3 registration vehicle',
    rows: rows(T.V3_VEHICLE),
    schema: Registration,
    at: ['vehicle'],
    body: (o) => ({ ...v3Registration, vehicle: o }),
  },
  {
    title: 'tire-protection registration',
    rows: rows(T.V3_TP_REGISTRATION),
    schema: TireProtectionRegistration,
    at: [],
    body: (o) => o,
    fixtures: { customer: tpCustomer, vehicle: tpVehicle, tires: [tpTire] },
  },
  {
    title: 'tire-protection registration customer',
    rows: rows(T.V3_TP_CUSTOMER),
    schema: TireProtectionRegistration,
    at: ['customer'],
    body: (o) => ({ ...tpRegistration, customer: o }),
  },
  {
    title: 'tire-protection registration vehicle',
    rows: rows(T.V3_TP_VEHICLE),
    schema: TireProtectionRegistration,
    at: ['vehicle'],
    body: (o) => ({ ...tpRegistration, vehicle: o }),
  },
  {
    title: 'tire-protection registration tire',
    rows: rows(T.V3_TP_TIRE),
    schema: TireProtectionRegistration,
    at: ['tires', 0],
    body: (o) => ({ ...tpRegistration, tires: [o] }),
  },
  {
    title: 'tire-protection claim',
    rows: rows(T.V3_CLAIM_TABLE),
    schema: TireProtectionClaim,
    at: [],
    body: (o) => o,
    fixtures: { tires: claimTires },
  },
  {
    title: 'claim tire original',
    rows: rows(T.V3_CLAIM_TIRE_SPEC),
    schema: TireProtectionClaim,
    at: ['tires', 0, 'original'],
    body: (o) => ({ ...claim, tires: [{ original: o, replacement: claimTireSpec }] }),
  },
  {
    title: 'claim tire replacement',
    rows: rows(T.V3_CLAIM_TIRE_SPEC),
    schema: TireProtectionClaim,
    at: ['tires', 0, 'replacement'],
    body: (o) => ({ ...claim, tires: [{ original: claimTireSpec, replacement: o }] }),
  },
  { title: 'shop create body', rows: rows(T.V3_SHOP_TABLE), schema: Shop, at: [], body: (o) => o, fixtures: shopFixtures },
  {
    title: 'shop address',
    rows: rows(T.V3_SHOP_ADDRESS),
    schema: Shop,
    at: ['address'],
    body: (o) => ({ ...shop, address: o }),
  },
  {
    title: 'shop mailing address',
    rows: rows(T.V3_SHOP_ADDRESS),
    schema: Shop,
    at: ['mailingAddress'],
    body: (o) => ({ ...shop, mailingAddress: o }),
  },
  { title: 'shop update body', rows: rows(T.V3_SHOP_UPDATE), schema: ShopUpdate, at: [], body: (o) => o },
  { title: 'part', rows: rows(T.V3_PART_TABLE), schema: Part, at: [], body: (o) => o },
  { title: 'transaction', rows: rows(T.V3_TRANSACTION_TABLE), schema: Transaction, at: [], body: (o) => o },
  {
    title: 'motor-club registration',
    rows: rows(T.V3_MOTOR_CLUB_REGISTRATION),
    schema: MotorClubRegistration,
    at: [],
    body: (o) => o,
    fixtures: { customer: mcCustomer },
  },
  {
    title: 'motor-club registration customer',
    rows: rows(T.V3_MOTOR_CLUB_CUSTOMER),
    schema: MotorClubRegistration,
    at: ['customer'],
    body: (o) => ({ ...mcRegistration, customer: o }),
    fixtures: { address: mcAddress },
  },
  {
    title: 'motor-club customer address',
    rows: rows(T.V3_MOTOR_CLUB_ADDRESS),
    schema: MotorClubRegistration,
    at: ['customer', 'address'],
    body: (o) => ({ ...mcRegistration, customer: { ...mcCustomer, address: o } }),
  },
  {
    title: 'motor-club customer update body',
    rows: rows(T.V3_MOTOR_CLUB_CUSTOMER_UPDATE),
    schema: MotorClubCustomerUpdate,
    at: [],
    body: (o) => o,
    fixtures: { customer: mcCustomer },
  },
  {
    title: 'motor-club customer update: customer',
    rows: rows(T.V3_MOTOR_CLUB_CUSTOMER),
    schema: MotorClubCustomerUpdate,
    at: ['customer'],
    body: (o) => ({ customer: o }),
    fixtures: { address: mcAddress },
  },
  { title: 'cancelledOn body', rows: rows(T.V3_CANCELLATION_BODY), schema: CancellationBody, at: [], body: (o) => o },
];

function expectPass(schema: z.ZodType, body: unknown): unknown {
  const r = schema.safeParse(body);
  assert.ok(r.success, `expected success, got ${r.success ? '' : JSON.stringify(r.error.issues)}`);
  return r.data;
}

function expectFailAt(schema: z.ZodType, body: unknown, path: Path, messagePart?: string): void {
  const r = schema.safeParse(body);
  assert.equal(r.success, false, 'expected a validation error');
  const paths = issuePaths(r);
  assert.ok(paths.length > 0);
  for (const p of paths) assert.equal(p, path.join('.'), `issue path ${p} should name ${path.join('.')}`);
  const messages = r.success ? [] : r.error.issues.map((i) => i.message);
  assert.equal(new Set(messages).size, messages.length, `no repeated message: ${JSON.stringify(messages)}`);
  if (messagePart && !r.success) {
    assert.ok(
      r.error.issues.some((i) => i.message.includes(messagePart)),
      `expected a message containing "${messagePart}", got ${JSON.stringify(r.error.issues.map((i) => i.message))}`,
    );
  }
}

const get = (o: unknown, path: Path): unknown => path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)?.[k], o);

describe('contract: field tables of the spec (generated from the tables)', () => {
  for (const c of CASES) {
    describe(c.title, () => {
      const base = buildValid(c.rows, c.fixtures);

      it('a complete valid object passes', () => {
        expectPass(c.schema, c.body(base));
      });

      for (const row of c.rows) {
        const k = kindOf(row);
        const fieldPath = [...c.at, row.field];
        describe(`${row.field} (${row.type}${row.req !== undefined ? `, Req ${row.req || 'blank'}` : ''})`, () => {
          for (const v of validVariants(k)) {
            it(`accepts ${v.label}`, () => {
              const out = expectPass(c.schema, c.body({ ...base, [row.field]: v.value }));
              if ('output' in v) assert.deepEqual(get(out, fieldPath), v.output);
            });
          }
          for (const v of invalidVariants(k)) {
            it(`rejects ${v.label} at ${fieldPath.join('.')}`, () => {
              const message =
                v.label.startsWith('too long') && k.max !== undefined
                  ? `at most ${k.max} characters`
                  : v.label.startsWith('3-decimal')
                    ? 'at most 2 decimals'
                    : v.label.startsWith('bad date') || v.label.startsWith('timestamp without')
                      ? 'ISO 8601'
                      : undefined;
              expectFailAt(c.schema, c.body({ ...base, [row.field]: v.value }), fieldPath, message);
            });
          }
          const { [row.field]: _omitted, ...without } = base;
          if (row.req === 'Y') {
            it('rejects the field missing (required)', () => {
              expectFailAt(c.schema, c.body(without), fieldPath, 'required field is missing');
            });
            const v2 = k.kind === 'int' || k.kind === 'money' || (k.kind === 'string' && k.max !== undefined);
            if (v2 || k.kind === 'datetime') {
              it('rejects the field empty (version 2: "a required field empty or malformed" is a 400; a date must be ISO 8601)', () => {
                expectFailAt(c.schema, c.body({ ...base, [row.field]: '' }), fieldPath, v2 ? 'required field is empty' : undefined);
              });
            } else if (k.kind === 'string') {
              it('accepts the field empty (version 3: the spec states the 400 for an empty required field in version 2 only)', () => {
                expectPass(c.schema, c.body({ ...base, [row.field]: '' }));
              });
            }
          } else {
            // N, blank, or flag "not shown" (documented default: optional; docs/contract.md).
            it(`accepts the field missing (${row.req === undefined ? 'required flag not shown: optional' : 'optional'})`, () => {
              expectPass(c.schema, c.body(without));
            });
          }
        });
      }

      it('does not reject unknown fields (they are warnings for the diagnostics layer)', () => {
        expectPass(c.schema, c.body({ ...base, SomethingElse: 'x' }));
      });
    });
  }
});

describe('contract: every field of the spec tables exists in the schema', () => {
  for (const c of CASES) {
    it(`${c.title}: the schema has exactly the spec's fields`, () => {
      // Walk the body schema to the object under test through .shape / .element, as the diagnostics layer does.
      let s: z.ZodType = c.schema;
      const unwrap = (x: z.ZodType): z.ZodType => {
        let cur = x as z.ZodType & { unwrap?: () => z.ZodType };
        while (cur instanceof z.ZodOptional || cur instanceof z.ZodNullable) cur = cur.unwrap() as typeof cur;
        return cur;
      };
      for (const step of c.at) {
        s = unwrap(s);
        s = typeof step === 'number' ? (s as z.ZodArray<z.ZodType>).element : (s as z.ZodObject).shape[step] as z.ZodType;
      }
      s = unwrap(s);
      assert.ok(s instanceof z.ZodObject, 'request objects are plain z.object');
      // A property declared z.never() is the other body's field on a shared PATCH path: refused, not a spec field.
      const shape = (s as z.ZodObject).shape as Record<string, z.ZodType>;
      const keys = Object.keys(shape).filter((k) => !(unwrap(shape[k]!) instanceof z.ZodNever)).sort();
      assert.deepEqual(keys, c.rows.map((r) => r.field).sort());
    });
  }
});

describe('contract: the motor-club PATCH bodies share a path, so each refuses the other one\'s field (docs/contract.md)', () => {
  const customer = { name: 'Jane' };
  it('a customer update with cancelledOn fails at cancelledOn, naming the separate requests', () => {
    expectFailAt(MotorClubCustomerUpdate, { customer, cancelledOn: '2025-06-01' }, ['cancelledOn'], 'separate requests');
    expectPass(MotorClubCustomerUpdate, { customer });
  });
  it('a cancellation with a customer fails at customer', () => {
    expectFailAt(CancellationBody, { cancelledOn: '2025-06-01', customer }, ['customer'], 'separate request');
    expectPass(CancellationBody, { cancelledOn: '2025-06-01' });
  });
});
