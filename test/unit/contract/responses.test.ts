import assert from 'node:assert/strict';
import { z } from 'zod';
import {
  CreatedClaimId,
  CreatedId,
  ENDPOINTS,
  EligibilityQuery,
  EligibilityResponse,
  ErrorBody,
  MotorClubRegistrationRecord,
  RegistrationMetadata,
  RegistrationRecord,
  ShopLookupResult,
  TireProtectionRegistrationList,
  TireProtectionRegistrationRecord,
  UnauthorizedBody,
  V2ClaimRecord,
  V2RegistrationRecord,
  V2RegistrationStatus,
  VerifyTokenResponse,
} from '../../../src/core/contract';
import * as T from './specTables';
import { SpecRow, parseTable } from './specTables';

/**
 * Response schemas: the spec's sample shapes parse, unknown extra fields are kept (loose objects), wrong types
 * fail at the field, and fields may be missing (tolerant reads).
 */

/** Splits "OrgID, ShopID, InvoiceNumber" rows of the status table. */
function splitRows(rows: SpecRow[]): SpecRow[] {
  return rows.flatMap((r) => r.field.split(',').map((f) => ({ ...r, field: f.trim() })));
}

type Sample = { valid: unknown; wrong: unknown };

/** A read value and a wrongly typed one for a row's type. */
function sampleFor(type: string): Sample {
  const t = type.toLowerCase();
  if (t.startsWith('int') && !t.startsWith('integer')) return { valid: '3', wrong: 'three' }; // v2 int: numeric strings tolerated
  if (t.startsWith('integer')) return { valid: 3, wrong: 2.5 };
  if (t.startsWith('datetime') || t.startsWith('iso 8601')) return { valid: '2024-03-15T14:30:00Z', wrong: 5 };
  if (t.startsWith('boolean')) return { valid: true, wrong: 'yes' };
  if (t.startsWith('array')) return { valid: [], wrong: 'x' };
  if (t.startsWith('object')) return { valid: { type: 'Point', coordinates: [-97.7431, 30.2672] }, wrong: 'x' };
  return { valid: 'text', wrong: { nested: true } };
}

interface ReadCase {
  title: string;
  schema: z.ZodType;
  rows: SpecRow[];
}

const READ_CASES: ReadCase[] = [
  { title: 'v2 registration status record', schema: V2RegistrationStatus, rows: splitRows(parseTable(T.V2_STATUS_TABLE)) },
  { title: 'registration metadata', schema: RegistrationMetadata, rows: parseTable(T.V3_METADATA_TABLE) },
  { title: 'list envelope', schema: TireProtectionRegistrationList, rows: parseTable(T.V3_LIST_TABLE) },
  { title: 'shop lookup result', schema: ShopLookupResult, rows: parseTable(T.V3_LOOKUP_RESULT.table) },
  { title: 'verify-token response', schema: VerifyTokenResponse, rows: parseTable(T.V3_VERIFY_TOKEN.table) },
];

