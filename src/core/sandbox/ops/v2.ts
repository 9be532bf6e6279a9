import { Queryable } from '../db/database';
import { CancellationRecord, ClaimRecord, RegistrationRecord, isoDate, num, str } from '../model';
import { addClaimed, checkClaimable } from './claims';
import { MIN_TIRE_COUNT } from '../../contract/limits';
import { ApiError, Body, MAX_V2_RECORDS, OpsContext, REG_COLUMNS, RegRow, badRequest, checkTireCount, conflict, newId, registrationName, notFound, regOf } from './common';
import type { PartnerRecord } from './partners';
import { tiresLeftConflict } from './registrations';
import { v2Cancellations, v2Claims, v2Registration, v2Status } from './v2views';

/**
 * The version 2 record interface (spec: Version 2 records; Version 2 record endpoints). A POST is one transaction:
 * every record is stored, or, when one is rejected, none (each record runs under a savepoint so that every rejected
 * record is reported). Identities that make a resend an update are unique keys of the database.
 */

export type V2Kind = 'Registrations' | 'Claims' | 'Sales' | 'Cancellations';

/** Outcome of one record of a v2 POST (returned in the response). `not stored`: another record was rejected. */
export interface V2PostOutcome {
  readonly index: number;
  readonly status: 'created' | 'updated' | 'rejected' | 'not stored';
  readonly statusCode: number;
  readonly message?: string;
  readonly RegistrationID?: number;
  readonly ClaimID?: number;
  readonly id?: string;
}

type Outcome = Omit<V2PostOutcome, 'index'>;
const key = (...parts: unknown[]) => parts.map(str).join('\u001f');

/**
 * Thrown to roll the whole POST back once a record was rejected; carries every record's outcome and, by record index,
 * the field a 400 names within the record (e.g. `TiresCovered`), for the answer's issue paths.
 */
export class V2Rejected extends Error {
  constructor(
    readonly results: V2PostOutcome[],
    readonly fields: ReadonlyMap<number, string> = new Map(),
  ) {
    super('rejected');
  }
}

/** Stores the records of a v2 POST in one transaction. Throws {@link V2Rejected} (nothing stored) when any is rejected. */
export async function v2Post(c: OpsContext, p: PartnerRecord, kind: V2Kind, records: readonly Body[]): Promise<V2PostOutcome[]> {
  return c.db.transaction(async (tx) => {
    const results: V2PostOutcome[] = [];
    const fields = new Map<number, string>();
    for (const [index, rec] of records.entries()) {
      await tx.query('SAVEPOINT record', []);
      try {
        const handler = kind === 'Registrations' ? v2Registrations : kind === 'Claims' ? v2Claim : kind === 'Sales' ? v2Sale : v2Cancellation;
        results.push({ index, ...(await handler(c, tx, p.id, rec)) });
        await tx.query('RELEASE SAVEPOINT record', []);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        await tx.query('ROLLBACK TO SAVEPOINT record', []);
        results.push({ index, status: 'rejected', statusCode: err.statusCode, message: err.message });
        const field = err.issues?.[0]?.path;
        if (field) fields.set(index, field);
      }
    }
    if (results.some((r) => r.status === 'rejected')) {
      throw new V2Rejected(results.map((r) => (r.status === 'rejected' ? r : { index: r.index, status: 'not stored', statusCode: r.statusCode })), fields);
    }
    return results;
  });
}

async function v2Registrations(c: OpsContext, tx: Queryable, partner: string, b: Body): Promise<Outcome> {
  const tiresCovered = num(b.TiresCovered);
  checkTireCount(tiresCovered, 'TiresCovered', MIN_TIRE_COUNT.TiresCovered);
  const invoiceNumber = str(b.InvoiceNumber);
  const shopId = str(b.ShopID);
  const now = c.nowIso();
  const fields = [str(b.OrgID), isoDate(b.PlanEnrollDate), now, tiresCovered, JSON.stringify(b)];
  const { rows } = await tx.query<{ id: string; registration_id: number }>(
    `UPDATE tpp.registrations SET source = 'v2', org_id = $4, enroll_date = $5, status_date = $6, tires_covered = $7, body = $8::json
     WHERE partner = $1 AND invoice_number = $2 AND store_number = $3 RETURNING id, registration_id`,
    [partner, invoiceNumber, shopId, ...fields],
  ).catch((err: unknown) => {
    throw tiresLeftConflict(err, `TiresCovered ${tiresCovered} is below the tires already claimed or cancelled on InvoiceNumber ${invoiceNumber}`);
  });
  if (rows[0]) return { status: 'updated', statusCode: 200, RegistrationID: Number(rows[0].registration_id), id: rows[0].id };
  const id = newId(c.now());
  const inserted = await tx.query<{ registration_id: number }>(
    `WITH pos AS (UPDATE tpp.partners SET registration_count = registration_count + 1 WHERE id = $1 RETURNING registration_count)
     INSERT INTO tpp.registrations (partner, id, position, source, invoice_number, store_number, org_id, enroll_date, created_date, status_date, tires_covered, body)
     SELECT $1, $2, registration_count, 'v2', $3, $4, $5, $6, $7, $7, $8, $9::json FROM pos RETURNING registration_id`,
    [partner, id, invoiceNumber, shopId, ...fields],
  );
  return { status: 'created', statusCode: 201, RegistrationID: Number(inserted.rows[0]?.registration_id), id };
}

