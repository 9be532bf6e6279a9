import { EligibilityQuery } from '../contract';
import { VIN_MESSAGE, VIN_RE } from '../contract/patterns';
import type { EndpointDef, EndpointId } from '../contract';
import { ApiError, OpsContext, Selector } from './ops/common';
import { AnswerCache, RecordView, WriteScope, answerKey, recordKey } from './db/answerCache';
import type { PartnerRecord } from './ops/partners';
import { cancelRegistration, createRegistration, listRegistrations, metadata, registration, registrationWithClaims } from './ops/registrations';
import { fileClaim } from './ops/claims';
import { addPart, createShop, createTransaction, lookupShop, updateShop } from './ops/shops';
import { cancelMotorClub, createMotorClub, listMotorClub, motorClub, motorClubView, updateMotorClubCustomer } from './ops/motorClub';
import { V2Kind, V2Rejected, v2Get, v2Post } from './ops/v2';
import { registrationView, tireProtectionView } from './ops/views';

/**
 * One handler per endpoint of the contract (spec: Endpoints). `Record<EndpointId, Handler>` makes the
 * compiler check that every endpoint of the table is implemented. Handlers receive validated input and
 * return the body (and a status only where it differs from the contract's success status).
 */

/** What a handler receives: validated path parameters, query and body, and the authenticated partner. */
export interface HandlerContext {
  readonly c: OpsContext;
  /** The partner (undefined for the eligibility lookup, which uses its own token). */
  readonly partner: PartnerRecord | undefined;
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, unknown>>;
  readonly body: unknown;
  readonly endpoint: EndpointDef;
  /** Answers kept while nothing is written (PGlite only: ./db/answerCache.ts); absent on a shared PostgreSQL server. */
  readonly answers?: AnswerCache;
}

/** A handler's answer: body (omitted for 204) and optionally a status other than the endpoint's success status. */
export interface HandlerResult {
  readonly status?: number;
  readonly body?: unknown;
  /** The body as JSON text, built by the handler (sent as it is: no second serialisation). */
  readonly json?: string;
}

type Handler = (ctx: HandlerContext) => Promise<HandlerResult>;
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

/**
 * A read's answer as JSON text: the one kept in the answer cache (every key names the partner: a partner's own), else
 * built by `build` and serialised once. `what` is a registration's view and id, or what a list page was asked for.
 */
async function cachedJson(ctx: HandlerContext, what: { view: RecordView; id: string } | readonly unknown[], build: () => Promise<unknown>): Promise<HandlerResult> {
  const make = async () => JSON.stringify(await build());
  if (!ctx.answers) return { json: await make() };
  if (Array.isArray(what)) return { json: await ctx.answers.through(answerKey(pid(ctx), 'page', ...what), make, true) };
  const { view, id } = what as { view: RecordView; id: string };
  return { json: await ctx.answers.through(recordKey(pid(ctx), view, id), make) };
}

/**
 * What a write of `endpoint` changes among the cached answers, when it is known: a version 3 registration create
 * changes only the partner's list pages; a claim or a cancellation by id, also that registration's reads. Undefined
 * (everything may change) for every other write.
 */
export function writeScopeOf(endpoint: EndpointId, partner: string | undefined, params: Readonly<Record<string, string>>): WriteScope | undefined {
  if (partner === undefined) return undefined;
  if (endpoint === 'createRegistration' || endpoint === 'createTireProtectionRegistration') return { partner };
  const byId = ['createTireProtectionClaim', 'cancelRegistration', 'cancelTireProtectionRegistration'] as const;
  return (byId as readonly string[]).includes(endpoint) && params.id ? { partner, id: params.id } : undefined;
}

