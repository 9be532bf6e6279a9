import { MotorClubRegistration, Shop, V2Registration } from '../contract';
import { ApiError, OpsContext } from './ops/common';
import { createMotorClub } from './ops/motorClub';
import type { PartnerRecord } from './ops/partners';
import { addPart, createShop } from './ops/shops';
import { v2Post } from './ops/v2';
import { seededRandom } from './realism';
import { breathe, seedRegistrations } from './seedSql';

/** What {@link loadSampleData} added. */
export interface SampleSummary {
  readonly registrations: number;
  readonly claims: number;
  readonly cancellations: number;
  readonly shops: number;
  readonly motorClub: number;
}

const FIRST = ['Ava', 'Liam', 'Mia', 'Noah', 'Zoe', 'Ethan', 'Lena', 'Omar', 'Ines', 'Raj', 'Sofia', 'Kenji', 'Nora', 'Diego', 'Hana'];
const LAST = ['Garcia', 'Smith', 'Nguyen', 'Okafor', 'Kowalski', 'Rossi', 'Haddad', 'Tanaka', 'Brown', 'Silva', 'Martin', 'Patel'];
const TIRES: readonly [string, string, string, number][] = [
  ['Michelin', 'Defender2', '225/65R17', 189.99],
  ['Bridgestone', 'Turanza QuietTrack', '215/55R17', 172.5],
  ['Goodyear', 'Assurance WeatherReady', '235/60R18', 201.0],
  ['Continental', 'TrueContact Tour', '205/55R16', 149.95],
  ['Pirelli', 'Scorpion AS Plus 3', '265/70R17', 229.0],
  ['Yokohama', 'Geolandar A/T G015', '245/75R16', 184.0],
];
const VEHICLES: readonly [string, string][] = [
  ['Toyota', 'RAV4'],
  ['Honda', 'Civic'],
  ['Ford', 'F-150'],
  ['Chevrolet', 'Equinox'],
  ['Subaru', 'Outback'],
  ['Hyundai', 'Tucson'],
  ['Tesla', 'Model 3'],
];
const CITIES: readonly [string, string, string][] = [
  ['Springfield', 'IL', '62701'],
  ['Austin', 'TX', '73301'],
  ['Denver', 'CO', '80202'],
  ['Columbus', 'OH', '43004'],
  ['Raleigh', 'NC', '27601'],
];
const REASONS = ['Puncture', 'Sidewall damage', 'Road hazard', 'Bent rim impact', 'Nail in tread'];

/** The deterministic draws of one sample load. */
interface Sampler {
  rnd(): number;
  pick<T>(xs: readonly T[]): T;
  readonly nowMs: number;
  /** The run's tag in invoice numbers and ids (the partner's counters, base 36). */
  readonly run: string;
}

/** 8 shops with a part each; returns how many were enrolled. */
async function sampleShops(c: OpsContext, partner: PartnerRecord, g: Sampler): Promise<number> {
  const { rnd, pick, run } = g;
  let shops = 0;
  for (let i = 0; i < 8; i++) {
    const [city, state, zip] = pick(CITIES);
    const name = `${pick(LAST)} Tire & Auto`;
    const uniqueId = `SMP-SHOP-${run}-${i + 1}`;
    const line1 = `${100 + Math.floor(rnd() * 9000)} Main St`;
    const shop = Shop.parse({
      product_id: 'tire-protection',
      placeId: `place-${run}-${i + 1}`,
      uniqueId,
      legalName: `${name} LLC`,
      dba: name,
      groupName: 'Sample Group',
      startDate: '2023-01-15',
      phone: `+1 555 01${String(10 + i).padStart(2, '0')} ${String(1000 + Math.floor(rnd() * 8999))}`,
      address: { line1, city, state, zip, country: 'US' },
      mailingAttn: 'Accounts',
      mailingAddress: { line1, city, state, zip, country: 'US' },
      paymentPreference: 'ACH',
      email: `shop${i + 1}@example.com`,
    });
    try {
      await createShop(c, partner.id, shop);
      shops++;
      const [make, model, size, price] = pick(TIRES);
      await addPart(c, partner.id, uniqueId, { product_id: 'tire-protection', partNumber: `PN-${1000 + i}`, make, model, size, date: '2024-05-01', quantity: 4, cost: Math.round(price * 60) / 100 });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
    }
    await breathe();
  }
  return shops;
}

