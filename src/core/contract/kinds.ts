import { z } from 'zod';
import { ENDPOINTS } from './endpoints';
import { EndpointId, MetaPropertyDef, PayloadKind, PayloadKindDef } from './types';
import { V2CancellationsBody, V2ClaimsBody, V2RegistrationsBody, V2SalesBody } from './v2';
import {
  CancellationBody,
  MotorClubCustomerUpdate,
  MotorClubRegistration,
  Part,
  Registration,
  Shop,
  ShopUpdate,
  TireProtectionClaim,
  TireProtectionRegistration,
  Transaction,
} from './v3';

/**
 * Payload kinds: a stable name for every sendable body (spec: Resources and their fields; Endpoints).
 * A payload file declares its kind with `"$schema": "tpp://schemas/<kind>.json"`; its other `$`-prefixed
 * top-level properties are meta data for the tool (e.g. `$registrationId`) and are never sent.
 */

/** Scheme and prefix of payload schema URIs. */
export const SCHEMA_URI_PREFIX = 'tpp://schemas/';

const companyName: MetaPropertyDef = {
  description: `The partner's name segment {company_name} of ${ENDPOINTS.v2PostRecords.path.replace(':company_name', '{company_name}')} (defaults to the environment's setting).`,
  pathParam: 'company_name',
};
const registrationId: MetaPropertyDef = {
  description: 'Identifier (_id) of the registration this payload is for; fills :id.',
  pathParam: 'id',
};
const invoiceNumber: MetaPropertyDef = {
  description:
    'Invoice number of the registration, when $registrationId is not given (sends the ?invoiceNumber= form; use $registrationId when invoice numbers are not unique).',
  queryParam: 'invoiceNumber',
};
const storeNumber: MetaPropertyDef = {
  description: 'Store number, with $invoiceNumber, when the invoice number alone is not unique (tire protection only).',
  queryParam: 'storeNumber',
};
const uniqueId: MetaPropertyDef = {
  description: 'uniqueId of the shop; fills :uniqueId.',
  pathParam: 'uniqueId',
  required: true,
};

const S = (kind: PayloadKind) => ({ $schema: `${SCHEMA_URI_PREFIX}${kind}.json` });

