import cancellation from '../../../examples/cancellation.json';
import motorClubCustomer from '../../../examples/motor-club-customer.json';
import motorClubRegistration from '../../../examples/motor-club-registration.json';
import part from '../../../examples/part.json';
import registration from '../../../examples/registration.json';
import shopUpdate from '../../../examples/shop-update.json';
import shop from '../../../examples/shop.json';
import tireProtectionClaim from '../../../examples/tire-protection-claim.json';
import tireProtectionRegistration from '../../../examples/tire-protection-registration.json';
import transaction from '../../../examples/transaction.json';
import v2Cancellations from '../../../examples/v2-cancellations.json';
import v2Claims from '../../../examples/v2-claims.json';
import v2Registrations from '../../../examples/v2-registrations.json';
import v2Sales from '../../../examples/v2-sales.json';
import { kindFromSchemaUri } from '../contract/kinds';
import type { PayloadKind } from '../contract/types';
import { captureFromResponse, type Captures } from './captures';
import { sendOrder } from './order';
import { resolvePayloadVariables } from './resolve';

/**
 * The payload files of `examples/` as request bodies with fixed values (the OpenAPI export's request-body examples):
 * bundled at build time, so the export reads no file and depends on nothing of the machine it runs on.
 */

const FILES: readonly unknown[] = [
  registration, tireProtectionRegistration, tireProtectionClaim, cancellation, shop, shopUpdate, part, transaction,
  motorClubRegistration, motorClubCustomer, v2Registrations, v2Claims, v2Sales, v2Cancellations,
];

/** The clock of the examples' dynamic values (`{{$date}}`, `{{$timestamp}}`): a fixed instant, not now. */
export const EXAMPLE_NOW = new Date('2025-06-02T15:04:05.000Z');
/** What a create answers in the examples (the identifier a later example's `{{lastRegistration.id}}` reads). */
const EXAMPLE_ID = '6650f1c2a9e4b3d2c1f0e9d8';

/**
 * Every example payload's body, by kind, with its variables resolved to fixed values (a fixed clock, a seeded random
 * source, captures from fixed answers) and its `$` meta properties removed: the same result on every run.
 * @throws VariableError if an example uses a variable that cannot be resolved (a broken example)
 */
export function exampleBodies(): Partial<Record<PayloadKind, unknown>> {
  let seed = 1;
  // A seeded generator (Park-Miller): varied yet reproducible {{$randomInt}} values. {{$guid}} does not read it, so
  // the examples do not use it (the export's test compares two runs byte for byte).
  const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  const items = FILES.map((value) => ({ value, kind: kindFromSchemaUri(String((value as { $schema?: unknown }).$schema)) }));
  let captured: Captures = {};
  const out: Partial<Record<PayloadKind, unknown>> = {};
  for (const i of sendOrder(items)) {
    const { value, kind } = items[i] as (typeof items)[number];
    if (!kind) continue;
    const resolved = resolvePayloadVariables(value, kind, { now: EXAMPLE_NOW, random, captured }) as Record<string, unknown>;
    const answer = kind === 'v2-registrations' ? { Registrations: [{ RegistrationID: EXAMPLE_ID }] } : { id: EXAMPLE_ID };
    captured = captureFromResponse(kind, resolved, answer, captured);
    out[kind] = Object.fromEntries(Object.entries(resolved).filter(([k]) => !k.startsWith('$')));
  }
  return out;
}