describe('contract: response schemas (generated from the tables)', () => {
  for (const c of READ_CASES) {
    describe(c.title, () => {
      const sample: Record<string, unknown> = {};
      for (const r of c.rows) sample[r.field] = sampleFor(r.type).valid;

      it('parses the spec sample shape', () => {
        const r = c.schema.safeParse(sample);
        assert.ok(r.success, JSON.stringify(!r.success && r.error.issues));
      });
      it('keeps unknown extra fields (loose object)', () => {
        const r = c.schema.safeParse({ ...sample, addedByServer: 42 });
        assert.ok(r.success);
        assert.equal((r.data as Record<string, unknown>).addedByServer, 42);
      });
      for (const row of c.rows) {
        it(`${row.field}: a wrong type fails at ${row.field}`, () => {
          const r = c.schema.safeParse({ ...sample, [row.field]: sampleFor(row.type).wrong });
          assert.equal(r.success, false);
          assert.ok(!r.success && r.error.issues.every((i) => i.path[0] === row.field));
        });
      }
    });
  }

  it('v2 status record: ints sent as strings are converted; empty dates are tolerated', () => {
    const r = V2RegistrationStatus.parse({
      RegistrationID: '48213',
      PartnerID: 17,
      ShopID: 'NW-0142',
      InvoiceNumber: 'INV-1',
      WarrantyStatus: '2',
      TiresLeft: 0,
      CancelDate: '',
      ExpireDate: null,
      Message: 'Registration is Cancelled',
    });
    assert.equal(r.RegistrationID, 48213);
    assert.equal(r.WarrantyStatus, 2);
  });

  it('v2 claim read back carries TirePrice and PartnerID; CommercialVehicle reads as "false"', () => {
    const claim = V2ClaimRecord.parse({ ShopID: 'NW-0142', ServiceType: 'REPAIR', TirePrice: '189.99', PartnerID: '17' });
    assert.equal(claim.TirePrice, 189.99);
    assert.equal(claim.PartnerID, 17);
    const reg = V2RegistrationRecord.parse({ ShopID: 'NW-0142', CommercialVehicle: 'false', TPPPrice: 24.99, PartnerID: 17 });
    assert.equal(reg.CommercialVehicle, 'false');
    assert.equal(V2RegistrationRecord.safeParse({ TPPPrice: 'n/a' }).success, false);
  });

  it('v3 registration reads add _id and cancelledOn; tire-protection reads add program_id and embedded claims', () => {
    const reg = RegistrationRecord.parse({
      _id: '6614f2c9a8b3e21d4c0f9a17',
      product_id: 'tp',
      invoiceNumber: 'INV-1',
      enrollDate: '2025-03-21',
      customer: { name: 'Maria', email: 'maria@example.com', extra: 1 },
      tires: [{ make: 'Goodyear', model: 'Assurance', size: '215/55R17', retailPrice: 176.49 }],
      cancelledOn: '2025-06-30T17:00:00Z',
    });
    assert.equal(reg._id, '6614f2c9a8b3e21d4c0f9a17');
    assert.equal((reg.customer as Record<string, unknown>).extra, 1);
    const tp = TireProtectionRegistrationRecord.parse({
      _id: 'abc',
      program_id: 'prog-1',
      claims: [{ id: 7, anything: 'goes' }],
      customer: null,
    });
    assert.equal(tp.program_id, 'prog-1');
    assert.equal(MotorClubRegistrationRecord.safeParse({ _id: 'x', customer: { name: 'Priya' } }).success, true);
    // Formats are not re-checked on reads, types are.
    assert.equal(RegistrationRecord.safeParse({ tires: [{ retailPrice: 'cheap' }] }).success, false);
  });

  it('shop lookup location is [longitude, latitude]: two numbers', () => {
    assert.equal(ShopLookupResult.safeParse({ location: { type: 'Point', coordinates: [-97.7, 30.2] } }).success, true);
    assert.equal(ShopLookupResult.safeParse({ location: { type: 'Point', coordinates: [-97.7] } }).success, false);
  });

  it('the 401 body is exactly {"error":"unauthorized","statusCode":401}', () => {
    assert.deepEqual(UnauthorizedBody.parse({ error: 'unauthorized', statusCode: 401 }), { error: 'unauthorized', statusCode: 401 });
    assert.equal(UnauthorizedBody.safeParse({ error: 'forbidden', statusCode: 401 }).success, false);
    assert.equal(UnauthorizedBody.safeParse({ error: 'unauthorized', statusCode: 403 }).success, false);
    assert.equal(UnauthorizedBody.safeParse({ error: 'unauthorized' }).success, false);
  });

  it('ErrorBody parses the sandbox 400 body and tolerates partial bodies', () => {
    const body = {
      error: 'bad_request',
      statusCode: 400,
      message: '1 field is invalid',
      issues: [{ path: 'Registrations.0.ShopID', message: 'required field is missing' }],
    };
    assert.deepEqual(ErrorBody.parse(body), body);
    assert.equal(ErrorBody.safeParse({}).success, true);
    assert.equal(ErrorBody.safeParse({ issues: [{ path: 1 }] }).success, false);
  });

  it('create responses: id string; claim id number (numeric string converted)', () => {
    assert.equal(CreatedId.parse({ id: '6614f2c9' }).id, '6614f2c9');
    assert.equal(CreatedClaimId.parse({ id: 31 }).id, 31);
    assert.equal(CreatedClaimId.parse({ id: '31' }).id, 31);
    assert.equal(CreatedClaimId.safeParse({}).success, false);
  });

  it('eligibility: query needs vin, or licensePlate with a two-letter state; response isEligible', () => {
    assert.equal(EligibilityQuery.safeParse({ vin: '1HGCV1F34KA012345' }).success, true);
    assert.equal(EligibilityQuery.safeParse({ licensePlate: 'LMN4821', state: 'TX' }).success, true);
    const noState = EligibilityQuery.safeParse({ licensePlate: 'LMN4821' });
    assert.ok(!noState.success && noState.error.issues[0]?.path[0] === 'state');
    assert.equal(EligibilityQuery.safeParse({ licensePlate: 'LMN4821', state: 'Texas' }).success, false);
    assert.equal(EligibilityQuery.safeParse({}).success, false);
    assert.equal(EligibilityResponse.parse({ isEligible: false }).isEligible, false);
  });

  it('every endpoint lists a 401 body (the eligibility lookup too: its errors are not shown, the Local sandbox answers 401)', () => {
    for (const def of Object.values(ENDPOINTS)) assert.equal(def.responses[401], UnauthorizedBody, def.id);
  });

  it('every endpoint lists every answer the Local sandbox can give it (405, 429, 5xx; with a body 400, 413, 415)', () => {
    for (const def of Object.values(ENDPOINTS)) {
      for (const s of [405, 429, 500, 502, 503, 504]) assert.equal(def.responses[s], ErrorBody, `${def.id} ${s}`);
      for (const s of [400, 413, 415]) assert.equal(def.responses[s] === ErrorBody, def.body !== undefined || (s === 400 && def.responses[400] !== undefined), `${def.id} ${s}`);
    }
    // The rows the spec leaves short: 404 for a shop update or a part of an unknown shop; the v2 POST's
    // rejected records (404 unknown registration, 409 conflict) and its 403 (another partner's name segment).
    for (const [id, s] of [['updateShop', 404], ['addShopPart', 404], ['v2PostRecords', 404], ['v2PostRecords', 409], ['v2PostRecords', 403], ['v2GetRecords', 403]] as const)
      assert.equal(ENDPOINTS[id].responses[s], ErrorBody, `${id} ${s}`);
  });
});
