import { CHECK_VIOLATION, Queryable, constraintOf, sqlState } from '../db/database';
import { ClaimRecord, RegistrationRecord, RegistrationSource, isoDate, str } from '../model';
import { Body, ListEnvelope, OpsContext, REG_COLUMNS, RegRow, Selector, arr, checkTireCount, conflict, envelope, registrationName, newId, notFound, regOf, violates } from './common';

/**
 * Tire registrations of the earlier revision (/registrations) and the tire-protection product
 * (spec: Registrations, earlier revision; Tire-protection registrations; Registration metadata; States and
 * transitions). Uniqueness and "cancelled once" are database constraints; each write is one transaction.
 */

/**
 * Creates a v3 registration from a validated body. Unique by invoiceNumber + storeNumber (409 on a duplicate);
 * a body without invoiceNumber never collides. 400 beyond MAX_TIRE_COUNT tires. Returns the new `_id`.
 */
export async function createRegistration(c: OpsContext, partner: string, source: Exclude<RegistrationSource, 'v2'>, body: Body): Promise<string> {
  // The tires the body lists are the tires covered (none listed: none covered), never a count it did not send.
  const tires = arr(body.tires).length;
  checkTireCount(tires, 'tires');
  const invoiceNumber = typeof body.invoiceNumber === 'string' ? body.invoiceNumber : null;
  const storeNumber = str(body.storeNumber);
  const id = newId(c.now());
  const now = c.nowIso();
  try {
    await c.db.query(
      `WITH pos AS (UPDATE tpp.partners SET registration_count = registration_count + 1 WHERE id = $1 RETURNING registration_count)
       INSERT INTO tpp.registrations (partner, id, position, source, invoice_number, store_number, enroll_date, created_date, status_date, tires_covered, body)
       SELECT $1, $2, registration_count, $3, $4, $5, $6, $7, $7, $8, $9::json FROM pos`,
      [partner, id, source, invoiceNumber, storeNumber, body.enrollDate === undefined ? '' : isoDate(body.enrollDate), now, tires, JSON.stringify(body)],
    );
  } catch (err) {
    if (violates(err, 'registrations_invoice')) {
      throw conflict(
        storeNumber
          ? `A registration with invoiceNumber ${invoiceNumber} and storeNumber ${storeNumber} already exists`
          : `A registration with invoiceNumber ${invoiceNumber} already exists`,
      );
    }
    throw err;
  }
  return id;
}

// The SQL of the frequent calls is built once: a text made per call is hashed again for its prepared statement's
// name on PostgreSQL (db/postgres.ts), a cost a read by id showed in profiles.
const BY_ID = `SELECT ${REG_COLUMNS} FROM tpp.registrations WHERE partner = $1 AND id = $2`;
const BY_ID_FOR_UPDATE = `${BY_ID} FOR UPDATE`;

/** The registration `id` of `partner`; 404 when unknown (or another partner's). */
export async function registration(c: OpsContext, partner: string, id: string, q: Queryable = c.db, lock = false): Promise<RegistrationRecord> {
  const { rows } = await q.query<RegRow>(lock ? BY_ID_FOR_UPDATE : BY_ID, [partner, id]);
  const r = rows[0];
  if (!r) throw notFound(`No registration with id ${id}`);
  return regOf(r);
}

/** A registration read with the claims filed against it, oldest first. */
export interface RegistrationWithClaims {
  readonly registration: RegistrationRecord;
  readonly claims: ClaimRecord[];
  /** Its place in the partner's creation order (1, 2, 3…). */
  readonly position: number;
}

type ClaimRow = { id: number; source: 'v2' | 'v3'; created_date: string; tire_count: number; body: Body };

/**
 * Registrations with their claims aggregated in the same query (one round trip whatever the number of claims). A
 * registration's `tire_claim_count` is the sum of its claims' `tire_count`, each at least 1, written in the claim's
 * transaction (./claims.ts, ./v2.ts): without claimed tires it has no claim, and the claims are not looked up (a
 * third of PostgreSQL's work for a read by id).
 */
const WITH_CLAIMS = `SELECT ${REG_COLUMNS}, position, CASE WHEN r.tire_claim_count > 0 THEN (SELECT json_agg(json_build_object('id', c.id, 'source', c.source, 'created_date', c.created_date, 'tire_count', c.tire_count, 'body', c.body) ORDER BY c.id)
       FROM tpp.claims c WHERE c.partner = r.partner AND c.registration = r.id) END AS claims
     FROM tpp.registrations r`;