/** 25 version 2 registrations with ShopIDs. */
function sampleV2(g: Sampler): ReturnType<typeof V2Registration.parse>[] {
  const { rnd, pick, run, nowMs } = g;
  const v2 = [];
  for (let i = 0; i < 25; i++) {
    const [make, model, size, price] = pick(TIRES);
    const [vmake, vmodel] = pick(VEHICLES);
    v2.push(
      V2Registration.parse({
        ShopID: `SHOP${(i % 5) + 1}`,
        InvoiceNumber: `SMP2-${run}-${String(i + 1).padStart(4, '0')}`,
        PlanEnrollDate: new Date(nowMs - Math.floor(rnd() * 700) * 86_400_000).toISOString().slice(0, 10),
        EmployeeID: `E${100 + i}`,
        CustomerID: `${pick(FIRST)} ${pick(LAST)}`,
        VehicleYear: String(2015 + (i % 10)),
        VehicleMake: vmake,
        VehicleModel: vmodel,
        TiresCovered: 4,
        TPPPrice: 24.99,
        TireBrand: make,
        TireModel: model,
        TireSize: size,
        TirePrice: price,
        TireCost: Math.round(price * 65) / 100,
        TireDOT1: `DOT${String(100000 + i)}`,
      }),
    );
  }
  return v2;
}

/** 40 motor-club registrations; returns how many were created. */
async function sampleMotorClub(c: OpsContext, partner: PartnerRecord, g: Sampler): Promise<number> {
  const { rnd, pick, run, nowMs } = g;
  let created = 0;
  for (let i = 0; i < 40; i++) {
    const [city, state, zip] = pick(CITIES);
    const first = pick(FIRST);
    const last = pick(LAST);
    const body = MotorClubRegistration.parse({
      product_id: 'motor-club',
      invoiceNumber: `SMP-MC-${run}-${i + 1}`,
      enrollDate: new Date(nowMs - Math.floor(rnd() * 365) * 86_400_000).toISOString().slice(0, 10),
      customer: {
        name: `${first} ${last}`,
        phone: `+1 555 02${String(10 + (i % 90)).padStart(2, '0')} ${String(1000 + i)}`,
        email: `${first}.${last}.mc${i}@example.com`.toLowerCase(),
        address: { line1: `${10 + i} Oak Ave`, city, state, zip, country: 'US' },
      },
    });
    try {
      await createMotorClub(c, partner.id, body);
      created++;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
    }
    await breathe();
  }
  return created;
}

/**
 * Adds realistic sample data for `partner`: `count` tire-protection registrations (default 300) spread over the
 * last four years (some therefore expired), about a third of the active ones with a claim and one in twelve
 * cancelled, bulk-loaded by set-based SQL in one transaction (a million in about a minute); plus 25 v2
 * registrations with ShopIDs, 8 shops with parts and 40 motor-club registrations through the business rules.
 * Deterministic for a given partner and store size. The event loop gets a turn between its statements, so that a
 * sandbox loading it still answers health (`starting`) and refuses partner requests (503). Returns what was added.
 */
export async function loadSampleData(c: OpsContext, partner: PartnerRecord, count = 300): Promise<SampleSummary> {
  const base = Number((await c.db.query<{ n: number }>('SELECT registration_count + motor_club_count AS n FROM tpp.partners WHERE id = $1', [partner.id])).rows[0]?.n ?? 0);
  const rnd = seededRandom(base + 7919);
  const g: Sampler = { rnd, pick: <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T, nowMs: c.now(), run: base.toString(36).toUpperCase() };
  const summary = { registrations: 0, claims: 0, cancellations: 0, shops: 0, motorClub: 0 };
  summary.shops = await sampleShops(c, partner, g);
  const bulk = await seedRegistrations(c, partner.id, count, { run: g.run, first: FIRST, last: LAST, tires: TIRES, vehicles: VEHICLES, reasons: REASONS });
  summary.registrations += bulk.registrations;
  summary.claims += bulk.claims;
  summary.cancellations += bulk.cancellations;
  summary.registrations += (await v2Post(c, partner, 'Registrations', sampleV2(g))).filter((o) => o.status === 'created').length;
  await breathe();
  summary.motorClub = await sampleMotorClub(c, partner, g);
  return summary;
}