const defs: Record<PayloadKind, Omit<PayloadKindDef, 'kind'>> = {
  'v2-registrations': {
    title: 'Version 2 registrations',
    description: 'POST body {Registrations: [...]} of the version 2 record interface.',
    schema: V2RegistrationsBody,
    endpoints: ['v2PostRecords'],
    meta: { $companyName: companyName },
    template: {
      ...S('v2-registrations'),
      Registrations: [
        {
          ShopID: 'SHOP-0001',
          InvoiceNumber: 'INV-0001',
          PlanEnrollDate: '2025-01-15',
          EmployeeID: 'EMP-01',
          CustomerID: 'CUST-0001',
          TiresCovered: 4,
          TPPPrice: 19.99,
          TireBrand: 'Michelin',
          TireSize: '225/65R17',
          TirePrice: 189.99,
          TireCost: 142.5,
          TireDOT1: 'DOT U2LL LMLR 5107',
        },
      ],
    },
  },
  'v2-claims': {
    title: 'Version 2 claims',
    description: 'POST body {Claims: [...]} of the version 2 record interface.',
    schema: V2ClaimsBody,
    endpoints: ['v2PostRecords'],
    meta: {
      $companyName: companyName,
      $registrationId: {
        description:
          'RegistrationID of the version 2 registration the claims are for (informational: a v2 claim names its registration by ShopID and InvoiceNumber).',
      },
    },
    template: {
      ...S('v2-claims'),
      Claims: [
        {
          ShopID: 'SHOP-0001',
          InvoiceNumber: 'INV-0001',
          ClaimDate: '2025-06-02',
          RepairShopID: 'SHOP-0001',
          RepairInvoiceNumber: 'RINV-0001',
          TireClaimCount: 1,
          CreditAmount: 94.99,
          CostPerUnit: 189.99,
          ServiceType: 'REPLACE',
          TireBrand: 'Michelin',
          TireSize: '225/65R17',
          TireCost: 189.99,
        },
      ],
    },
  },
  'v2-sales': {
    title: 'Version 2 sales',
    description: 'POST body {Sales: [...]} of the version 2 record interface.',
    schema: V2SalesBody,
    endpoints: ['v2PostRecords'],
    meta: { $companyName: companyName },
    template: {
      ...S('v2-sales'),
      Sales: [
        {
          ShopID: 'SHOP-0001',
          InvoiceNumber: 'INV-0002',
          SaleDate: '2025-01-15',
          TireCount: 4,
          TireBrand: 'Michelin',
          TireModel: 'Defender2',
          TireSize: '225/65R17',
          TirePrice: 189.99,
          TireCost: 142.5,
        },
      ],
    },
  },
  'v2-cancellations': {
    title: 'Version 2 cancellations (deprecated)',
    description: 'POST body {Cancellations: [...]} of the version 2 record interface (deprecated and unsupported).',
    schema: V2CancellationsBody,
    endpoints: ['v2PostRecords'],
    deprecated: true,
    meta: { $companyName: companyName },
    template: {
      ...S('v2-cancellations'),
      Cancellations: [
        {
          ShopID: 'SHOP-0001',
          InvoiceNumber: 'INV-0001',
          CancelShopID: 'SHOP-0001',
          CancelInvoiceNumber: 'CINV-0001',
          TireCancelCount: 4,
          CancelDate: '2025-02-01',
        },
      ],
    },
  },
  registration: {
    title: 'Registration (earlier revision)',
    description: 'Registration of the earlier revision.',
    schema: Registration,
    endpoints: ['createRegistration'],
    meta: {},
    template: {
      ...S('registration'),
      product_id: 'PRODUCT-ID',
      invoiceNumber: 'INV-0001',
      enrollDate: '2025-01-15',
      customer: { name: 'Jane Doe', email: 'jane.doe@example.com' },
      tires: [{ make: 'Michelin', model: 'Defender2', size: '225/65R17', retailPrice: 189.99 }],
    },
  },
  'tire-protection-registration': {
    title: 'Tire-protection registration',
    description: 'Tire-protection registration.',
    schema: TireProtectionRegistration,
    endpoints: ['createTireProtectionRegistration'],
    meta: {},
    template: {
      ...S('tire-protection-registration'),
      product_id: 'PRODUCT-ID',
      invoiceNumber: 'INV-0001',
      enrollDate: '2025-01-15',
      customer: { name: 'Jane Doe', email: 'jane.doe@example.com' },
      vehicle: { year: 2021, make: 'Toyota', model: 'RAV4' },
      tires: [{ make: 'Michelin', model: 'Defender2', size: '225/65R17', retailPrice: 189.99 }],
    },
  },
  'tire-protection-claim': {
    title: 'Tire-protection claim',
    description: 'Claim against a tire-protection registration ($registrationId).',
    schema: TireProtectionClaim,
    endpoints: ['createTireProtectionClaim'],
    meta: { $registrationId: { ...registrationId, required: true } },
    template: {
      ...S('tire-protection-claim'),
      $registrationId: 'REGISTRATION-ID',
      serviceInvoiceNumber: 'SRV-0001',
      serviceInvoiceDate: '2025-06-02',
      vehicleMileage: 18250,
      damageReason: 'Road hazard',
      damageDescription: 'Sidewall puncture, not repairable',
      authorizedAmount: 189.99,
      tires: [
        {
          original: { make: 'Michelin', model: 'Defender2', size: '225/65R17' },
          replacement: { make: 'Michelin', model: 'Defender2', size: '225/65R17' },
        },
      ],
    },
  },
  shop: {
    title: 'Shop',
    description: 'Shop create body.',
    schema: Shop,
    endpoints: ['createShop'],
    meta: {},
    template: {
      ...S('shop'),
      product_id: 'PRODUCT-ID',
      uniqueId: 'SHOP-0001',
      legalName: 'Example Tire Co. LLC',
      startDate: '2025-01-01',
      phone: '+1 555 010 0199',
      email: 'service@example.com',
    },
  },
  'shop-update': {
    title: 'Shop update',
    description: 'Shop update body for the shop $uniqueId.',
    schema: ShopUpdate,
    endpoints: ['updateShop'],
    meta: { $uniqueId: uniqueId },
    template: { ...S('shop-update'), $uniqueId: 'SHOP-0001', product_id: 'PRODUCT-ID', endDate: '2025-12-31' },
  },
  part: {
    title: 'Part sold to a shop',
    description: 'Part sold to the shop $uniqueId.',
    schema: Part,
    endpoints: ['addShopPart'],
    meta: { $uniqueId: uniqueId },
    template: {
      ...S('part'),
      $uniqueId: 'SHOP-0001',
      product_id: 'PRODUCT-ID',
      partNumber: 'PN-0001',
      make: 'Michelin',
      model: 'Defender2',
      size: '225/65R17',
      date: '2025-01-15',
      quantity: 4,
      cost: 142.5,
    },
  },
  transaction: {
    title: 'Transaction',
    description: 'Sale of tires from a manufacturer to a dealer.',
    schema: Transaction,
    endpoints: ['createTransaction'],
    meta: {},
    template: {
      ...S('transaction'),
      product_id: 'PRODUCT-ID',
      make: 'Michelin',
      model: 'Defender2',
      size: '225/65R17',
      treadDepth: 10,
      date: '2025-01-15',
      unitPrice: 142.5,
      quantity: 4,
      isTrailer: false,
      partNumber: 'PN-0001',
      dot: 'DOT U2LL LMLR 5107',
    },
  },
  'motor-club-registration': {
    title: 'Motor-club registration',
    description: 'Motor-club registration (consumer information only).',
    schema: MotorClubRegistration,
    endpoints: ['createMotorClubRegistration'],
    meta: {},
    template: {
      ...S('motor-club-registration'),
      product_id: 'PRODUCT-ID',
      invoiceNumber: 'INV-0001',
      enrollDate: '2025-01-15',
      customer: { name: 'Jane Doe', phone: '+1 555 010 0123', email: 'jane.doe@example.com' },
    },
  },
  'motor-club-customer': {
    title: 'Motor-club customer update',
    description: 'Replaces the customer of a motor-club registration ($registrationId or $invoiceNumber).',
    schema: MotorClubCustomerUpdate,
    endpoints: ['updateMotorClubCustomer', 'updateMotorClubCustomerByInvoice'],
    meta: { $registrationId: registrationId, $invoiceNumber: invoiceNumber },
    template: {
      ...S('motor-club-customer'),
      $registrationId: 'REGISTRATION-ID',
      customer: { name: 'Jane Doe', phone: '+1 555 010 0123', email: 'jane.doe@example.com' },
    },
  },
  cancellation: {
    title: 'Cancellation',
    description:
      'Cancels a registration ({cancelledOn}); $registrationId or $invoiceNumber picks the registration, $product the path.',
    schema: CancellationBody,
    endpoints: [
      'cancelTireProtectionRegistration',
      'cancelTireProtectionRegistrationByInvoice',
      'cancelMotorClubRegistration',
      'cancelMotorClubRegistrationByInvoice',
      'cancelRegistration',
      'cancelRegistrationByInvoice',
    ],
    meta: {
      $registrationId: registrationId,
      $invoiceNumber: invoiceNumber,
      $storeNumber: storeNumber,
      $product: {
        description:
          "Which registrations to cancel in: 'tire-protection' (default), 'motor-club', or 'registrations' (earlier revision).",
      },
    },
    template: { ...S('cancellation'), $registrationId: 'REGISTRATION-ID', cancelledOn: '2025-02-01T10:00:00Z' },
  },
};

