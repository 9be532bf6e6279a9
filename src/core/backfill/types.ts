/**
 * Backfills: a flow whose requests run once per row of a data file (docs/backfills.md). The shapes shared by the
 * core (`runBackfill`, run.ts) and its drivers: `tpp run --data` now, the editor later. Types only.
 * Durations are milliseconds; row numbers are 1-based (a CSV header is not a row).
 */
import type { Dispatcher } from '../client/types';
import type { SentReport } from '../client/clientFor';
import type { HostPolicy } from '../flows/carried';
import type { RetrySettings } from '../client/backoff';
import type { FlowEnvironment, FlowFile } from '../flows/types';
import type { Launcher } from '../lock/fileLock';
import type { EndStatus } from './journalState';

/** A rule a row breaks, found before anything is sent (docs/backfills.md, Checks before sending). */
export interface RowProblem {
  readonly row: number;
  /** 1-based line of the data file where the row starts. */
  readonly line: number;
  /** The data column the value came from, when it can be told. */
  readonly column?: string;
  /** The payload diagnostic's code (docs/diagnostics.md), or `variable` for a value that cannot be resolved. */
  readonly rule: string;
  /** The label of the flow request concerned. */
  readonly request: string;
  readonly message: string;
}

/**
 * How a row ended (docs/backfills.md, Report): `created` (answered 2xx; `id` of the record made), `recovered` (an
 * earlier attempt had landed: found by the duplicate check), `refused` (answered 4xx or an assertion failed:
 * `http` and `message`), `failed` (no answer, or a value could not be resolved; nothing is known to have landed),
 * `skipped` (invalid, `--skip-invalid`), `unknown` (a write may have landed and cannot be checked: `message` says
 * what to check), `changed` (its values changed since the journal was written: not sent), `cancelled` (the run was
 * cancelled after some of its requests: left for `--resume`), `conflict` (its record is stored already with other
 * values, found by the duplicate check: a real refusal, `message` shows both values).
 */
export type RowStatus = EndStatus | 'changed' | 'cancelled';

/** The outcome of one row. */
export interface RowResult {
  readonly row: number;
  readonly line: number;
  /** What the journal knows the row by (rowKey.ts): `invoiceNumber INV-1`, or `values <hash>`. */
  readonly key?: string;
  readonly status: RowStatus;
  /** Id of the record created or found (the last write's answer `id`/`_id`). */
  readonly id?: string;
  /** HTTP status of the answer that decided the outcome. */
  readonly http?: number;
  readonly message?: string;
  /** The payload rules broken (`skipped` rows). */
  readonly problems?: readonly RowProblem[];
  readonly durationMs: number;
  /** True when the row was resumed from a journal that had started it (its writes were checked before any resend). */
  readonly resumed?: boolean;
}

/** Counts of a run. `done` counts rows a journal had already ended (not sent again). */
export interface BackfillSummary {
  readonly rows: number;
  readonly invalid: number;
  readonly created: number;
  readonly recovered: number;
  readonly refused: number;
  readonly failed: number;
  readonly skipped: number;
  readonly unknown: number;
  readonly changed: number;
  readonly cancelled: number;
  readonly conflict: number;
  readonly done: number;
  /** True when nothing was sent because rows were invalid (and `skipInvalid` was not given), for a dry run, or when the run was stopped while checking. */
  readonly notSent: boolean;
  /** True when the run was stopped (`signal`) before every row ended. */
  readonly stopped: boolean;
  /** Rows this run neither sent nor found done: never started, for a stopped run (`cancelled` rows, stopped mid-row, are counted apart). */
  readonly unsent: number;
  readonly durationMs: number;
}

/** Progress after each row (for a terminal line or the editor's withProgress). */
export interface BackfillProgress {
  readonly done: number;
  readonly total: number;
  readonly failed: number;
  /** Rows per second since sending began. */
  readonly rate: number;
  /** Estimated milliseconds left, when a rate is known. */
  readonly etaMs?: number;
}

/** What a backfill reports while it goes. Calls are made after the row's journal line is on the disk. */
export interface BackfillListener {
  /** A row breaks the contract (check pass; before anything is sent). */
  onInvalidRow?(problems: readonly RowProblem[]): void;
  /** Rows counted and checked: sending begins (`total` rows, `invalid` of them invalid). */
  onChecked?(total: number, invalid: number): void;
  onRowEnd?(result: RowResult): void;
  onProgress?(progress: BackfillProgress): void;
  /** A 429 closed the shared gate for `delayMs` (every worker waits). */
  onSlowDown?(delayMs: number): void;
  /** The journal was damaged and is resumed as far as it can be proven (docs/backfills.md, A damaged journal): one sentence each. */
  onJournalRepair?(notes: readonly string[]): void;
}

/** Options of {@link runBackfill}. */
export interface BackfillOptions {
  /** The parsed flow; its requests run in order for each row. */
  readonly flow: FlowFile;
  /** The flow file's text (hashed into the journal header with its body files). */
  readonly flowText: string;
  /** Path of the flow file (for the journal's name and header). */
  readonly flowPath: string;
  /** Path of the data file (.csv, .json, .ndjson). */
  readonly dataPath: string;
  readonly environment: FlowEnvironment;
  /** Reads a body file named by `< file` relative to the flow file. */
  readonly readFile: (path: string) => Promise<string>;
  /** Outside variables (`--var`); a row's `row.<column>` values are added per row. */
  readonly variables?: Readonly<Record<string, string>>;
  /** Rows at a time (default 4, at least 1, at most 64). */
  readonly jobs?: number;
  /** Check every row, send nothing. */
  readonly dryRun?: boolean;
  /** Send the valid rows when some are invalid (the invalid ones end `skipped`). */
  readonly skipInvalid?: boolean;
  /**
   * Asked once every row is checked, when some are invalid and neither `skipInvalid` nor `dryRun` is set (the
   * editor's choice, docs/backfills.md, Checks before sending): resolves true to send the valid rows (the invalid ones
   * end `skipped`, as with `skipInvalid`), false to send nothing. Without it nothing is sent.
   */
  readonly confirmSkipInvalid?: (total: number, invalid: number) => Promise<boolean>;
  /** Continue the journal of an earlier run. */
  readonly resume?: boolean;
  /** With `resume`: send again the writes of started rows that have no duplicate check (the user checked). */
  readonly retryUnknown?: boolean;
  /** The journal's path (default: `.tpp/runs/<flow>-<data>.jsonl` next to the data file); `false`: no journal. */
  readonly journal?: string | false;
  /** Stops taking rows (also while checking them); requests in flight finish; the journal is closed and stays resumable. */
  readonly signal?: AbortSignal;
  readonly listener?: BackfillListener;
  /** The client's limits (docs/sending.md, Limits). */
  readonly timeoutMs?: number;
  readonly retry?: Partial<RetrySettings>;
  readonly dispatcher?: Dispatcher;
  /** Hosts outside the environment that rows may send the user's values to (docs/flows.md, What a flow may do). */
  readonly hosts?: HostPolicy;
  /** Each request a row sent, with its Exchange (client/clientFor.ts hooks): the editor logs failed rows. */
  readonly onExchange?: (sent: SentReport) => void;
  /**
   * The process whose end ends this one, when one does (the `tpp run` that started its row sender,
   * cli/runnerProcess.ts): the journal's lock names it, the process the user sees (docs/backfills.md, One run at a time).
   */
  readonly launcher?: Launcher;
}
