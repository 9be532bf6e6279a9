import { EligibilityQuery } from '../contract';
import type { EndpointDef, EndpointId } from '../contract';
import { ApiError, SandboxOperations, Selector } from './operations';
import { PartnerRecord } from './store';

/**
 * One handler per endpoint of the contract (spec: Endpoints). `Record<EndpointId, Handler>` makes the
 * compiler check that every endpoint of the table is implemented. Handlers receive validated input and
 * return the body (and a status only where it differs from the contract's success status).
 */

/** What a handler receives: validated path parameters, query and body, and the authenticated partner. */
export interface HandlerContext {
  readonly ops: SandboxOperations;
  /** The partner (undefined for the eligibility lookup, which uses its own token). */
  readonly partner: PartnerRecord | undefined;
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, unknown>>;
  readonly body: unknown;
  readonly endpoint: EndpointDef;
}

/** A handler's answer: body (omitted for 204) and optionally a status other than the endpoint's success status. */
export interface HandlerResult {
  readonly status?: number;
  readonly body?: unknown;
}

type Handler = (ctx: HandlerContext) => HandlerResult;
type Body = Readonly<Record<string, unknown>>;

function partnerOf(ctx: HandlerContext): PartnerRecord {
  if (!ctx.partner) throw new ApiError(401, 'unauthorized', 'unauthorized');
  return ctx.partner;
}

const pid = (ctx: HandlerContext) => partnerOf(ctx).id;
const body = (ctx: HandlerContext) => (ctx.body ?? {}) as Body;
const byId = (ctx: HandlerContext): Selector => ({ id: ctx.params.id ?? '' });
const byInvoice = (ctx: HandlerContext): Selector => ({
  invoiceNumber: String(ctx.query.invoiceNumber),
  ...(ctx.query.storeNumber !== undefined ? { storeNumber: String(ctx.query.storeNumber) } : {}),
});
const paging = (ctx: HandlerContext) => ({ page: Number(ctx.query.page), pageSize: Number(ctx.query.pageSize) });
const cancelledOn = (ctx: HandlerContext) => String(body(ctx).cancelledOn);
const NO_CONTENT: HandlerResult = { status: 204 };

/** Deterministic eligibility rule of the sandbox (documented in docs/sandbox.md). */
export function isEligible(q: { vin?: string; licensePlate?: string; state?: string }): boolean {
  if (q.vin) {
    const vin = q.vin.toUpperCase();
    if (!/^[A-HJ-NPR-Z0-9]{17}$/.test(vin)) throw new ApiError(400, 'bad_request', 'vin must be 17 characters (letters except I, O, Q, and digits)', [{ path: 'query.vin', message: '17-character VIN expected' }]);
    return /[02468]$/.test(vin);
  }
  const plate = (q.licensePlate ?? '').toUpperCase().replace(/[^A-Z0-9]/g, '');
  return plate.length > 0 && /[02468]$/.test(plate);
}

/** The v2 partner: the path's {company_name} must be the caller's name segment (case-insensitive), else 403. */
function v2Partner(ctx: HandlerContext): PartnerRecord {
  const p = partnerOf(ctx);
  const segment = ctx.params.company_name ?? '';
  if (segment.toLowerCase() !== p.name.toLowerCase()) {
    throw new ApiError(403, 'forbidden', `The token's partner may not use /v2/partners/${segment}; its name segment is ${p.name}`);
  }
  return p;
}

