/**
 * The spec's status-code table (spec: Errors — "Status | Name | Meaning / resolution", plus its success and
 * redirect codes). Written once here; the client's errors, the contract helper and the UI read it.
 */
import { STATUS_CODES } from 'node:http';
import { RETRYABLE_STATUSES } from '../contract/errors';

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

type Row = Omit<StatusInfo, 'status' | 'documented' | 'kind' | 'retryable'>;

/** The spec's rows, verbatim. */
const TABLE: Readonly<Record<number, Row>> = {
  200: { name: 'OK', meaning: 'Content returned.' },
  201: { name: 'Created', meaning: 'Created.' },
  204: { name: 'No Content', meaning: 'Succeeded; no body.' },
  301: { name: 'Moved Permanently', meaning: 'The new address is given in the response.' },
  302: { name: 'Found', meaning: 'The new address is given in the response.' },
  400: {
    name: 'Bad Request',
    meaning: 'Request not understood; invalid parameters; in version 2, a required field empty or malformed.',
  },
  401: { name: 'Unauthorized', meaning: 'Unauthenticated; invalid JWT.' },
  403: { name: 'Forbidden', meaning: 'No access rights; check Partner ID, endpoint and method.' },
  404: { name: 'Not Found', meaning: 'Resource not found (unknown registration, or shop lookup without result).' },
  405: { name: 'Not Allowed', meaning: 'Method not allowed.' },
  409: {
    name: 'Conflict',
    meaning:
      'State conflict: cancelling a registration twice or when program terms forbid it; claim against an expired or cancelled registration; shop create with an existing uniqueId.',
  },
  429: { name: 'Too Many Requests', meaning: 'Rate limited; wait and retry.' },
  500: { name: 'Internal Server Error', meaning: 'Retry later.' },
  502: { name: 'Bad Gateway', meaning: 'Retry later.' },
  503: { name: 'Service Unavailable', meaning: 'Retry later.' },
  504: { name: 'Gateway Timeout', meaning: 'Retry later.' },
};

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
 * @returns the spec's row; for a status the spec does not list, the standard reason phrase (or `HTTP <n>`)
 *   and the meaning "Not described by the partner interface." Never throws.
 */
export function describeStatus(status: number): StatusInfo {
  const row = TABLE[status];
  const base = { status, kind: kindOf(status), retryable: RETRYABLE_STATUSES.includes(status) };
  if (row) return { ...base, ...row, documented: true };
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
