import { Queryable } from '../db/database';
import { RegistrationRecord } from '../model';
import { MIN_TIRE_COUNT } from '../../contract/limits';
import { Body, OpsContext, arr, checkTireCount, conflict, registrationName } from './common';
import { registration, tiresLeftConflict } from './registrations';

/**
 * Claims filed against tire registrations (spec: Claims; Business rules: a claim only against a registration that
 * is not cancelled, not expired, and while tires remain insured). The registration row is locked for the
 * transaction; the database's `tires_left` CHECK backs the count rule.
 */

/**
 * 409 unless `r` can take a claim of `tireCount` tires (`alreadyClaimedByThis`: tires of a claim being replaced); the
 * message names `r` with `calledId`, the identifier of the version that was called (v3 `_id`, v2 RegistrationID).
 */
export function checkClaimable(c: OpsContext, r: RegistrationRecord, tireCount: number, alreadyClaimedByThis = 0, calledId: string | number = r._id): void {
  const k = c.counts(r);
  if (k.cancelledOn !== undefined) throw conflict(`${registrationName(r, calledId)} is cancelled: no claim can be filed`);
  if (k.expired) throw conflict(`${registrationName(r, calledId)} expired on ${k.expirationDate}: no claim can be filed`);
  const left = k.tiresLeft + alreadyClaimedByThis;
  if (left < tireCount) throw conflict(`${registrationName(r, calledId)} has ${left} tire(s) left; the claim needs ${tireCount}`);
}

/** Adds `delta` claimed tires to registration `r` in transaction `tx` (409 named as {@link checkClaimable} names it). */
export async function addClaimed(c: OpsContext, tx: Queryable, partner: string, r: RegistrationRecord, delta: number, calledId: string | number = r._id): Promise<void> {
  try {
    await tx.query('UPDATE tpp.registrations SET tire_claim_count = tire_claim_count + $3, status_date = $4 WHERE partner = $1 AND id = $2', [partner, r._id, delta, c.nowIso()]);
  } catch (err) {
    throw tiresLeftConflict(err, `${registrationName(r, calledId)} has no tires left for this claim`);
  }
}

/**
 * Files a v3 claim. 400 when it lists no tires (it claims the tires it lists; none would be counted as a tire nobody
 * named); 404 unknown registration; 409 when cancelled, expired, or fewer tires left than the claim's tires. Returns
 * the claim id (a number).
 */
export async function fileClaim(c: OpsContext, partner: string, id: string, body: Body): Promise<number> {
  const tireCount = arr(body.tires).length;
  checkTireCount(tireCount, 'tires', MIN_TIRE_COUNT.TireClaimCount);
  return c.db.transaction(async (tx) => {
    const r = await registration(c, partner, id, tx, true);
    checkClaimable(c, r, tireCount);
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO tpp.claims (partner, registration, source, created_date, tire_count, body) VALUES ($1, $2, 'v3', $3, $4, $5::json) RETURNING id`,
      [partner, id, c.nowIso(), tireCount, JSON.stringify(body)],
    );
    await addClaimed(c, tx, partner, r, tireCount);
    return Number(rows[0]?.id);
  });
}
