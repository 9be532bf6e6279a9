import { fork, type ChildProcess } from 'node:child_process';
import type { Exchange } from '../exchange/types';
import type { ChildError } from '../childProcess/childProtocol';
import type { ProxyOptions } from './proxyServer';

/**
 * The editor's side of Watch My Application (docs/proxy.md): runs `tpp proxy` in a process of its own
 * (./child.ts, dist/proxy-child.js), forked like the Local sandbox's with `process.execPath` and
 * ELECTRON_RUN_AS_NODE=1, and hands its masked exchanges to `onExchanges`. Protocol below; the IPC channel is private
 * to the two processes.
 */

/** Options sent to the child (plain data: no clock). */
export type ProxyChildOptions = Omit<ProxyOptions, 'now'>;

/** Parent → child. */
export type ProxyParentMessage = { readonly type: 'start'; readonly options: ProxyChildOptions };
/** Child → parent. */
export type ProxyChildMessage =
  | { readonly type: 'ready'; readonly origin: string; readonly v3BaseUrl: string }
  | { readonly type: 'startFailed'; readonly error: ChildError }
  | { readonly type: 'exchanges'; readonly records: readonly Exchange[] };

/** How to start the child. */
export interface WatchOptions {
  /** dist/proxy-child.js (tests: src/core/proxy/child.ts with `execArgv`). */
  readonly childModule: string;
  readonly execArgv?: readonly string[];
  readonly proxy: ProxyChildOptions;
  /** Called with the exchanges of the application, oldest first. */
  readonly onExchanges: (records: readonly Exchange[]) => void;
  /** Called once when the process ends (stopped, crashed), with how. */
  readonly onExit?: (why: string) => void;
  /** Longest wait for `ready`, in milliseconds (default 30 s). */
  readonly startTimeoutMs?: number;
}

/** A running watch: the proxy's addresses and how to stop it. */
export interface RunningWatch {
  readonly origin: string;
  readonly v3BaseUrl: string;
  readonly pid: number | undefined;
  /** Ends the process (SIGTERM) and resolves when it has exited. */
  stop(): Promise<void>;
}

/**
 * Starts the proxy process. Rejects with the child's own message when it cannot start (a target that is not
 * https://, a taken port: ProxyConfigError's text), or when it does not report ready in time.
 */
export function startWatch(opts: WatchOptions): Promise<RunningWatch> {
  const child: ChildProcess = fork(opts.childModule, [], {
    execPath: process.execPath,
    execArgv: [...(opts.execArgv ?? [])],
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (s: string) => (stderr = (stderr + s).slice(-2000)));
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      opts.onExit?.(signal ? `stopped by ${signal}` : `exited with code ${code}`);
      resolve();
    }),
  );
  return new Promise<RunningWatch>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`The proxy did not report ready within ${(opts.startTimeoutMs ?? 30_000) / 1000} s`));
    }, opts.startTimeoutMs ?? 30_000);
    child.on('message', (msg: ProxyChildMessage) => {
      if (msg.type === 'exchanges') opts.onExchanges(msg.records);
      else if (msg.type === 'startFailed') {
        clearTimeout(timer);
        reject(new Error(msg.error.message));
      } else if (msg.type === 'ready') {
        clearTimeout(timer);
        resolve({
          origin: msg.origin,
          v3BaseUrl: msg.v3BaseUrl,
          pid: child.pid,
          stop: async () => {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
            await exited;
          },
        });
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`The proxy process ended before it was ready${stderr.trim() ? `: ${stderr.trim().split('\n').slice(-2).join(' ')}` : ''}`));
    });
    child.send({ type: 'start', options: opts.proxy } satisfies ProxyParentMessage);
  });
}
