import { spawn } from 'node:child_process';
import { CHILD_EXEC_ARGV, childEnv } from '../../core/childProcess/childProtocol';
import { relayUntilExit } from '../childRelay';

/**
 * `tpp sandbox` serves from a process of its own, started with the V8 options and environment of the editor's
 * sandbox process (CHILD_EXEC_ARGV, childEnv: about 100 MiB fewer resident, docs/sandbox.md, Storage). V8's options
 * cannot be set once it runs (`v8.setFlagsFromString` before PGlite compiled its WebAssembly hung it once), and Node
 * reads none of them from NODE_OPTIONS, so the command starts `node <options> <tpp> sandbox <args>` and waits for it.
 * This process only forwards signals and the exit code; the other shares its standard streams.
 *
 * On POSIX the serving process leads its own process group, so that a Ctrl+C in the terminal reaches this process
 * only, which passes it on once (twice would cut the sandbox's clean stop short). It also stops when this process
 * dies (its IPC channel closes), so that a killed `tpp` never leaves a sandbox running.
 */

/** Whether this process already runs with the serving options (`node <options> tpp sandbox`, or the spawned one). */
export function servesHere(execArgv: readonly string[] = process.execArgv): boolean {
  return CHILD_EXEC_ARGV.every((flag) => execArgv.includes(flag));
}

/**
 * Runs `tpp sandbox <args>` in a process with the serving options; resolves to its exit code (1 when a signal
 * ended it). Rejects when it cannot be started.
 */
export function respawnSandbox(args: readonly string[], script = process.argv[1] as string): Promise<number> {
  const posix = process.platform !== 'win32';
  const child = spawn(process.execPath, [...CHILD_EXEC_ARGV, script, 'sandbox', ...args], {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    env: childEnv(process.env),
    detached: posix,
  });
  // On Windows the console's Ctrl+C reaches both processes: this one only waits. A closed terminal (SIGHUP) stops
  // the sandbox cleanly, as SIGTERM does (it handles SIGINT and SIGTERM only).
  return relayUntilExit(child, posix ? 'forward' : 'ignore');
}

/**
 * In the serving process: an AbortSignal that aborts when the `tpp` process that started it goes away (its IPC
 * channel closes), or undefined when it was not started so. The channel itself never keeps this process alive.
 */
export function parentGone(): AbortSignal | undefined {
  if (!process.send || !process.channel) return undefined;
  process.channel.unref();
  const ac = new AbortController();
  process.once('disconnect', () => ac.abort());
  return ac.signal;
}
