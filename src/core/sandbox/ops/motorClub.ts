import { isoDate } from '../model';
import { Body, ListEnvelope, OpsContext, Selector, compact, conflict, envelope, newId, notFound, violates } from './common';

/**
 * Motor-club registrations (spec: Motor-club registration; Motor-club registrations). Unique per partner by
 * invoice number (a key of the database); a body without invoiceNumber never collides.
 */

interface McRow {
  id: string;
  invoice_number: string | null;
  created_date: string;
  cancelled_on: string | null;
  body: Body;
}

/** A stored motor-club registration. */
export interface MotorClubRecord {
  readonly _id: string;
  readonly invoiceNumber: string;
  readonly createdDate: string;
  readonly body: Body;
  readonly cancelledOn?: string;
}

const COLUMNS = 'id, invoice_number, created_date, cancelled_on, body';
const ofRow = (r: McRow): MotorClubRecord => ({
  _id: r.id,
  invoiceNumber: r.invoice_number ?? '',
  createdDate: r.created_date,
  body: r.body,
  ...(r.cancelled_on !== null ? { cancelledOn: r.cancelled_on } : {}),
});

/** Creates a motor-club registration; 409 on a duplicate invoiceNumber. Returns its `_id`. */
export async function createMotorClub(c: OpsContext, partner: string, body: Body): Promise<string> {
  const invoiceNumber = typeof body.invoiceNumber === 'string' ? body.invoiceNumber : null;
  const id = newId(c.now());
  try {
    await c.db.query(
      `WITH pos AS (UPDATE tpp.partners SET motor_club_count = motor_club_count + 1 WHERE id = $1 RETURNING motor_club_count)
       INSERT INTO tpp.motor_club (partner, id, position, invoice_number, created_date, body) SELECT $1, $2, motor_club_count, $3, $4, $5::json FROM pos`,
      [partner, id, invoiceNumber, c.nowIso(), JSON.stringify(body)],
    );
  } catch (err) {
    if (violates(err, 'motor_club_invoice')) throw conflict(`A motor-club registration with invoiceNumber ${invoiceNumber} already exists`);
    throw err;
  }
  return id;
}

/** Motor-club registration by id or invoice number; 404 when unknown. */
export async function motorClub(c: OpsContext, partner: string, sel: Selector): Promise<MotorClubRecord> {
  const byId = 'id' in sel;
  const { rows } = await c.db.query<McRow>(`SELECT ${COLUMNS} FROM tpp.motor_club WHERE partner = $1 AND ${byId ? 'id' : 'invoice_number'} = $2`, [
    partner,
    byId ? sel.id : sel.invoiceNumber,
  ]);
  if (!rows[0]) throw notFound(byId ? `No motor-club registration with id ${sel.id}` : `No motor-club registration with invoiceNumber ${sel.invoiceNumber}`);
  return ofRow(rows[0]);
}

/** The motor-club view: the body plus `_id` and `cancelledOn` when cancelled. */
export function motorClubView(r: MotorClubRecord): Record<string, unknown> {
  return compact({ ...r.body, _id: r._id, cancelledOn: r.cancelledOn });
}

/** Replaces the customer of a motor-club registration; 409 when it is cancelled. */
export async function updateMotorClubCustomer(c: OpsContext, partner: string, sel: Selector, customer: unknown): Promise<void> {
  const r = await motorClub(c, partner, sel);
  const { rows } = await c.db.query(
    'UPDATE tpp.motor_club SET body = $3::json WHERE partner = $1 AND id = $2 AND cancelled_on IS NULL RETURNING id',
    [partner, r._id, JSON.stringify({ ...r.body, customer })],
  );
  if (rows.length === 0) throw conflict(`Motor-club registration ${r._id} is cancelled`);
}

/** Cancels a motor-club registration; 409 when already cancelled. */
export async function cancelMotorClub(c: OpsContext, partner: string, sel: Selector, cancelledOn: string): Promise<void> {
  const r = await motorClub(c, partner, sel);
  const { rows } = await c.db.query('UPDATE tpp.motor_club SET cancelled_on = $3 WHERE partner = $1 AND id = $2 AND cancelled_on IS NULL RETURNING id', [
    partner,
    r._id,
    isoDate(cancelledOn),
  ]);
  if (rows.length === 0) throw conflict(`Motor-club registration ${r._id} is already cancelled (cancelledOn ${r.cancelledOn ?? ''})`);
}

/** One page of the partner's motor-club registrations (an index range of `position`). */
export async function listMotorClub(c: OpsContext, partner: string, page: number, pageSize: number): Promise<ListEnvelope<unknown>> {
  const start = (page - 1) * pageSize;
  const [rows, total] = await Promise.all([
    c.db.query<McRow>(`SELECT ${COLUMNS} FROM tpp.motor_club WHERE partner = $1 AND position > $2 AND position <= $3 ORDER BY position`, [partner, start, start + pageSize]),
    c.db.query<{ n: number }>('SELECT motor_club_count AS n FROM tpp.partners WHERE id = $1', [partner]),
  ]);
  return envelope(rows.rows.map((r) => motorClubView(ofRow(r))), Number(total.rows[0]?.n ?? 0), page, pageSize);
}
