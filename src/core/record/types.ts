import type { BaseAddresses } from './bases';

/**
 * The shapes of recording a flow from exchanges (docs/flows.md, Recording a flow), shared by `tpp record`, the
 * editor's Save as Flow and the benchmark.
 */

/** How to record. */
export interface RecordOptions {
  /** Where the exchanges came from, for the flow's header: `the journal of tpp sandbox at http://127.0.0.1:43117`. */
  readonly source: string;
  /** Who recorded it, for the header: `tpp record`, `Save as Flow`. */
  readonly recordedBy: string;
  /** Environment id the exchanges were sent to (`local`, `sandbox`, `production`); default: theirs when they agree. */
  readonly env?: string;
  /** Partner ID written as `{{partnerId}}`; default: the exchanges' `partner` when they agree. */
  readonly partnerId?: string;
  /** Base addresses the exchanges were sent to (an environment's); more are learned from the exchanges themselves. */
  readonly bases?: readonly BaseAddresses[];
  /** The flow's file name, for the header's `tpp run` line. */
  readonly fileName?: string;
  /** Leave out the exchanges a flow cannot send again, each named in the header, instead of refusing them all. */
  readonly skipRefused?: boolean;
  /** Why a record may hold no body (e.g. a log that keeps none), added to the refusal of such an exchange. */
  readonly missingBodyHint?: string;
}

/** An exchange a flow cannot send again: its position (0-based), how it reads, and why. */
export interface Refusal {
  readonly index: number;
  /** `#3 POST /api/v3/tire-protection/registrations → 503 at 2025-06-01T10:00:01.000Z`. */
  readonly label: string;
  readonly reason: string;
}

/** A recorded flow and what it holds. */
export interface RecordedFlow {
  /** The `.http` text. */
  readonly text: string;
  /** Requests written. */
  readonly requests: number;
  /** Requests whose answer a later one reads (`# @name`). */
  readonly named: number;
  /** `{{name.response…}}` references written. */
  readonly references: number;
  /** File variables written (`@run`, `@invoice`, the dates…), by name. */
  readonly variables: readonly string[];
  /** Requests with `?? contract`. */
  readonly contractChecks: number;
  /** Exchanges left out ({@link RecordOptions.skipRefused}). */
  readonly leftOut: readonly Refusal[];
  /** ISO 8601 times of the first and the last exchange recorded. */
  readonly from: string;
  readonly to: string;
}

/**
 * Nothing was recorded: no exchange was given, or some cannot be sent again by a flow (each in {@link refusals}, by
 * its position, method, path, status and time, with the reason). Never silently different: the caller leaves them
 * out only on purpose ({@link RecordOptions.skipRefused}).
 */
export class RecordRefused extends Error {
  override readonly name = 'RecordRefused';
  constructor(
    message: string,
    readonly refusals: readonly Refusal[],
  ) {
    super(message);
  }
}
