import type { PayloadKind } from '../contract/types';
import { CAPTURES } from './captures';
import { variablesUsed } from './resolve';

/** Kinds that end a record's life: sent after every other file using the same capture. */
const CANCELLING: ReadonlySet<PayloadKind> = new Set<PayloadKind>(['cancellation', 'v2-cancellations']);

/** One payload file of a run, for {@link sendOrder}: its kind (when known) and its parsed value. */
export interface OrderItem {
  readonly kind?: PayloadKind;
  readonly value?: unknown;
}

/**
 * The order to send a run's files in, so that a file using a capture (`{{lastRegistration.id}}`) goes after the
 * files of the same run that make it (a registration before its claim), and a cancellation after every other file
 * using the same capture (a claim on a registration must come before its cancellation). Otherwise the given order is
 * kept (stable). Work is linear in the files and their variables.
 *
 * @returns indices into `items`, each once.
 */
export function sendOrder(items: readonly OrderItem[]): number[] {
  const made = new Set<string>();
  for (const it of items) {
    const name = it.kind ? CAPTURES[it.kind]?.name : undefined;
    if (name) made.add(name);
  }
  const rank = items.map((it) => {
    const uses = it.value === undefined ? [] : variablesUsed(it.value).map((n) => n.split('.')[0] as string);
    const dependent = uses.some((root) => made.has(root));
    if (!dependent) return 0;
    return it.kind && CANCELLING.has(it.kind) ? 2 : 1;
  });
  return items.map((_, i) => i).sort((a, b) => (rank[a] as number) - (rank[b] as number) || a - b);
}