const WITH_CLAIMS_BY_ID = `${WITH_CLAIMS} WHERE partner = $1 AND id = $2`;

function withClaims(r: RegRow & { position: number; claims: ClaimRow[] | null }): RegistrationWithClaims {
  const claims = (r.claims ?? []).map((x) => ({ id: Number(x.id), source: x.source, createdDate: x.created_date, tireCount: Number(x.tire_count), body: x.body }));
  return { registration: regOf(r), claims, position: Number(r.position) };
}

/**
 * The registration `id` of `partner` with the claims filed against it, oldest first, read in one query (a read by
 * id is the most frequent call). 404 when unknown.
 */
export async function registrationWithClaims(c: OpsContext, partner: string, id: string): Promise<RegistrationWithClaims> {
  const { rows } = await c.db.query<RegRow & { position: number; claims: ClaimRow[] | null }>(WITH_CLAIMS_BY_ID, [partner, id]);
  const r = rows[0];
  if (!r) throw notFound(`No registration with id ${id}`);
  return withClaims(r);
}

/**
 * At most `limit` registrations of `partner` after creation-order position `after`, oldest first, each with its
 * claims: an index range, whatever the table's size.
 */
export async function registrationsAfter(c: OpsContext, partner: string, after: number, limit: number): Promise<RegistrationWithClaims[]> {
  const { rows } = await c.db.query<RegRow & { position: number; claims: ClaimRow[] | null }>(
    `${WITH_CLAIMS} WHERE partner = $1 AND position > $2 ORDER BY position LIMIT ${Math.max(1, Math.floor(limit))}`,
    [partner, after],
  );
  return rows.map(withClaims);
}

/**
 * Resolves a PATCH selector. 404 when nothing matches; 409 when an invoice number (without store number) matches
 * several registrations ("use the :id form").
 */
export async function select(c: OpsContext, partner: string, sel: Selector, q: Queryable = c.db, lock = false): Promise<RegistrationRecord> {
  if ('id' in sel) return registration(c, partner, sel.id, q, lock);
  const forUpdate = lock ? ' FOR UPDATE' : '';
  if (sel.storeNumber !== undefined) {
    const { rows } = await q.query<RegRow>(
      `SELECT ${REG_COLUMNS} FROM tpp.registrations WHERE partner = $1 AND invoice_number = $2 AND store_number = $3${forUpdate}`,
      [partner, sel.invoiceNumber, sel.storeNumber],
    );
    if (!rows[0]) throw notFound(`No registration with invoiceNumber ${sel.invoiceNumber} and storeNumber ${sel.storeNumber}`);
    return regOf(rows[0]);
  }
  const { rows } = await q.query<RegRow>(`SELECT ${REG_COLUMNS} FROM tpp.registrations WHERE partner = $1 AND invoice_number = $2 ORDER BY position LIMIT 2${forUpdate}`, [
    partner,
    sel.invoiceNumber,
  ]);
  if (rows.length === 0) throw notFound(`No registration with invoiceNumber ${sel.invoiceNumber}`);
  if (rows.length > 1) throw conflict(`invoiceNumber ${sel.invoiceNumber} is not unique (several registrations): add storeNumber or use the :id form`);
  return regOf(rows[0] as RegRow);
}

/**
 * Cancels a registration (v3 PATCH with cancelledOn): all tires left are cancelled. 409 when already cancelled
 * (spec: "Cancelled — cancellation again — 409"; the `cancelled_once` key makes it so even for two concurrent
 * PATCHes) or when the program terms forbid it (expired, or cancelledOn before enrollDate).
 */
