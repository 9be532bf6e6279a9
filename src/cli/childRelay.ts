import type { ChildProcess } from 'node:child_process';

/**
 * Waits for a process `tpp` started to serve in its place (`tpp sandbox`, a backfill's `tpp run`), passing signals on:
 * `SIGINT` as `sigint` says (passed on, or ignored when the child gets it from the terminal itself), `SIGTERM` as it
 * is and `SIGHUP` (a closed terminal) as `SIGTERM`, each only while the child runs.
 * @returns its exit code (1 when a signal ended it); rejects when it could not be started.
 */
export function relayUntilExit(child: ChildProcess, sigint: 'forward' | 'ignore'): Promise<number> {
  const forward = (signal: NodeJS.Signals) => () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  const signals: [NodeJS.Signals, () => void][] = [
    ['SIGINT', sigint === 'forward' ? forward('SIGINT') : () => undefined],
    ['SIGTERM', forward('SIGTERM')],
    ['SIGHUP', forward('SIGTERM')],
  ];
  for (const [s, f] of signals) process.on(s, f);
  return new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      for (const [s, f] of signals) process.off(s, f);
      resolve(code ?? 1);
    });
  });
}
