import type { z } from 'zod';

/**
 * Types of the contract's endpoint table and payload kinds (spec: Endpoints; Resources and their fields).
 * The table itself lives in endpoints.ts; payload kinds in kinds.ts. Everything else in the codebase
 * (sandbox routes, client calls, CLI, extension) reads paths, methods and schemas from there.
 */

/** Which base address an endpoint's path is relative to (spec: Base addresses). */
export type BaseKind =
  /** {base_url} / {sandbox_url}: the version 3 address, ending in /api/v3. */
  | 'v3'
  /** {legacy_base_url}: host of the version 2 record interface (paths start /v2/partners/...). */
  | 'v2'
  /** {rsa_base_url}: the retired eligibility lookup, ending in /api/v1. */
  | 'eligibility';

export type HttpMethod = 'GET' | 'POST' | 'PATCH';

/** Stable identifiers of every endpoint of the spec's Endpoints section. */
export type EndpointId =
  | 'verifyToken'
  | 'createRegistration'
  | 'listRegistrations'
  | 'getRegistration'
  | 'cancelRegistration'
  | 'cancelRegistrationByInvoice'
  | 'createTireProtectionRegistration'
  | 'listTireProtectionRegistrations'
  | 'getTireProtectionRegistration'
  | 'getTireProtectionRegistrationMetadata'
  | 'cancelTireProtectionRegistration'
  | 'cancelTireProtectionRegistrationByInvoice'
  | 'createTireProtectionClaim'
  | 'lookupShop'
  | 'createShop'
  | 'updateShop'
  | 'addShopPart'
  | 'createTransaction'
  | 'createMotorClubRegistration'
  | 'listMotorClubRegistrations'
  | 'getMotorClubRegistration'
  | 'updateMotorClubCustomer'
  | 'updateMotorClubCustomerByInvoice'
  | 'cancelMotorClubRegistration'
  | 'cancelMotorClubRegistrationByInvoice'
  | 'v2GetRecords'
  | 'v2PostRecords'
  | 'eligibilityLookup';

/** A query parameter: its schema (strings from the URL are coerced), default, and whether it is required. */
export interface QueryParamDef {
  readonly schema: z.ZodType;
  readonly required?: boolean;
  readonly default?: string | number;
  readonly description: string;
  /** Other spellings the server also accepts (v2: ShopID and InvoiceNumber "are also written in mixed case"). */
  readonly aliases?: readonly string[];
}

/** What an endpoint acts on: see {@link EndpointDef.resource}. */
export type EndpointResource = 'registration' | 'claim' | 'metadata' | 'shop' | 'part' | 'transaction' | 'records' | 'eligibility' | 'token';

/** One row of the endpoint table. */
export interface EndpointDef {
  readonly id: EndpointId;
  readonly method: HttpMethod;
  readonly base: BaseKind;
  /** Path template relative to the base, with `:name` parameters, e.g. `/tire-protection/registrations/:id`. */
  readonly path: string;
  /** Names of the `:name` parameters in {@link path}, in order. */
  readonly pathParams: readonly string[];
  readonly query: Readonly<Record<string, QueryParamDef>>;
  /** Request body schema (POST/PATCH), undefined when the call has no body. */
  readonly body?: z.ZodType;
  /** Response body schema per success or documented error status; `null` = no body (204). */
  readonly responses: Readonly<Record<number, z.ZodType | null>>;
  /**
   * The success status the Local sandbox answers, one of {@link responses}' 2xx (spec: Errors, "Success codes"; a
   * create may answer 200 or 201). Absent: the lowest 2xx. The OpenAPI export declares it as the operation's first
   * success, so a mock server built from the export (which answers the lowest 2xx) answers as the sandbox does.
   */
  readonly sandboxStatus?: number;
  /** 1 (eligibility), 2 (records) or 3. */
  readonly apiVersion: 1 | 2 | 3;
  /** Product scope: 'tire-protection', 'motor-club', or 'registrations' (earlier revision), 'records' (v2), 'eligibility', 'auth'. */
  readonly product: 'tire-protection' | 'motor-club' | 'registrations' | 'records' | 'eligibility' | 'auth';
  /**
   * What the call reads or writes (spec: Endpoints): a registration (any product or revision), its claims or its
   * metadata, a shop, a shop's part, a transaction, the version 2 records, the eligibility lookup, or the token check.
   * Readers ask this instead of searching the path.
   */
  readonly resource: EndpointResource;
  /** Deprecated and unsupported per the spec (v2 cancellations, eligibility lookup). */
  readonly deprecated?: boolean;
  /** One-line summary in the spec's words. */
  readonly summary: string;
  /** What the spec's row says of the call (request, answers, notes), in its words: the OpenAPI operation's description. */
  readonly description: string;
}

/** Stable names of every sendable body (the `<kind>` of `"$schema": "tpp://schemas/<kind>.json"`). */
export type PayloadKind =
  | 'v2-registrations'
  | 'v2-claims'
  | 'v2-sales'
  | 'v2-cancellations'
  | 'registration'
  | 'tire-protection-registration'
  | 'tire-protection-claim'
  | 'shop'
  | 'shop-update'
  | 'part'
  | 'transaction'
  | 'motor-club-registration'
  | 'motor-club-customer'
  | 'cancellation';

/** A payload kind: its request-body schema, the endpoints it can be sent to, and a template for new files. */
export interface PayloadKindDef {
  readonly kind: PayloadKind;
  /** Short title for pickers, e.g. "Tire-protection claim". */
  readonly title: string;
  readonly description: string;
  /** zod schema of the body as sent (without `$`-prefixed meta properties). */
  readonly schema: z.ZodType;
  /** Endpoints this body is sent to (first = default). */
  readonly endpoints: readonly EndpointId[];
  readonly deprecated?: boolean;
  /** Template object for "New Payload…" (includes the `$schema` line and meta placeholders if needed). */
  readonly template: Record<string, unknown>;
  /**
   * The `$`-prefixed meta properties this kind's payload files may carry besides `$schema` (never sent), e.g.
   * `$registrationId` for a claim. Keys include the `$`.
   */
  readonly meta: Readonly<Record<string, MetaPropertyDef>>;
}

/** A `$`-prefixed meta property of a payload file: where its value goes when the payload is sent. */
export interface MetaPropertyDef {
  readonly description: string;
  /** The `:name` path parameter it fills, e.g. `id` or `uniqueId`. */
  readonly pathParam?: string;
  /** The query parameter it fills, e.g. `invoiceNumber` (selects the ...ByInvoice endpoint) or `storeNumber`. */
  readonly queryParam?: string;
  /** Whether sending is impossible without it (when no alternative meta property is given). */
  readonly required?: boolean;
}
