/**
 * Status codes as a client sees them: the spec's table (spec: Errors; kept in the contract as
 * STATUS_TABLE) with the kind, retryability, and a fallback for statuses the spec does not list.
 */
import { STATUS_CODES } from 'node:http';
import { RETRYABLE_STATUSES, SANDBOX_STATUS_TABLE, STATUS_TABLE as TABLE } from '../contract/errors';

export { RETRYABLE_STATUSES };

/** What a status means to a client. */
export type StatusKind = 'success' | 'redirect' | 'client-error' | 'server-error' | 'other';

/** One row of the spec's table (or a fallback for a status the spec does not list). */
export interface StatusInfo {
  readonly status: number;
  /** The spec's name, e.g. `Conflict`, `Not Allowed`; for an unlisted status, the HTTP reason phrase. */
  readonly name: string;
  /** The spec's meaning / resolution text; for an unlisted status, a note that the spec does not describe it. */
  readonly meaning: string;
  readonly kind: StatusKind;
  /** True when the spec lists this status. */
  readonly documented: boolean;
  /** True for 429 and 500/502/503/504: the spec puts retrying these on the client. */
  readonly retryable: boolean;
}

/** Redirect statuses the spec documents (followed only to the same origin). */
export const REDIRECT_STATUSES: readonly number[] = [301, 302];

function kindOf(status: number): StatusKind {
  if (status >= 200 && status < 300) return 'success';
  if (status >= 300 && status < 400) return 'redirect';
  if (status >= 400 && status < 500) return 'client-error';
  if (status >= 500 && status < 600) return 'server-error';
  return 'other';
}

/**
 * Name and meaning of an HTTP status as the spec's Errors section gives them.
 *
 * @param status HTTP status code (integer).
 * @returns the spec's row; for 413 and 415 (not in the spec, answered by the Local sandbox) the sandbox's
 *   meaning (SANDBOX_STATUS_TABLE); for another status the spec does not list, the standard reason phrase (or
 *   `HTTP <n>`) and the meaning "Not described by the partner interface." Never throws.
 */
export function describeStatus(status: number): StatusInfo {
  const row = TABLE[status];
  const base = { status, kind: kindOf(status), retryable: RETRYABLE_STATUSES.includes(status) };
  if (row) return { ...base, ...row, documented: true };
  const sandbox = SANDBOX_STATUS_TABLE[status];
  if (sandbox) return { ...base, ...sandbox, documented: false };
  return {
    ...base,
    name: STATUS_CODES[status] ?? `HTTP ${status}`,
    meaning: 'Not described by the partner interface.',
    documented: false,
  };
}

/** All statuses the spec lists, ascending (for documentation and tests). */
export function documentedStatuses(): number[] {
  return Object.keys(TABLE)
    .map(Number)
    .sort((a, b) => a - b);
}
