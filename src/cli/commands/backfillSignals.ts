/**
 * How a backfill run stops (docs/backfills.md, Stopping a run): Ctrl+C (SIGINT, from the terminal's process group or
 * to `tpp` alone, which passes it on over the runner's IPC channel, cli/runnerProcess.ts), SIGTERM and SIGHUP all stop
 * taking rows; requests in flight finish, the journal is closed, and the run says how many rows were not sent and
 * exits {@link STOPPED_EXIT}. A second Ctrl+C stops at once: every line is with the kernel already, so the journal
 * loses nothing (rows in flight read as started, and are looked up before anything is resent).
 */
import type { CliIo } from '../io';

/** The exit code of a run stopped by a signal (128 + SIGINT, as shells report a Ctrl+C). */
export const STOPPED_EXIT = 130;

/** The message a `tpp run` sends its runner instead of a signal (cli/runnerProcess.ts). */
export interface StopMessage {
  readonly tpp: 'stop';
  readonly signal: NodeJS.Signals;
  /** The second Ctrl+C: stop at once. */
  readonly force?: boolean;
}

/** Whether an IPC message is a {@link StopMessage}. */
export function isStopMessage(m: unknown): m is StopMessage {
  return typeof m === 'object' && m !== null && (m as { tpp?: unknown }).tpp === 'stop' && typeof (m as { signal?: unknown }).signal === 'string';
}

const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** Whether writes that fail (a closed terminal, a pipe whose reader left) are made quiet in this process. */
let quieted = false;

/** What is stopping a run: the signal that did, once one did. */
export interface RunStop {
  readonly signal: AbortSignal;
  readonly by: () => NodeJS.Signals | undefined;
  /** Removes the handlers (the run ended). */
  readonly dispose: () => void;
}

/**
 * Stops the run on SIGINT, SIGTERM, SIGHUP or a {@link StopMessage}; a second SIGINT (or a forced message) exits at once.
 * Writes to a terminal that closed (SIGHUP) or a pipe whose reader left fail quietly instead of ending the process.
 */
export function stopOnSignals(io: CliIo): RunStop {
  const stop = new AbortController();
  let by: NodeJS.Signals | undefined;
  let presses = 0;
  const now = () => {
    io.stderr.write('\ntpp run: stopped at once (Ctrl+C twice): rows in flight are in the journal as started, and --resume looks them up before anything is resent.\n');
    process.exit(STOPPED_EXIT);
  };
  const onStop = (signal: NodeJS.Signals, force: boolean) => {
    if (force) now();
    if (stop.signal.aborted) return;
    by = signal;
    stop.abort(signal);
    io.stderr.write(`\ntpp run: ${signal}: stopping: no new rows are taken, requests in flight finish, then the journal is closed${signal === 'SIGINT' ? ' (Ctrl+C again stops at once)' : ''}.\n`);
  };
  const handlers = SIGNALS.map((s) => [s, () => onStop(s, s === 'SIGINT' && ++presses >= 2)] as const);
  for (const [s, f] of handlers) process.on(s, f);
  const onMessage = (m: unknown) => {
    if (isStopMessage(m)) onStop(m.signal, m.force === true);
  };
  process.on('message', onMessage);
  if (!quieted) {
    // Kept after the run: its summary is written once the handlers are gone.
    quieted = true;
    process.stdout.on('error', () => undefined);
    process.stderr.on('error', () => undefined);
  }
  return {
    signal: stop.signal,
    by: () => by,
    dispose: () => {
      for (const [s, f] of handlers) process.off(s, f);
      process.off('message', onMessage);
    },
  };
}