/** Deterministic eligibility rule of the sandbox (documented in docs/sandbox.md). */
export function isEligible(q: { vin?: string; licensePlate?: string; state?: string }): boolean {
  if (q.vin) {
    // The query's schema (the contract's VIN_RE) has refused any other vin: here only for direct callers.
    if (!VIN_RE.test(q.vin)) throw new ApiError(400, 'bad_request', 'vin must be 17 characters (letters except I, O, Q, and digits)', [{ path: 'query.vin', message: VIN_MESSAGE }]);
    return /[02468]$/.test(q.vin);
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
  verifyToken: async (ctx) => ({ body: { partner_id: partnerOf(ctx).id, name: partnerOf(ctx).name } }),

  createRegistration: async (ctx) => ({ body: { id: await createRegistration(ctx.c, pid(ctx), 'registrations', body(ctx)) } }),
  listRegistrations: async (ctx) => {
    const { page, pageSize } = paging(ctx);
    return cachedJson(ctx, ['registrations', page, pageSize], () => listRegistrations(ctx.c, pid(ctx), { page, pageSize }, registrationView));
  },
  getRegistration: async (ctx) => cachedJson(ctx, { view: 'registration', id: ctx.params.id ?? '' }, async () => registrationView(await registration(ctx.c, pid(ctx), ctx.params.id ?? ''))),
  cancelRegistration: async (ctx) => (await cancelRegistration(ctx.c, pid(ctx), byId(ctx), cancelledOn(ctx)), NO_CONTENT),
  cancelRegistrationByInvoice: async (ctx) => (await cancelRegistration(ctx.c, pid(ctx), byInvoice(ctx), cancelledOn(ctx)), NO_CONTENT),

  createTireProtectionRegistration: async (ctx) => ({ body: { id: await createRegistration(ctx.c, pid(ctx), 'tire-protection', body(ctx)) } }),
  listTireProtectionRegistrations: async (ctx) => {
    const q = { ...paging(ctx), invoiceNumber: ctx.query.invoiceNumber as string | undefined, storeNumber: ctx.query.storeNumber as string | undefined };
    return cachedJson(ctx, ['tire-protection registrations', q.page, q.pageSize, q.invoiceNumber ?? null, q.storeNumber ?? null], () =>
      listRegistrations(ctx.c, pid(ctx), q, (r) => tireProtectionView(r)),
    );
  },
  getTireProtectionRegistration: async (ctx) =>
    cachedJson(ctx, { view: 'tire-protection registration', id: ctx.params.id ?? '' }, async () => {
      const { registration: r, claims } = await registrationWithClaims(ctx.c, pid(ctx), ctx.params.id ?? '');
      return tireProtectionView(r, claims);
    }),
  getTireProtectionRegistrationMetadata: async (ctx) => ({ body: await metadata(ctx.c, pid(ctx), ctx.params.id ?? '') }),
  cancelTireProtectionRegistration: async (ctx) => (await cancelRegistration(ctx.c, pid(ctx), byId(ctx), cancelledOn(ctx)), NO_CONTENT),
  cancelTireProtectionRegistrationByInvoice: async (ctx) => (await cancelRegistration(ctx.c, pid(ctx), byInvoice(ctx), cancelledOn(ctx)), NO_CONTENT),

  createTireProtectionClaim: async (ctx) => ({ body: { id: await fileClaim(ctx.c, pid(ctx), ctx.params.id ?? '', body(ctx)) } }),

  lookupShop: async (ctx) => ({ body: await lookupShop(ctx.c, pid(ctx), String(ctx.query.query)) }),
  createShop: async (ctx) => (await createShop(ctx.c, pid(ctx), body(ctx)), NO_CONTENT),
  updateShop: async (ctx) => (await updateShop(ctx.c, pid(ctx), ctx.params.uniqueId ?? '', body(ctx)), NO_CONTENT),
  addShopPart: async (ctx) => (await addPart(ctx.c, pid(ctx), ctx.params.uniqueId ?? '', body(ctx)), NO_CONTENT),
  createTransaction: async (ctx) => (await createTransaction(ctx.c, pid(ctx), body(ctx)), NO_CONTENT),

  createMotorClubRegistration: async (ctx) => ({ body: { id: await createMotorClub(ctx.c, pid(ctx), body(ctx)) } }),
  listMotorClubRegistrations: async (ctx) => {
    const { page, pageSize } = paging(ctx);
    return { body: await listMotorClub(ctx.c, pid(ctx), page, pageSize) };
  },
  getMotorClubRegistration: async (ctx) => ({ body: motorClubView(await motorClub(ctx.c, pid(ctx), byId(ctx))) }),
  updateMotorClubCustomer: async (ctx) => (await updateMotorClubCustomer(ctx.c, pid(ctx), byId(ctx), body(ctx).customer), NO_CONTENT),
  updateMotorClubCustomerByInvoice: async (ctx) => (await updateMotorClubCustomer(ctx.c, pid(ctx), byInvoice(ctx), body(ctx).customer), NO_CONTENT),
  cancelMotorClubRegistration: async (ctx) => (await cancelMotorClub(ctx.c, pid(ctx), byId(ctx), cancelledOn(ctx)), NO_CONTENT),
  cancelMotorClubRegistrationByInvoice: async (ctx) => (await cancelMotorClub(ctx.c, pid(ctx), byInvoice(ctx), cancelledOn(ctx)), NO_CONTENT),

  v2GetRecords: async (ctx) => {
    const p = v2Partner(ctx);
    const q = ctx.query;
    return {
      body: await v2Get(ctx.c, p, String(q.rec), {
        shopId: q.shopid as string | undefined,
        invoiceNumber: q.invoicenumber as string | undefined,
        partnerId: q.partnerid as string | undefined,
      }),
    };
  },
  v2PostRecords: async (ctx) => {
    const p = v2Partner(ctx);
    const b = body(ctx);
    const kind = (['Registrations', 'Claims', 'Sales', 'Cancellations'] as const).find((k): k is V2Kind => Array.isArray(b[k]));
    if (!kind) throw new ApiError(400, 'bad_request', 'The body needs one array: Registrations, Claims, Sales or Cancellations', [{ path: '', message: 'expected one of Registrations, Claims, Sales, Cancellations' }]);
    try {
      return { status: 200, body: { [kind]: await v2Post(ctx.c, p, kind, b[kind] as Body[]) } };
    } catch (err) {
      if (!(err instanceof V2Rejected)) throw err;
      const rejected = err.results.filter((r) => r.status === 'rejected');
      const first = rejected[0] as (typeof rejected)[number];
      throw new ApiError(
        first.statusCode,
        first.statusCode === 404 ? 'not_found' : first.statusCode === 400 ? 'bad_request' : 'conflict',
        `${rejected.length} of ${err.results.length} ${kind} record(s) rejected, so none was stored; first: ${kind}[${first.index}]: ${first.message ?? ''}`,
        first.statusCode === 400 ? rejected.map((r) => ({ path: [kind, r.index, err.fields.get(r.index)].filter((p) => p !== undefined).join('.'), message: r.message ?? '' })) : undefined,
        { results: err.results },
      );
    }
  },

  eligibilityLookup: async (ctx) => {
    // With a vin, parseQuery has already kept only the vin (spec: "If vin, licensePlate and state are all sent, only vin is used").
    const q = EligibilityQuery.safeParse(ctx.query);
    if (!q.success) throw new ApiError(400, 'bad_request', q.error.issues.map((i) => i.message).join('; '), q.error.issues.map((i) => ({ path: `query.${i.path.map(String).join('.')}`, message: i.message })));
    return { body: { isEligible: isEligible(q.data) } };
  },
};
