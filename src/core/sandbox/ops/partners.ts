import { OpsContext } from './common';

/** A partner known to the sandbox: its Partner ID (the JWT `iss`), v2 name segment and public key. */
export interface PartnerRecord {
  /** Partner ID (JWT `iss`). */
  readonly id: string;
  /** v2 {company_name} path segment and the `name` returned by verify-token. */
  readonly name: string;
  /** v2 PartnerID (int). */
  readonly num: number;
  /** Public key, SPKI PEM. */
  readonly spkiPem: string;
}

interface PartnerRow {
  id: string;
  name: string;
  num: number;
  spki_pem: string;
}

const ofRow = (r: PartnerRow): PartnerRecord => ({ id: r.id, name: r.name, num: Number(r.num), spkiPem: r.spki_pem });

/** Every registered partner. */
export async function allPartners(c: OpsContext): Promise<PartnerRecord[]> {
  const { rows } = await c.db.query<PartnerRow>('SELECT id, name, num, spki_pem FROM tpp.partners ORDER BY num', []);
  return rows.map(ofRow);
}

/** The partner `id`, or undefined. */
export async function findPartner(c: OpsContext, id: string): Promise<PartnerRecord | undefined> {
  const { rows } = await c.db.query<PartnerRow>('SELECT id, name, num, spki_pem FROM tpp.partners WHERE id = $1', [id]);
  return rows[0] && ofRow(rows[0]);
}

/**
 * Registers a partner or replaces its key and name segment (its v2 PartnerID stays). A numeric Partner ID of up to
 * 9 digits is also its v2 PartnerID; others get the next free number from 1001. Returns the stored record.
 */
export async function upsertPartner(c: OpsContext, id: string, spkiPem: string, name: string): Promise<PartnerRecord> {
  const numeric = /^\d{1,9}$/.test(id) ? Number(id) : null;
  const { rows } = await c.db.query<PartnerRow>(
    `INSERT INTO tpp.partners (id, name, num, spki_pem) VALUES ($1, $2, COALESCE($3::int, nextval('tpp.partner_num_seq')::int), $4)
     ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, spki_pem = EXCLUDED.spki_pem
     RETURNING id, name, num, spki_pem`,
    [id, name, numeric, spkiPem],
  );
  return ofRow(rows[0] as PartnerRow);
}
