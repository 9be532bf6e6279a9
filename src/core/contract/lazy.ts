/**
 * Each schema module of the contract, loaded on first use (spec: Resources and their fields; Endpoints). The
 * payload kinds (kinds.ts) and the endpoint table (endpoints.ts) read their schemas through these getters, so
 * validating one kind builds that kind's schemas only: `tpp validate` on a tire-protection registration builds
 * neither the version 2 records, nor the other kinds, nor the endpoints' answers. A module is built
 * once, on its first `require`, and Node keeps it. The paths stay literal: esbuild bundles each module into a
 * function it runs on the first `require`.
 */

/**
 * The module `load` gives, kept after the first call: in a bundle each `require` of a module wraps its exports in
 * a new object (esbuild's CommonJS view of an ES module), which a schema read per diagnostic would pay every time.
 */
function once<T>(load: () => T): () => T {
  let module: T | undefined;
  return () => (module ??= load());
}

/** The schema modules, by name. Each getter returns the module, built on its first call. */
export const schemas = {
  registration: once(() => require('./v3/registration') as typeof import('./v3/registration')),
  tireProtection: once(() => require('./v3/tireProtection') as typeof import('./v3/tireProtection')),
  claim: once(() => require('./v3/claim') as typeof import('./v3/claim')),
  shop: once(() => require('./v3/shop') as typeof import('./v3/shop')),
  shopUpdate: once(() => require('./v3/shopUpdate') as typeof import('./v3/shopUpdate')),
  shopLookup: once(() => require('./v3/shopLookup') as typeof import('./v3/shopLookup')),
  part: once(() => require('./v3/part') as typeof import('./v3/part')),
  transaction: once(() => require('./v3/transaction') as typeof import('./v3/transaction')),
  motorClub: once(() => require('./v3/motorClub') as typeof import('./v3/motorClub')),
  motorClubCustomerUpdate: once(() => require('./v3/motorClubCustomerUpdate') as typeof import('./v3/motorClubCustomerUpdate')),
  cancellation: once(() => require('./v3/cancellation') as typeof import('./v3/cancellation')),
  responses: once(() => require('./v3/responses') as typeof import('./v3/responses')),
  records: once(() => require('./v3/records') as typeof import('./v3/records')),
  eligibility: once(() => require('./v3/eligibility') as typeof import('./v3/eligibility')),
  v2Registration: once(() => require('./v2/registration') as typeof import('./v2/registration')),
  v2Claim: once(() => require('./v2/claim') as typeof import('./v2/claim')),
  v2Sale: once(() => require('./v2/sale') as typeof import('./v2/sale')),
  v2Cancellation: once(() => require('./v2/cancellation') as typeof import('./v2/cancellation')),
  v2Bodies: once(() => require('./v2/bodies') as typeof import('./v2/bodies')),
  v2Records: once(() => require('./v2/records') as typeof import('./v2/records')),
  errors: once(() => require('./errors') as typeof import('./errors')),
  answers: once(() => require('./answers') as typeof import('./answers')),
};