export async function cancelRegistration(c: OpsContext, partner: string, sel: Selector, cancelledOn: string): Promise<void> {
  try {
    await c.db.transaction(async (tx) => {
      const r = await select(c, partner, sel, tx, true);
      const k = c.counts(r);
      if (k.cancelledOn !== undefined) throw conflict(`${registrationName(r)} is already cancelled (cancelledOn ${k.cancelledOn})`);
      if (k.expired) throw conflict(`${registrationName(r)} expired on ${k.expirationDate}: the program terms forbid cancelling it`);
      const when = isoDate(cancelledOn);
      if (r.enrollDate !== '' && Date.parse(when) < Date.parse(r.enrollDate)) throw conflict(`cancelledOn ${cancelledOn} precedes enrollDate: the program terms forbid it`);
      const now = c.nowIso();
      await tx.query(
        `INSERT INTO tpp.cancellations (partner, registration, source, created_date, cancelled_on, tire_count, body) VALUES ($1, $2, 'v3', $3, $4, $5, $6::json)`,
        [partner, r._id, now, when, k.tiresLeft, JSON.stringify({ cancelledOn })],
      );
      await tx.query('UPDATE tpp.registrations SET cancelled_on = $3, tire_cancel_count = tire_cancel_count + $4, status_date = $5 WHERE partner = $1 AND id = $2', [
        partner,
        r._id,
        when,
        k.tiresLeft,
        now,
      ]);
    });
  } catch (err) {
    if (violates(err, 'cancelled_once')) throw conflict('The registration is already cancelled');
    throw err;
  }
}

/**
 * Metadata of a registration (spec: Registration metadata). Without an enrolment date, `enrollDate` and
 * `expirationDate` are absent (never an invented date) and the registration does not expire (docs/contract.md).
 */
export async function metadata(c: OpsContext, partner: string, id: string): Promise<Record<string, unknown>> {
  const r = await registration(c, partner, id);
  const k = c.counts(r);
  const isActive = k.cancelledOn === undefined && !k.expired;
  return {
    ...(r.enrollDate !== '' ? { enrollDate: r.enrollDate } : {}),
    ...(k.expirationDate !== undefined ? { expirationDate: k.expirationDate } : {}),
    claimedTiresCount: k.tireClaimCount,
    availableTiresCount: k.tiresLeft,
    hasTiresToClaim: isActive && k.tiresLeft > 0,
    hasTiresToReplace: isActive && k.tiresLeft > 0,
    isActive,
  };
}

/** Query of {@link listRegistrations}: page (1-based), pageSize, optional exact invoiceNumber and storeNumber. */
export interface RegistrationQuery {
  readonly page: number;
  readonly pageSize: number;
  readonly invoiceNumber?: string;
  readonly storeNumber?: string;
}

const PAGE = `SELECT ${REG_COLUMNS} FROM tpp.registrations WHERE partner = $1 AND position > $2 AND position <= $3 ORDER BY position`;

/**
 * One page of the partner's registrations in creation order, optionally filtered. Unfiltered, the page is a range
 * of `position` (an index range whatever the table's size) and the total is the partner's counter; filtered, an
 * index scan of the matches.
 */
export async function listRegistrations(c: OpsContext, partner: string, q: RegistrationQuery, view: (r: RegistrationRecord) => unknown): Promise<ListEnvelope<unknown>> {
  const start = (q.page - 1) * q.pageSize;
  if (q.invoiceNumber === undefined && q.storeNumber === undefined) {
    const [page, total] = await Promise.all([
      c.db.query<RegRow>(PAGE, [partner, start, start + q.pageSize]),
      c.db.query<{ n: number }>('SELECT registration_count AS n FROM tpp.partners WHERE id = $1', [partner]),
    ]);
    return envelope(page.rows.map((r) => view(regOf(r))), Number(total.rows[0]?.n ?? 0), q.page, q.pageSize);
  }
  const where: string[] = ['partner = $1'];
  const params: unknown[] = [partner];
  if (q.invoiceNumber !== undefined) where.push(`invoice_number = $${params.push(q.invoiceNumber)}`);
  if (q.storeNumber !== undefined) where.push(`store_number = $${params.push(q.storeNumber)}`);
  const cond = where.join(' AND ');
  const [page, total] = await Promise.all([
    c.db.query<RegRow>(`SELECT ${REG_COLUMNS} FROM tpp.registrations WHERE ${cond} ORDER BY position LIMIT ${q.pageSize} OFFSET ${start}`, params),
    c.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM tpp.registrations WHERE ${cond}`, params),
  ]);
  return envelope(page.rows.map((r) => view(regOf(r))), Number(total.rows[0]?.n ?? 0), q.page, q.pageSize);
}

/**
 * Maps a violation of the `tires_left` CHECK (claimed + cancelled > covered: a race between two claims, or a v2
 * resend lowering TiresCovered) to a 409 with `message`; any other error is returned unchanged.
 */
export function tiresLeftConflict(err: unknown, message: string): unknown {
  return sqlState(err) === CHECK_VIOLATION && constraintOf(err) === 'tires_left' ? conflict(message) : err;
}
