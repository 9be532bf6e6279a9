import { str } from '../model';
import { Body, OpsContext, compact, conflict, notFound, obj, violates } from './common';

/**
 * Shops, the parts sold to them, and manufacturer-to-dealer transactions (spec: Shop; Part; Transaction; Shops and
 * parts; Transactions). A shop is unique per partner by uniqueId (a key of the database: 409 on a duplicate).
 */

/** Creates a shop; 409 when its uniqueId already exists (for this partner). */
export async function createShop(c: OpsContext, partner: string, body: Body): Promise<void> {
  const uniqueId = str(body.uniqueId);
  try {
    await c.db.query('INSERT INTO tpp.shops (partner, unique_id, created_date, body) VALUES ($1, $2, $3, $4::json)', [partner, uniqueId, c.nowIso(), JSON.stringify(body)]);
  } catch (err) {
    if (violates(err, 'shops_unique_id')) throw conflict(`A shop with uniqueId ${uniqueId} already exists`);
    throw err;
  }
}

/**
 * Updates a shop: the body's properties replace the stored ones, except arrays (extra e-mail addresses) which are
 * added to the existing ones. 404 when the shop is unknown.
 */
export async function updateShop(c: OpsContext, partner: string, uniqueId: string, body: Body): Promise<void> {
  await c.db.transaction(async (tx) => {
    const { rows } = await tx.query<{ body: Body }>('SELECT body FROM tpp.shops WHERE partner = $1 AND unique_id = $2 FOR UPDATE', [partner, uniqueId]);
    if (!rows[0]) throw notFound(`No shop with uniqueId ${uniqueId}`);
    const merged: Record<string, unknown> = { ...rows[0].body };
    for (const [k, v] of Object.entries(body)) {
      const old = merged[k];
      merged[k] = Array.isArray(v) && Array.isArray(old) ? [...new Set([...old, ...v])] : v;
    }
    await tx.query('UPDATE tpp.shops SET body = $3::json WHERE partner = $1 AND unique_id = $2', [partner, uniqueId, JSON.stringify(merged)]);
  });
}

/** Records a part sold to a shop; 404 when the shop is unknown (the part's foreign key). */
export async function addPart(c: OpsContext, partner: string, uniqueId: string, body: Body): Promise<void> {
  const { rows } = await c.db.query<{ seq: number }>(
    'INSERT INTO tpp.parts (partner, unique_id, body) SELECT partner, unique_id, $3::json FROM tpp.shops WHERE partner = $1 AND unique_id = $2 RETURNING seq',
    [partner, uniqueId, JSON.stringify(body)],
  );
  if (rows.length === 0) throw notFound(`No shop with uniqueId ${uniqueId}`);
}

function normalize(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
}

/** Deterministic longitude/latitude (in the continental US) derived from a string. */
function pseudoCoordinates(seed: string): [number, number] {
  let h = 2166136261;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 16777619) >>> 0;
  const lng = -124 + ((h & 0xffff) / 0xffff) * 57;
  const lat = 25 + ((h >>> 16) / 0xffff) * 24;
  return [Math.round(lng * 1e6) / 1e6, Math.round(lat * 1e6) / 1e6];
}

/** Shops read per batch by {@link lookupShop}. */
const LOOKUP_BATCH = 500;

/**
 * Shop lookup: `query` is a phone number (matched on its last 10 digits) or a name and address (matched when the
 * query contains the shop's legal name or dba and its address line1, ignoring case and punctuation). 404 when nothing
 * matches. Returns the lookup result of the first match, in creation order.
 */
export async function lookupShop(c: OpsContext, partner: string, query: string): Promise<Record<string, unknown>> {
  const digits = query.replace(/\D/g, '');
  const norm = normalize(query);
  const isPhone = digits.length >= 7 && /^[\d\s()+.\-/]+$/.test(query.trim());
  for (let after = ''; ; ) {
    const { rows } = await c.db.query<{ unique_id: string; body: Body }>(
      `SELECT unique_id, body FROM tpp.shops WHERE partner = $1 AND unique_id > $2 ORDER BY unique_id LIMIT ${LOOKUP_BATCH}`,
      [partner, after],
    );
    for (const s of rows) {
      const b = s.body;
      const a = obj(b.address);
      let hit: boolean;
      if (isPhone) {
        const phone = str(b.phone).replace(/\D/g, '');
        hit = phone.length >= 7 && phone.slice(-10) === digits.slice(-10);
      } else {
        const names = [str(b.legalName), str(b.dba)].map(normalize).filter((n) => n.length > 0);
        const line1 = normalize(str(a.line1));
        hit = names.some((n) => norm.includes(n)) && line1.length > 0 && norm.includes(line1);
      }
      if (hit) {
        return compact({
          name: str(b.dba) || str(b.legalName),
          phone: str(b.phone),
          line1: str(a.line1),
          line2: str(a.line2),
          city: str(a.city),
          state: str(a.state),
          zip: str(a.zip),
          country: str(a.country),
          placeId: str(b.placeId),
          location: { type: 'Point', coordinates: pseudoCoordinates(str(b.placeId) || s.unique_id) },
        });
      }
    }
    if (rows.length < LOOKUP_BATCH) break;
    after = rows[rows.length - 1]?.unique_id ?? '';
  }
  throw notFound('No shop matches the query');
}

/** Records a manufacturer-to-dealer transaction. */
export async function createTransaction(c: OpsContext, partner: string, body: Body): Promise<void> {
  await c.db.query('INSERT INTO tpp.transactions (partner, created_date, body) VALUES ($1, $2, $3::json)', [partner, c.nowIso(), JSON.stringify(body)]);
}
