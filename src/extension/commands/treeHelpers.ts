import type { RegistrationProduct } from '../../core/listing/registrationPages';

/** The product of a registration-list command: the node's `product`, else the second argument; tire protection by default. */
export function productOf(arg: unknown, second: unknown): RegistrationProduct {
  const p = (arg as { product?: unknown } | undefined)?.product ?? second;
  return p === 'motor-club' ? 'motor-club' : 'tire-protection';
}