/** "Sent with POST /tire-protection/shops." from the endpoint table. */
function sentWith(endpoints: readonly EndpointId[]): string {
  const forms = endpoints.map((id) => {
    const d = ENDPOINTS[id];
    const required = Object.entries(d.query).filter(([, q]) => q.required).map(([name]) => `${name}=…`);
    return `${d.method} ${d.path}${required.length ? `?${required.join('&')}` : ''}`;
  });
  return `Sent with ${forms.join(' or ')}.`;
}

/** Every payload kind, by its stable name. Descriptions end with the endpoint(s) the body is sent to. */
export const PAYLOAD_KINDS: Readonly<Record<PayloadKind, PayloadKindDef>> = Object.freeze(
  Object.fromEntries(
    Object.entries(defs).map(([kind, def]) => [
      kind,
      Object.freeze({ kind, ...def, description: `${def.description} ${sentWith(def.endpoints)}` }),
    ]),
  ) as unknown as Record<PayloadKind, PayloadKindDef>,
);

/** All payload kind names, in table order. */
export const PAYLOAD_KIND_NAMES = Object.keys(defs) as PayloadKind[];

/** `tpp://schemas/<kind>.json`, the `$schema` value of a payload file of `kind`. */
export function schemaUri(kind: PayloadKind): string {
  return `${SCHEMA_URI_PREFIX}${kind}.json`;
}

/** The kind named by a `$schema` value (`tpp://schemas/<kind>.json`), or undefined when it names none. */
export function kindFromSchemaUri(uri: string): PayloadKind | undefined {
  if (typeof uri !== 'string' || !uri.startsWith(SCHEMA_URI_PREFIX) || !uri.endsWith('.json')) return undefined;
  const name = uri.slice(SCHEMA_URI_PREFIX.length, -'.json'.length);
  return Object.prototype.hasOwnProperty.call(defs, name) ? (name as PayloadKind) : undefined;
}

/** True for top-level property names that are tool meta data (start with `$`) and never sent. */
export function isMetaKey(key: string): boolean {
  return key.startsWith('$');
}

/**
 * A copy of a payload object without its `$`-prefixed top-level properties (`$schema`, `$registrationId`, ...),
 * i.e. the body that is sent. Nested properties are kept as they are. Non-objects are returned unchanged.
 */
export function stripMeta<T>(obj: T): T {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return obj;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj as Record<string, unknown>)) if (!isMetaKey(k)) out[k] = v;
  return out as T;
}

/** The `$`-prefixed top-level properties of a payload object (including `$schema`). */
export function metaOf(obj: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return out;
  for (const [k, v] of Object.entries(obj as Record<string, unknown>)) if (isMetaKey(k)) out[k] = v;
  return out;
}

/**
 * Validates a payload object (as read from a file, meta properties included) against its kind's schema.
 * Returns zod's safeParse result of the stripped body; issue paths are relative to the body root.
 */
export function validatePayload(kind: PayloadKind, payload: unknown): z.ZodSafeParseResult<unknown> {
  return PAYLOAD_KINDS[kind].schema.safeParse(stripMeta(payload));
}
