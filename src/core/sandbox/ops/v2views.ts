import { CancellationRecord, ClaimRecord, RegistrationCounts, RegistrationRecord, WARRANTY_MESSAGE, num, str } from '../model';
import type { PartnerRecord } from './partners';
import { arr, compact, obj } from './common';

/**
 * The version 2 views of a tire registration (spec: Registration (v2); Registration status record (v2); Claim (v2);
 * Cancellation (v2)): the record as sent, or mapped from a version 3 one, plus PartnerID.
 */

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
    OrgID: r.orgId,
    ShopID: r.storeNumber,
    InvoiceNumber: r.invoiceNumber,
    PlanEnrollDate: r.enrollDate || undefined,
    EmployeeID: '',
    CustomerID: str(customer.name),
    VehicleYear: vehicle.year !== undefined ? String(vehicle.year) : undefined,
    VehicleMake: vehicle.make,
    VehicleModel: vehicle.model,
    VIN: vehicle.vin,
    CurrentMileage: vehicle.mileage,
    TiresCovered: r.tiresCovered,
    TPPPrice: 0,
    TireBrand: str(first.make),
    TireModel: str(first.model),
    TireSize: str(first.size),
    TirePrice: num(first.retailPrice),
    TireCost: 0,
    CommercialVehicle: 'false',
    PartnerID: p.num,
  };
  tires.slice(0, 6).forEach((t, i) => {
    out[`TireDOT${i + 1}`] = str(t.dot);
  });
  return compact(out);
}

/** v2 registration status record (rec=registrationstatus). */
export function v2Status(p: PartnerRecord, r: RegistrationRecord, k: RegistrationCounts): Record<string, unknown> {
  return compact({
    RegistrationID: r.registrationId,
    PartnerID: p.num,
    OrgID: r.orgId,
    ShopID: r.storeNumber,
    InvoiceNumber: r.invoiceNumber,
    // Absent when the (version 3) create carried no enrolment date; ExpireDate is then empty ("empty when not set").
    PlanEnrollDate: r.enrollDate || undefined,
    CreatedDate: r.createdDate,
    TiresCovered: k.tiresCovered,
    TireClaimCount: k.tireClaimCount,
    TireCancelCount: k.tireCancelCount,
    TiresLeft: k.tiresLeft,
    WarrantyStatus: k.warrantyStatus,
    CancelDate: k.cancelledOn ?? '',
    ExpireDate: k.expirationDate ?? '',
    StatusDate: k.expired && k.cancelledOn === undefined ? k.expirationDate : r.statusDate,
    Message: WARRANTY_MESSAGE[k.warrantyStatus] ?? '',
  });
}

/** v2 claim records of a registration (rec=claims). */
export function v2Claims(p: PartnerRecord, r: RegistrationRecord, claims: readonly ClaimRecord[]): Record<string, unknown>[] {
  const regTirePrice = num(r.source === 'v2' ? r.body.TirePrice : obj(arr(r.body.tires)[0]).retailPrice);
  return claims.map((cl) => {
    if (cl.source === 'v2') return { ...cl.body, OrgID: str(cl.body.OrgID), TirePrice: regTirePrice, PartnerID: p.num };
    const b = cl.body;
    const t = obj(obj(arr(b.tires)[0]).replacement);
    const o = obj(obj(arr(b.tires)[0]).original);
    return compact({
      OrgID: r.orgId,
      ShopID: r.storeNumber,
      InvoiceNumber: r.invoiceNumber,
      ClaimDate: str(b.serviceInvoiceDate),
      RepairShopID: r.storeNumber,
      RepairInvoiceNumber: str(b.serviceInvoiceNumber),
      VehicleMileage: b.vehicleMileage,
      TireClaimCount: cl.tireCount,
      CreditAmount: num(b.authorizedAmount),
      CostPerUnit: 0,
      ServiceType: Object.keys(t).length > 0 ? 'REPLACE' : 'REPAIR',
      ServiceDescription: [b.damageReason, b.damageDescription].filter((x) => typeof x === 'string').join(': ') || undefined,
      TireBrand: str(t.make ?? o.make),
      TireModel: str(t.model ?? o.model),
      TireSize: str(t.size ?? o.size),
      TireCost: 0,
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
      OrgID: r.orgId,
      ShopID: r.storeNumber,
      InvoiceNumber: r.invoiceNumber,
      CancelShopID: r.storeNumber,
      CancelInvoiceNumber: r.invoiceNumber,
      TireCancelCount: c.tireCount,
      CancelDate: c.cancelledOn,
      PartnerID: p.num,
    },
  ];
}
