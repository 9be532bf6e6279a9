/**
 * Each schema module of the contract, loaded on first use (spec: Resources and their fields; Endpoints). The
 * payload kinds (kinds.ts) and the endpoint table (endpoints.ts) read their schemas through these getters, so
 * validating one kind builds that kind's schemas only: `tpp validate` on a tire-protection registration builds
 * neither the version 2 records, nor the other kinds, nor the endpoints' answers (issue 14). A module is built
 * once, on its first `require`, and Node keeps it. The paths stay literal: esbuild bundles each module into a
 * function it runs on the first `require`.
 */

/** The schema modules, by name. Each getter returns the module, built on its first call. */
export const schemas = {
  registration: () => require('./v3/registration') as typeof import('./v3/registration'),
  tireProtection: () => require('./v3/tireProtection') as typeof import('./v3/tireProtection'),
  claim: () => require('./v3/claim') as typeof import('./v3/claim'),
  shop: () => require('./v3/shop') as typeof import('./v3/shop'),
  shopUpdate: () => require('./v3/shopUpdate') as typeof import('./v3/shopUpdate'),
  shopLookup: () => require('./v3/shopLookup') as typeof import('./v3/shopLookup'),
  part: () => require('./v3/part') as typeof import('./v3/part'),
  transaction: () => require('./v3/transaction') as typeof import('./v3/transaction'),
  motorClub: () => require('./v3/motorClub') as typeof import('./v3/motorClub'),
  motorClubCustomerUpdate: () => require('./v3/motorClubCustomerUpdate') as typeof import('./v3/motorClubCustomerUpdate'),
  cancellation: () => require('./v3/cancellation') as typeof import('./v3/cancellation'),
  responses: () => require('./v3/responses') as typeof import('./v3/responses'),
  records: () => require('./v3/records') as typeof import('./v3/records'),
  eligibility: () => require('./v3/eligibility') as typeof import('./v3/eligibility'),
  v2Registration: () => require('./v2/registration') as typeof import('./v2/registration'),
  v2Claim: () => require('./v2/claim') as typeof import('./v2/claim'),
  v2Sale: () => require('./v2/sale') as typeof import('./v2/sale'),
  v2Cancellation: () => require('./v2/cancellation') as typeof import('./v2/cancellation'),
  v2Bodies: () => require('./v2/bodies') as typeof import('./v2/bodies'),
  v2Records: () => require('./v2/records') as typeof import('./v2/records'),
  errors: () => require('./errors') as typeof import('./errors'),
  answers: () => require('./answers') as typeof import('./answers'),
};
