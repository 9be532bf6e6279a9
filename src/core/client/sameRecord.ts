/**
 * Is a stored record the one a create sent? Used by the duplicate check before a create is resent (repeat.ts).
 * The key field must be present and equal; the other fields are compared only where both sides have them (a
 * server may leave a field out of a read), dates on their calendar day (a server may add a time), numbers as
 * numbers. Spec: Tire-protection registration and Motor-club registration (fields), Claim (tire protection).
 *
 * - Registrations (v3 tire protection, the earlier revision, motor club): key `invoiceNumber` (spec: "unique by
 *   invoice number"), and `storeNumber` when one was sent or given; then `enrollDate`, `customer.name`,
 *   `customer.email`, `customer.phone`.
 * - Claims (read back inside their registration): key `serviceInvoiceNumber` (the shop's invoice of the repair);
 *   then `serviceInvoiceDate`, `vehicleMileage`, `authorizedAmount`, `damageReason`, `damageDescription` and the
 *   number of `tires`. A claim on the registration that matches all of these is taken as the one sent: filing the
 *   same service invoice twice on purpose is not told apart.
 */

const REGISTRATION_FIELDS = ['enrollDate', 'customer.name', 'customer.email', 'customer.phone'];
const CLAIM_FIELDS = ['serviceInvoiceDate', 'vehicleMileage', 'authorizedAmount', 'damageReason', 'damageDescription', 'tires.length'];

const ISO_DAY = /^\d{4}-\d{2}-\d{2}/;

function at(value: unknown, path: string): unknown {
  let v = value;
  for (const key of path.split('.')) {
    if (v === null || v === undefined) return undefined;
    if (key === 'length' && Array.isArray(v)) return v.length;
    if (typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

/** Equal as the check sees it: same day for ISO dates, same number for numbers (or numeric text), else strictly equal. */
function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string' && ISO_DAY.test(a) && ISO_DAY.test(b)) return a.slice(0, 10) === b.slice(0, 10);
  if (typeof a === 'number' || typeof b === 'number') return Number(a) === Number(b);
  return a === b;
}

/** True when every field of `paths` that both `sent` and `found` have is the same. */
function agrees(sent: unknown, found: unknown, paths: readonly string[]): boolean {
  return paths.every((p) => {
    const a = at(sent, p);
    const b = at(found, p);
    return a === undefined || b === undefined || sameValue(a, b);
  });
}

/**
 * True when the listed registration `found` is the one `sent` would have created.
 * @param storeNumber the store number the create was for (from the body or the caller), if any.
 */
export function sameRegistration(sent: Readonly<Record<string, unknown>>, found: unknown, storeNumber?: string): boolean {
  if (!found || typeof found !== 'object') return false;
  const f = found as Record<string, unknown>;
  if (typeof sent.invoiceNumber !== 'string' || f.invoiceNumber !== sent.invoiceNumber) return false;
  if (storeNumber !== undefined && f.storeNumber !== undefined && f.storeNumber !== storeNumber) return false;
  return agrees(sent, f, REGISTRATION_FIELDS);
}

/** True when the claim `found` (from a registration read) is the one `sent` would have filed. */
export function sameClaim(sent: Readonly<Record<string, unknown>>, found: unknown): boolean {
  if (!found || typeof found !== 'object') return false;
  const f = found as Record<string, unknown>;
  if (typeof sent.serviceInvoiceNumber !== 'string' || f.serviceInvoiceNumber !== sent.serviceInvoiceNumber) return false;
  return agrees(sent, f, CLAIM_FIELDS);
}
