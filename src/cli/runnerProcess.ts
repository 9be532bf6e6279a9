import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { constants } from 'node:os';
import { resolve } from 'node:path';
import { dataDirectiveOf } from '../core/backfill/directive';
import { CHILD_EXEC_ARGV, childEnv } from '../core/childProcess/childProtocol';
import type { StopMessage } from './commands/backfillSignals';

/**
 * `tpp run` over a data file (docs/backfills.md, Figures: memory) sends its rows from a process of its own, started
 * with the options of the sandbox's process (CHILD_EXEC_ARGV, core/childProcess/childProtocol.ts) for the same
 * reasons. `--liftoff-only`: undici parses HTTP with llhttp compiled to WebAssembly, and V8's optimising compiler,
 * tiering that module up under a backfill's steady traffic, kept about 30 MiB of resident memory for no rate gained
 * (measured over 10,000 rows: 119 MiB with it, 90 without). `--max-semi-space-size=4 --heap-growing-percent=20`:
 * V8's default lets the semi-spaces grow to 2 × 16 MiB under that steady allocation, and the old generation grow
 * further between full collections than a run whose live data stays flat needs. V8's options cannot be set once it
 * runs, and NODE_OPTIONS, read only at start too, refuses two of them, so the command starts
 * `node <options> <tpp> run <args>` and waits for it, as `tpp sandbox` does (sandboxProcess.ts).
 *
 * Stops keep their meaning (docs/backfills.md, Stopping a run; What a stop can lose): the runner shares the terminal's
 * process group, so a Ctrl+C reaches it directly; a SIGINT, SIGTERM or SIGHUP that reaches this process is passed on
 * over the IPC channel as a stop message (commands/backfillSignals.ts), so a signal sent to `tpp` alone stops the run
 * the same way, and one the group got twice is still one stop. When the runner dies by a signal, this process says
 * which and how to continue. When this process dies, even by SIGKILL, its IPC channel closes and the runner kills
 * itself with SIGKILL at once, so that a killed `tpp run` never leaves rows being sent. The runner opens and locks
 * the journal itself, so the lock belongs to the process that writes it; the lock names this process too (its pid
 * reaches the runner as {@link LAUNCHER_ENV}), the one the user started and sees, and a run that finds the lock held
 * by a runner whose `tpp run` is gone waits for it to end (lock/fileLock.ts): "at once" is when the runner's event
 * loop sees its channel close, which on a loaded machine can be a while after the kill.
 */

/** V8 options of the process that sends a backfill's rows. */
export const RUNNER_EXEC_ARGV: readonly string[] = CHILD_EXEC_ARGV;

/** The environment variable that gives the runner the pid of the `tpp run` that started it. */
export const LAUNCHER_ENV = 'TPP_RUN_LAUNCHER';

/**
 * In the runner: the `tpp run` that started it and whose end ends it ({@link dieWithLauncher}), for the journal's
 * lock; undefined in any other process.
 */
export function launcherOf(env: NodeJS.ProcessEnv = process.env): { pid: number; what: string } | undefined {
  const pid = Number(env[LAUNCHER_ENV]);
  return process.send && process.channel && runsHere() && Number.isInteger(pid) && pid > 0 ? { pid, what: 'tpp run' } : undefined;
}

/** Whether this process runs with the runner's options. */
export function runsHere(execArgv: readonly string[] = process.execArgv): boolean {
  return RUNNER_EXEC_ARGV.every((flag) => execArgv.includes(flag));
}

/**
 * Whether `argv` (after `node tpp`) is a `tpp run` over a data file: `--data`, or an argument that is a readable file
 * with a `# @data` line. A miss only runs the rows in this process (more memory); it never changes what is sent.
 */
export function isDataRun(argv: readonly string[], cwd: string = process.cwd()): boolean {
  if (argv[0] !== 'run' || argv.includes('--help') || argv.includes('-h')) return false;
  return argv.slice(1).some((a) => {
    if (a === '--data' || a.startsWith('--data=')) return true;
    if (a.startsWith('-') || !/\.(http|rest)$/i.test(a)) return false;
    try {
      return dataDirectiveOf(readFileSync(resolve(cwd, a), 'utf8')) !== undefined;
    } catch {
      return false;
    }
  });
}

/**
 * Runs `tpp <argv>` in a runner process (see the module comment); resolves to its exit code, or 128 + N when signal N
 * ended it (said on stderr, with how to continue). Rejects when it cannot be started.
 */
export function runInRunner(argv: readonly string[], script: string): Promise<number> {
  const child = spawn(process.execPath, [...RUNNER_EXEC_ARGV, script, ...argv], { stdio: ['inherit', 'inherit', 'inherit', 'ipc'], env: { ...childEnv(process.env), [LAUNCHER_ENV]: String(process.pid) } });
  let sigints = 0;
  const pass = (signal: NodeJS.Signals) => () => {
    const message: StopMessage = { tpp: 'stop', signal, ...(signal === 'SIGINT' && ++sigints >= 2 ? { force: true } : {}) };
    if (child.connected) child.send(message, () => undefined);
  };
  const signals = (['SIGINT', 'SIGTERM', 'SIGHUP'] as const).map((s) => [s, pass(s)] as const);
  for (const [s, f] of signals) process.on(s, f);
  process.stderr.on('error', () => undefined); // a terminal that closed (SIGHUP)
  return new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      for (const [s, f] of signals) process.off(s, f);
      if (signal === null) return resolve(code ?? 1);
      process.stderr.write(deathMessage(child, signal, argv));
      resolve(128 + (constants.signals[signal] ?? 0));
    });
  });
}

/** What to say when the runner died by `signal`. */
function deathMessage(child: ChildProcess, signal: NodeJS.Signals, argv: readonly string[]): string {
  const journal = argv.includes('--no-journal')
    ? 'it ran without a journal, so the rows it sent cannot be told from the others: check what is stored before running it again'
    : `every row it sent is in the journal: continue with the same command and --resume (rows it had in flight are looked up before anything is resent)`;
  return `\ntpp run: the process sending the rows (pid ${child.pid ?? '?'}) was killed by ${signal}; ${journal}.\n`;
}

/**
 * In the runner (`argv`, after `node tpp`, is a `run`): dies by SIGKILL as soon as the `tpp` that started it is gone.
 * The channel keeps nothing alive. Nothing for other commands: the process serving `tpp sandbox` runs with the same
 * V8 options and an IPC channel too, and stops cleanly when its `tpp` is gone (sandboxProcess.ts, parentGone).
 */
export function dieWithLauncher(argv: readonly string[]): void {
  if (argv[0] !== 'run' || !process.send || !process.channel || !runsHere()) return;
  process.channel.unref();
  process.once('disconnect', () => process.kill(process.pid, 'SIGKILL'));
}
