import { CancellationRecord, ClaimRecord, RegistrationCounts, RegistrationRecord, num, str } from '../model';
import { WARRANTY_STATUS } from '../../contract/v2/fields';
import type { PartnerRecord } from './partners';
import { arr, compact, obj } from './common';

/**
 * The version 2 views of a tire registration (spec: Registration (v2); Registration status record (v2); Claim (v2);
 * Cancellation (v2)): the record as sent, or mapped from a version 3 one, plus PartnerID. A version 2 field with no
 * version 3 counterpart (EmployeeID, TPPPrice, TireCost, CostPerUnit), or whose counterpart was not sent, is absent:
 * a read never invents a value (docs/contract.md).
 */

/** The value as a string when it is one (or a number), else absent. */
const optStr = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);
/** The value as a number when it is one (or a numeric string), else absent. */
const optNum = (v: unknown): number | undefined => {
  const n = num(v, Number.NaN);
  return Number.isNaN(n) ? undefined : n;
};

/** v2 registration record (rec=registrations). */
export function v2Registration(p: PartnerRecord, r: RegistrationRecord): Record<string, unknown> {
  if (r.source === 'v2') {
    return compact({ ...r.body, OrgID: str(r.body.OrgID), CommercialVehicle: String(r.body.CommercialVehicle ?? '').toLowerCase() === 'yes' ? 'true' : 'false', PartnerID: p.num });
  }
  const b = r.body;
  const customer = obj(b.customer);
  const vehicle = obj(b.vehicle);
  const tires = arr(b.tires).map(obj);
  const first = tires[0] ?? {};
  const out: Record<string, unknown> = {
    OrgID: r.orgId, // "Blank if omitted" (spec: Registration (v2))
    ShopID: r.storeNumber || undefined,
    InvoiceNumber: r.invoiceNumber,
    PlanEnrollDate: enrollDateAsSent(r),
    CustomerID: optStr(customer.name),
    VehicleYear: vehicle.year !== undefined ? String(vehicle.year) : undefined,
    VehicleMake: vehicle.make,
    VehicleModel: vehicle.model,
    VIN: vehicle.vin,
    CurrentMileage: vehicle.mileage,
    TiresCovered: r.tiresCovered,
    TireBrand: optStr(first.make),
    TireModel: optStr(first.model),
    TireSize: optStr(first.size),
    TirePrice: optNum(first.retailPrice),
    PartnerID: p.num,
  };
  tires.slice(0, 6).forEach((t, i) => {
    out[`TireDOT${i + 1}`] = optStr(t.dot);
  });
  return compact(out);
}

/** The enrolment date as the create sent it (PlanEnrollDate, or version 3's enrollDate), not as stored for date arithmetic. */
const enrollDateAsSent = (r: RegistrationRecord): string | undefined => optStr(r.source === 'v2' ? r.body.PlanEnrollDate : r.body.enrollDate) || undefined;

/** v2 registration status record (rec=registrationstatus). */
export function v2Status(p: PartnerRecord, r: RegistrationRecord, k: RegistrationCounts): Record<string, unknown> {
  return compact({
    RegistrationID: r.registrationId,
    PartnerID: p.num,
    OrgID: r.orgId, // "Blank if omitted" (spec: Registration (v2))
    ShopID: r.storeNumber || undefined,
    InvoiceNumber: r.invoiceNumber,
    // As sent; absent when the (version 3) create carried no enrolment date; ExpireDate is then empty ("empty when not set").
    PlanEnrollDate: enrollDateAsSent(r),
    CreatedDate: r.createdDate,
    TiresCovered: k.tiresCovered,
    TireClaimCount: k.tireClaimCount,
    TireCancelCount: k.tireCancelCount,
    TiresLeft: k.tiresLeft,
    WarrantyStatus: k.warrantyStatus,
    CancelDate: k.cancelledOn ?? '',
    ExpireDate: k.expirationDate ?? '',
    StatusDate: k.expired && k.cancelledOn === undefined ? k.expirationDate : r.statusDate,
    Message: (WARRANTY_STATUS as Readonly<Record<number, string>>)[k.warrantyStatus] ?? '',
  });
}

/** v2 claim records of a registration (rec=claims). */
export function v2Claims(p: PartnerRecord, r: RegistrationRecord, claims: readonly ClaimRecord[]): Record<string, unknown>[] {
  const regTirePrice = optNum(r.source === 'v2' ? r.body.TirePrice : obj(arr(r.body.tires)[0]).retailPrice);
  return claims.map((cl) => {
    if (cl.source === 'v2') return compact({ ...cl.body, OrgID: str(cl.body.OrgID), TirePrice: regTirePrice, PartnerID: p.num });
    const b = cl.body;
    const t = obj(obj(arr(b.tires)[0]).replacement);
    const o = obj(obj(arr(b.tires)[0]).original);
    return compact({
      OrgID: r.orgId, // "Blank if omitted" (spec: Registration (v2))
      ShopID: r.storeNumber || undefined,
      InvoiceNumber: r.invoiceNumber,
      ClaimDate: optStr(b.serviceInvoiceDate),
      RepairShopID: r.storeNumber || undefined,
      RepairInvoiceNumber: optStr(b.serviceInvoiceNumber),
      VehicleMileage: b.vehicleMileage,
      TireClaimCount: cl.tireCount,
      CreditAmount: optNum(b.authorizedAmount),
      ServiceType: Object.keys(t).length > 0 ? 'REPLACE' : 'REPAIR',
      ServiceDescription: [b.damageReason, b.damageDescription].filter((x) => typeof x === 'string').join(': ') || undefined,
      TireBrand: optStr(t.make ?? o.make),
      TireModel: optStr(t.model ?? o.model),
      TireSize: optStr(t.size ?? o.size),
      TirePrice: regTirePrice,
      PartnerID: p.num,
    });
  });
}

/** v2 cancellation record of a registration (rec=cancellations), if it was cancelled. */
export function v2Cancellations(p: PartnerRecord, r: RegistrationRecord, c: CancellationRecord | undefined): Record<string, unknown>[] {
  if (!c) return [];
  if (c.source === 'v2') return [{ ...c.body, OrgID: str(c.body.OrgID), PartnerID: p.num }];
  return [
    {
      OrgID: r.orgId, // "Blank if omitted" (spec: Registration (v2))
      ShopID: r.storeNumber || undefined,
      InvoiceNumber: r.invoiceNumber,
      CancelShopID: r.storeNumber || undefined,
      CancelInvoiceNumber: r.invoiceNumber,
      TireCancelCount: c.tireCount,
      CancelDate: c.cancelledOn,
      PartnerID: p.num,
    },
  ];
}