export const handlers: Readonly<Record<EndpointId, Handler>> = {
  verifyToken: (ctx) => ({ body: { partner_id: partnerOf(ctx).id, name: partnerOf(ctx).name } }),

  createRegistration: (ctx) => ({ body: { id: ctx.ops.createRegistration(pid(ctx), 'registrations', body(ctx)) } }),
  listRegistrations: (ctx) => ({ body: ctx.ops.listRegistrations(pid(ctx), paging(ctx), (r) => ctx.ops.registrationView(r)) }),
  getRegistration: (ctx) => ({ body: ctx.ops.registrationView(ctx.ops.registration(pid(ctx), ctx.params.id ?? '')) }),
  cancelRegistration: (ctx) => (ctx.ops.cancelRegistration(pid(ctx), byId(ctx), cancelledOn(ctx)), NO_CONTENT),
  cancelRegistrationByInvoice: (ctx) => (ctx.ops.cancelRegistration(pid(ctx), byInvoice(ctx), cancelledOn(ctx)), NO_CONTENT),

  createTireProtectionRegistration: (ctx) => ({ body: { id: ctx.ops.createRegistration(pid(ctx), 'tire-protection', body(ctx)) } }),
  listTireProtectionRegistrations: (ctx) => ({
    body: ctx.ops.listRegistrations(
      pid(ctx),
      {
        ...paging(ctx),
        invoiceNumber: ctx.query.invoiceNumber as string | undefined,
        storeNumber: ctx.query.storeNumber as string | undefined,
      },
      (r) => ctx.ops.tireProtectionView(r, false),
    ),
  }),
  getTireProtectionRegistration: (ctx) => ({ body: ctx.ops.tireProtectionView(ctx.ops.registration(pid(ctx), ctx.params.id ?? ''), true) }),
  getTireProtectionRegistrationMetadata: (ctx) => ({ body: ctx.ops.metadata(pid(ctx), ctx.params.id ?? '') }),
  cancelTireProtectionRegistration: (ctx) => (ctx.ops.cancelRegistration(pid(ctx), byId(ctx), cancelledOn(ctx)), NO_CONTENT),
  cancelTireProtectionRegistrationByInvoice: (ctx) => (ctx.ops.cancelRegistration(pid(ctx), byInvoice(ctx), cancelledOn(ctx)), NO_CONTENT),

  createTireProtectionClaim: (ctx) => ({ body: { id: ctx.ops.fileClaim(pid(ctx), ctx.params.id ?? '', body(ctx)) } }),

  lookupShop: (ctx) => ({ body: ctx.ops.lookupShop(pid(ctx), String(ctx.query.query)) }),
  createShop: (ctx) => (ctx.ops.createShop(pid(ctx), body(ctx)), NO_CONTENT),
  updateShop: (ctx) => (ctx.ops.updateShop(pid(ctx), ctx.params.uniqueId ?? '', body(ctx)), NO_CONTENT),
  addShopPart: (ctx) => (ctx.ops.addPart(pid(ctx), ctx.params.uniqueId ?? '', body(ctx)), NO_CONTENT),
  createTransaction: (ctx) => (ctx.ops.createTransaction(pid(ctx), body(ctx)), NO_CONTENT),

  createMotorClubRegistration: (ctx) => ({ body: { id: ctx.ops.createMotorClub(pid(ctx), body(ctx)) } }),
  listMotorClubRegistrations: (ctx) => {
    const { page, pageSize } = paging(ctx);
    return { body: ctx.ops.listMotorClub(pid(ctx), page, pageSize) };
  },
  getMotorClubRegistration: (ctx) => ({ body: ctx.ops.motorClubView(ctx.ops.motorClub(pid(ctx), byId(ctx))) }),
  updateMotorClubCustomer: (ctx) => (ctx.ops.updateMotorClubCustomer(pid(ctx), byId(ctx), body(ctx).customer), NO_CONTENT),
  updateMotorClubCustomerByInvoice: (ctx) => (ctx.ops.updateMotorClubCustomer(pid(ctx), byInvoice(ctx), body(ctx).customer), NO_CONTENT),
  cancelMotorClubRegistration: (ctx) => (ctx.ops.cancelMotorClub(pid(ctx), byId(ctx), cancelledOn(ctx)), NO_CONTENT),
  cancelMotorClubRegistrationByInvoice: (ctx) => (ctx.ops.cancelMotorClub(pid(ctx), byInvoice(ctx), cancelledOn(ctx)), NO_CONTENT),

  v2GetRecords: (ctx) => {
    const p = v2Partner(ctx);
    const q = ctx.query;
    return {
      body: ctx.ops.v2Get(p, String(q.rec), {
        shopId: q.shopid as string | undefined,
        invoiceNumber: q.invoicenumber as string | undefined,
        partnerId: q.partnerid as string | undefined,
      }),
    };
  },
  v2PostRecords: (ctx) => {
    const p = v2Partner(ctx);
    const b = body(ctx);
    const kind = (['Registrations', 'Claims', 'Sales', 'Cancellations'] as const).find((k) => Array.isArray(b[k]));
    if (!kind) throw new ApiError(400, 'bad_request', 'The body needs one array: Registrations, Claims, Sales or Cancellations', [{ path: '', message: 'expected one of Registrations, Claims, Sales, Cancellations' }]);
    const results = ctx.ops.v2Post(p, kind, b[kind] as Body[]);
    const rejected = results.find((r) => r.status === 'rejected');
    if (rejected) {
      const failed = results.filter((r) => r.status === 'rejected').length;
      throw new ApiError(rejected.statusCode, rejected.statusCode === 404 ? 'not_found' : 'conflict', `${failed} of ${results.length} ${kind} record(s) rejected; first: ${kind}[${rejected.index}]: ${rejected.message ?? ''}`, undefined, { results });
    }
    return { status: 200, body: { [kind]: results } };
  },

  eligibilityLookup: (ctx) => {
    const q = EligibilityQuery.safeParse(ctx.query);
    if (!q.success) throw new ApiError(400, 'bad_request', q.error.issues.map((i) => i.message).join('; '), q.error.issues.map((i) => ({ path: `query.${i.path.map(String).join('.')}`, message: i.message })));
    return { body: { isEligible: isEligible(q.data) } };
  },
};
