/**
 * Version 3 object schemas (spec: Resources and their fields > Version 3 objects; Endpoints), one module per
 * resource in v3/. Importing this barrel builds all of them; code that needs one kind's schema goes through
 * PAYLOAD_KINDS or ENDPOINTS, which load each module on first use (see lazy.ts).
 *
 * Request schemas are plain `z.object`s (unknown keys are stripped, not rejected: the diagnostics layer reports
 * them as warnings by walking `.shape`). Where the spec shows required flags (the earlier-revision registration,
 * its customer, address, tire and vehicle; the cancelledOn and customer PATCH bodies) they are enforced. Where the
 * flags are "not shown" (tire-protection registration, claim, shop, part, transaction, motor-club) every property
 * is optional and only its type/format is checked when present. Read schemas are derived with `readOf`.
 */
export * from './v3/registration';
export * from './v3/tireProtection';
export * from './v3/claim';
export * from './v3/shop';
export * from './v3/shopUpdate';
export * from './v3/shopLookup';
export * from './v3/part';
export * from './v3/transaction';
export * from './v3/motorClubCustomer';
export * from './v3/motorClub';
export * from './v3/motorClubCustomerUpdate';
export * from './v3/cancellation';
export * from './v3/responses';
export * from './v3/read';
export * from './v3/records';
export * from './v3/eligibility';
