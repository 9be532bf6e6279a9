import { ClaimRecord, RegistrationRecord, isoDate, num, str } from '../model';
import { SANDBOX_PROGRAM_ID, arr, compact, obj } from './common';

/**
 * The version 3 views of a tire registration (spec: Registration, earlier revision; Tire-protection registration;
 * Claim (tire protection)). One stored record backs every view; a registration written through version 2 is shown
 * with one tire object per covered tire (at most MAX_TIRE_COUNT, enforced when it is stored).
 */

/** The earlier-revision view of a registration (spec: Registration, earlier revision). */
export function registrationView(r: RegistrationRecord): Record<string, unknown> {
  const out: Record<string, unknown> = { ...v3Body(r), _id: r._id };
  if (r.cancelledOn !== undefined) out.cancelledOn = r.cancelledOn;
  return out;
}

/** The tire-protection view; with `claims` (a read by id) the claims filed against it are added. */
export function tireProtectionView(r: RegistrationRecord, claims?: readonly ClaimRecord[]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...v3Body(r), _id: r._id, program_id: SANDBOX_PROGRAM_ID };
  if (r.cancelledOn !== undefined) out.cancelledOn = r.cancelledOn;
  if (claims) out.claims = claims.map((cl) => v3Claim(r, cl));
  return out;
}

/** The v3 body of a registration: as sent for v3 creates, mapped from the record for v2 ones. */
export function v3Body(r: RegistrationRecord): Readonly<Record<string, unknown>> {
  if (r.source !== 'v2') return r.body;
  const b = r.body;
  const tires = [];
  for (let i = 0; i < r.tiresCovered; i++) {
    tires.push(compact({ make: str(b.TireBrand), model: str(b.TireModel), size: str(b.TireSize), retailPrice: num(b.TirePrice), dot: i < 6 ? (b[`TireDOT${i + 1}`] as string | undefined) : undefined }));
  }
  const year = num(b.VehicleYear, NaN);
  const vehicle =
    b.VehicleMake !== undefined || b.VehicleModel !== undefined || b.VIN !== undefined
      ? compact({ year: Number.isFinite(year) ? year : undefined, make: str(b.VehicleMake), model: str(b.VehicleModel), vin: b.VIN, mileage: b.CurrentMileage })
      : undefined;
  return compact({
    product_id: SANDBOX_PROGRAM_ID,
    invoiceNumber: r.invoiceNumber,
    storeNumber: r.storeNumber || undefined,
    enrollDate: r.enrollDate,
    customer: { name: str(b.CustomerID) },
    vehicle,
    tires,
  });
}

/** The v3 view of a claim (a v2 claim mapped to the v3 shape, one tire item per claimed tire). */
export function v3Claim(r: RegistrationRecord, cl: ClaimRecord): Record<string, unknown> {
  if (cl.source === 'v3') return { id: cl.id, ...cl.body };
  const b = cl.body;
  const original = obj(arr(v3Body(r).tires)[0]);
  const tires = [];
  for (let i = 0; i < cl.tireCount; i++) {
    const replacement = b.ServiceType === 'REPAIR' ? undefined : { make: str(b.TireBrand), model: str(b.TireModel), size: str(b.TireSize) };
    tires.push(compact({ original: { make: str(original.make), model: str(original.model), size: str(original.size) }, replacement }));
  }
  return compact({
    id: cl.id,
    serviceInvoiceNumber: str(b.RepairInvoiceNumber),
    serviceInvoiceDate: isoDate(b.ClaimDate),
    vehicleMileage: b.VehicleMileage,
    damageReason: b.ServiceType,
    damageDescription: b.ServiceDescription,
    authorizedAmount: num(b.CreditAmount),
    tires,
  });
}