async function v2Target(tx: Queryable, partner: string, b: Body): Promise<RegistrationRecord> {
  const { rows } = await tx.query<RegRow>(`SELECT ${REG_COLUMNS} FROM tpp.registrations WHERE partner = $1 AND invoice_number = $2 AND store_number = $3 FOR UPDATE`, [
    partner,
    str(b.InvoiceNumber),
    str(b.ShopID),
  ]);
  if (!rows[0]) throw notFound(`No registration with ShopID ${str(b.ShopID)} and InvoiceNumber ${str(b.InvoiceNumber)}`);
  return regOf(rows[0]);
}

/** A v2 claim; identity RepairShopID + RepairInvoiceNumber on the same registration: a resend updates it. */
async function v2Claim(c: OpsContext, tx: Queryable, partner: string, b: Body): Promise<Outcome> {
  const tireCount = num(b.TireClaimCount);
  checkTireCount(tireCount, 'TireClaimCount', MIN_TIRE_COUNT.TireClaimCount);
  const r = await v2Target(tx, partner, b);
  const v2Key = key(b.RepairShopID, b.RepairInvoiceNumber);
  const same = (await tx.query<{ id: number; tire_count: number }>('SELECT id, tire_count FROM tpp.claims WHERE partner = $1 AND registration = $2 AND v2_key = $3', [partner, r._id, v2Key])).rows[0];
  checkClaimable(c, r, tireCount, same ? Number(same.tire_count) : 0, r.registrationId);
  let claimId: number;
  if (same) {
    await tx.query('UPDATE tpp.claims SET tire_count = $2, body = $3::json WHERE id = $1', [same.id, tireCount, JSON.stringify(b)]);
    claimId = Number(same.id);
  } else {
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO tpp.claims (partner, registration, source, created_date, tire_count, v2_key, body) VALUES ($1, $2, 'v2', $3, $4, $5, $6::json) RETURNING id`,
      [partner, r._id, c.nowIso(), tireCount, v2Key, JSON.stringify(b)],
    );
    claimId = Number(rows[0]?.id);
  }
  await addClaimed(c, tx, partner, r, tireCount - (same ? Number(same.tire_count) : 0), r.registrationId);
  return { status: same ? 'updated' : 'created', statusCode: same ? 200 : 201, RegistrationID: r.registrationId, ClaimID: claimId };
}

async function v2Sale(c: OpsContext, tx: Queryable, partner: string, b: Body): Promise<Outcome> {
  const { rows } = await tx.query<{ inserted: boolean }>(
    `INSERT INTO tpp.sales (partner, shop_id, invoice_number, created_date, body) VALUES ($1, $2, $3, $4, $5::json)
     ON CONFLICT (partner, invoice_number, shop_id) DO UPDATE SET body = EXCLUDED.body RETURNING (xmax = 0) AS inserted`,
    [partner, str(b.ShopID), str(b.InvoiceNumber), c.nowIso(), JSON.stringify(b)],
  );
  return rows[0]?.inserted ? { status: 'created', statusCode: 201 } : { status: 'updated', statusCode: 200 };
}

/**
 * A v2 cancellation. Identity OrgID + ShopID + InvoiceNumber + CancelShopID + CancelInvoiceNumber: a resend updates
 * it. A different cancellation of a cancelled registration is 409 (one cancellation per registration is a key of
 * the database); of an expired one, 409.
 */
async function v2Cancellation(c: OpsContext, tx: Queryable, partner: string, b: Body): Promise<Outcome> {
  const tireCount = num(b.TireCancelCount);
  checkTireCount(tireCount, 'TireCancelCount', MIN_TIRE_COUNT.TireCancelCount);
  const r = await v2Target(tx, partner, b);
  const v2Key = key(b.OrgID, b.ShopID, b.InvoiceNumber, b.CancelShopID, b.CancelInvoiceNumber);
  const same = (await tx.query<{ tire_count: number }>("SELECT tire_count FROM tpp.cancellations WHERE partner = $1 AND registration = $2 AND source = 'v2' AND v2_key = $3", [partner, r._id, v2Key])).rows[0];
  const k = c.counts(r);
  if (!same) {
    if (k.cancelledOn !== undefined) throw conflict(`${registrationName(r, r.registrationId)} is already cancelled`);
    if (k.expired) throw conflict(`${registrationName(r, r.registrationId)} expired on ${k.expirationDate}: the program terms forbid cancelling it`);
  }
  const before = same ? Number(same.tire_count) : 0;
  // More tires than remain is refused, not cut down to what remains: the record read back is the one sent.
  if (tireCount > k.tiresLeft + before) throw conflict(`${registrationName(r, r.registrationId)} has ${k.tiresLeft + before} tire(s) left; the cancellation names ${tireCount}`);
  const when = isoDate(b.CancelDate);
  const now = c.nowIso();
  if (same) {
    await tx.query('UPDATE tpp.cancellations SET tire_count = $3, cancelled_on = $4, body = $5::json WHERE partner = $1 AND registration = $2', [partner, r._id, tireCount, when, JSON.stringify(b)]);
  } else {
    await tx.query(
      `INSERT INTO tpp.cancellations (partner, registration, source, created_date, cancelled_on, tire_count, v2_key, body) VALUES ($1, $2, 'v2', $3, $4, $5, $6, $7::json)`,
      [partner, r._id, now, when, tireCount, v2Key, JSON.stringify(b)],
    );
  }
  await tx.query('UPDATE tpp.registrations SET cancelled_on = $3, tire_cancel_count = tire_cancel_count + $4, status_date = $5 WHERE partner = $1 AND id = $2', [
    partner,
    r._id,
    when,
    tireCount - before,
    now,
  ]);
  return { status: same ? 'updated' : 'created', statusCode: same ? 200 : 201, RegistrationID: r.registrationId };
}

/** Filters of a v2 GET. */
export interface V2Filter {
  readonly shopId?: string;
  readonly invoiceNumber?: string;
  readonly partnerId?: string;
}

function tooMany(): ApiError {
  return badRequest(`More than ${MAX_V2_RECORDS} records match: narrow the query with shopid and/or invoicenumber`, 'query');
}

/**
 * v2 GET: the records of kind `rec` of the partner, filtered by ShopID / InvoiceNumber / PartnerID when given.
 * Always an array (possibly empty); 400 when more than MAX_V2_RECORDS records match. A `partnerid` other than the
 * caller's matches nothing.
 */
export async function v2Get(c: OpsContext, p: PartnerRecord, rec: string, f: V2Filter): Promise<Record<string, unknown>[]> {
  if (f.partnerId !== undefined && f.partnerId !== String(p.num) && f.partnerId !== p.id) return [];
  const params: unknown[] = [p.id];
  const where = ['partner = $1'];
  if (f.invoiceNumber !== undefined) where.push(`invoice_number = $${params.push(f.invoiceNumber)}`);
  if (rec === 'sales') {
    if (f.shopId !== undefined) where.push(`shop_id = $${params.push(f.shopId)}`);
    const { rows } = await c.db.query<{ body: Body }>(`SELECT body FROM tpp.sales WHERE ${where.join(' AND ')} ORDER BY id LIMIT ${MAX_V2_RECORDS + 1}`, params);
    if (rows.length > MAX_V2_RECORDS) throw tooMany();
    return rows.map((s) => ({ ...s.body, OrgID: str(s.body.OrgID), PartnerID: p.num }));
  }
  if (f.shopId !== undefined) where.push(`store_number = $${params.push(f.shopId)}`);
  const regs = (await c.db.query<RegRow>(`SELECT ${REG_COLUMNS} FROM tpp.registrations WHERE ${where.join(' AND ')} ORDER BY position LIMIT ${MAX_V2_RECORDS + 1}`, params)).rows.map(regOf);
  if (regs.length > MAX_V2_RECORDS) throw tooMany();
  const ids = regs.map((r) => r._id);
  if (rec === 'registrations') return regs.map((r) => v2Registration(p, r));
  if (rec === 'registrationstatus') return regs.map((r) => v2Status(p, r, c.counts(r)));
  if (rec === 'claims') {
    const { rows } = await c.db.query<{ registration: string; id: number; source: 'v2' | 'v3'; created_date: string; tire_count: number; body: Body }>(
      `SELECT registration, id, source, created_date, tire_count, body FROM tpp.claims WHERE partner = $1 AND registration = ANY($2::text[]) ORDER BY id LIMIT ${MAX_V2_RECORDS + 1}`,
      [p.id, ids],
    );
    if (rows.length > MAX_V2_RECORDS) throw tooMany();
    const byReg = new Map<string, ClaimRecord[]>();
    for (const x of rows) byReg.set(x.registration, [...(byReg.get(x.registration) ?? []), { id: Number(x.id), source: x.source, createdDate: x.created_date, tireCount: Number(x.tire_count), body: x.body }]);
    return regs.flatMap((r) => v2Claims(p, r, byReg.get(r._id) ?? []));
  }
  const { rows } = await c.db.query<{ registration: string; source: 'v2' | 'v3'; created_date: string; cancelled_on: string; tire_count: number; body: Body }>(
    'SELECT registration, source, created_date, cancelled_on, tire_count, body FROM tpp.cancellations WHERE partner = $1 AND registration = ANY($2::text[])',
    [p.id, ids],
  );
  const byReg = new Map<string, CancellationRecord>(rows.map((x) => [x.registration, { source: x.source, createdDate: x.created_date, cancelledOn: x.cancelled_on, tireCount: Number(x.tire_count), body: x.body }]));
  return regs.flatMap((r) => v2Cancellations(p, r, byReg.get(r._id)));
}
