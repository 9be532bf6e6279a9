import { CHILD_EXEC_ARGV, childEnv } from '../childProcess/childProtocol';
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { ChildMessage, ChildReady, ChildRequestCall, ChildStartOptions, ParentMessage } from '../childProcess/childProtocol';
import type { SampleSummary } from './seed';
import type { EmbeddedSandboxOptions, LocalSandboxInfo, SandboxStatus } from './embeddedTypes';

export type { EmbeddedSandboxOptions, LocalSandboxInfo, SandboxState, SandboxStatus } from './embeddedTypes';

/**
 * The Local sandbox as the editor runs it: in its own process (./child.ts), forked like a language server
 * (`child_process.fork` with `process.execPath`, ELECTRON_RUN_AS_NODE=1), started lazily on first use (127.0.0.1,
 * on the chosen port, failing rather than moving when another program holds it; or a free port, then the same port
 * on restarts when it is free), with the Local environment's public key registered
 * under a generated Partner ID and data kept under a directory. When the process dies, pending requests reject at
 * once, the state becomes 'crashed' with the reason from its log, and the next use starts it again. Every request
 * has a time limit. Free of `vscode` so that it is unit-tested; the extension wraps it in LocalSandbox.
 */

/** Name segment of the Local partner in v2 paths (/v2/partners/local). */
export const LOCAL_COMPANY_NAME = 'local';

/** Lines of the process's log kept to explain a crash. */
const KEPT_LINES = 40;
/** Stack frames, Node's version banner and source excerpts: not a reason. */
const STACK_LINE = /^\s+at |^Node\.js v|^\s*\^+\s*$|^Require stack:|^- \/|^\s*[{}]\s*$|^\s+code: /;
const ERROR_LINE = /error|fatal|fail|cannot|denied|abort|ENOSPC|EACCES|EROFS|out of memory|heap/i;

interface Run {
  readonly child: ChildProcess;
  readonly ready: Promise<LocalSandboxInfo>;
  readonly pending: Map<number, { reject(err: Error): void; resolve(v: unknown): void; timer: NodeJS.Timeout }>;
  readonly lines: { text: string; error: boolean }[];
  stopping: boolean;
  /** The port asked for at start (0 = any free port). */
  port?: number;
  info?: LocalSandboxInfo;
  /** The chosen port, when the child reported it held by another program. */
  portInUse?: number;
  /**
   * The control API's admin token of this process, made at its start and held by the editor: any other program on the
   * machine (or a web page) gets 401 from `/__tpp/` unless the user copied it (docs/testing-your-application.md,
   * Security).
   */
  readonly controlToken: string;
}

export class EmbeddedSandbox {
  private run: Run | undefined;
  private current: SandboxStatus = { state: 'stopped' };
  private disposed = false;
  private nextId = 1;
  private lastPort = 0;

  constructor(private readonly opts: EmbeddedSandboxOptions) {}

  /** The running sandbox's addresses, or undefined when it is not running. */
  get info(): LocalSandboxInfo | undefined {
    return this.run?.info;
  }

  /** The process's state, with the reason when it crashed. */
  get status(): SandboxStatus {
    return this.current;
  }

  private setStatus(s: SandboxStatus): void {
    this.current = s;
    this.opts.onStateChange?.(s);
  }

  /**
   * Starts the sandbox process if it is not running (once, even when called concurrently; again after a crash or a
   * failed start) and registers the Local public key. Rejects when it cannot start (the reason is also the
   * 'crashed' status) or after {@link stop}.
   */
  async ensureStarted(): Promise<LocalSandboxInfo> {
    if (this.disposed) throw new Error('The Local sandbox has been stopped');
    this.run ??= this.spawn();
    return this.run.ready;
  }

  private spawn(): Run {
    const child = fork(this.opts.childModule, this.opts.serverModule ? ['--server', this.opts.serverModule] : [], {
      execPath: process.execPath,
      execArgv: [...CHILD_EXEC_ARGV, ...(this.opts.execArgv ?? [])],
      env: { ...childEnv(process.env), ELECTRON_RUN_AS_NODE: '1' },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    let settle!: { resolve(i: LocalSandboxInfo): void; reject(e: Error): void };
    const ready = new Promise<LocalSandboxInfo>((resolve, reject) => (settle = { resolve, reject }));
    ready.catch(() => undefined); // a failed start is reported to the callers of ensureStarted
    const run: Run = { child, ready, pending: new Map(), lines: [], stopping: false, controlToken: randomBytes(32).toString('base64url') };
    this.setStatus({ state: 'starting', pid: child.pid });

    const remember = (text: string, error: boolean) => {
      run.lines.push({ text, error: error || ERROR_LINE.test(text) });
      if (run.lines.length > KEPT_LINES) run.lines.shift();
      this.opts.log?.(error ? `stderr: ${text}` : text);
    };
    for (const [stream, error] of [[child.stdout, false], [child.stderr, true]] as const) {
      stream?.setEncoding('utf8');
      let rest = '';
      stream?.on('data', (chunk: string) => {
        const parts = (rest + chunk).split('\n');
        rest = parts.pop() ?? '';
        for (const p of parts) if (p.trim()) remember(p, error);
      });
    }
    const timer = setTimeout(() => {
      remember(`did not report ready within ${this.startTimeout / 1000} s`, true);
      child.kill('SIGKILL');
    }, this.startTimeout);

    child.on('message', (msg: ChildMessage) => {
      if (msg.type === 'log') remember(msg.line, false);
      else if (msg.type === 'exchanges') this.opts.onExchanges?.(msg.records);
      else if (msg.type === 'ready') {
        clearTimeout(timer);
        void this.onReady(run, msg).then(settle.resolve, settle.reject);
      } else if (msg.type === 'startFailed') {
        if (msg.error.name === 'PortInUse') run.portInUse = run.port;
        for (const line of `${msg.error.name}: ${msg.error.message}`.split('\n')) remember(line, true);
      } else if (msg.type === 'response') {
        const p = run.pending.get(msg.id);
        if (!p) return;
        run.pending.delete(msg.id);
        clearTimeout(p.timer);
        if (msg.ok) p.resolve(msg.result);
        else p.reject(Object.assign(new Error(msg.error.message), { name: msg.error.name }));
      }
    });
    child.on('error', (err) => remember(`process error: ${err.message}`, true));
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      const how = signal ? `killed by ${signal}` : `exited with code ${code}`;
      // A taken port is the whole story: the stack of the failed listen adds nothing.
      const reason = run.portInUse ? `port ${run.portInUse} on 127.0.0.1 is in use by another program` : this.explain(run, how);
      const err = new Error(run.stopping ? 'The Local sandbox has been stopped' : `The Local sandbox stopped: ${reason}`);
      for (const p of run.pending.values()) {
        clearTimeout(p.timer);
        p.reject(err);
      }
      run.pending.clear();
      settle.reject(run.info || run.stopping ? err : new Error(`The Local sandbox could not start: ${reason}`));
      if (this.run !== run) return;
      this.run = undefined;
      this.setStatus(run.stopping ? { state: 'stopped' } : { state: 'crashed', reason, ...(run.portInUse ? { portInUse: run.portInUse } : {}) });
    });
    this.sendStart(run);
    return run;
  }

  private get startTimeout(): number {
    return this.opts.startTimeoutMs ?? 60_000;
  }

  /** How the process ended, then its last error lines (else its last line). */
  private explain(run: Run, how: string): string {
    const errors = [...new Set(run.lines.filter((l) => l.error && !STACK_LINE.test(l.text)).map((l) => l.text.trim()))].slice(-3);
    const last = run.lines.at(-1)?.text.trim();
    const detail = errors.length ? errors.join(' | ') : last ? `last log line: ${last}` : '';
    return detail ? `${how}: ${detail}` : how;
  }

  private async onReady(run: Run, msg: ChildReady): Promise<LocalSandboxInfo> {
    const { origin, v3BaseUrl, v2BaseUrl, eligibilityBaseUrl } = msg;
    run.info = { origin, v3BaseUrl, v2BaseUrl, eligibilityBaseUrl, partnerId: this.opts.partnerId, companyName: LOCAL_COMPANY_NAME, controlToken: run.controlToken };
    this.lastPort = Number(new URL(origin).port) || 0;
    if (this.run === run) this.setStatus({ state: 'running', pid: run.child.pid });
    try {
      await this.syncKey();
    } catch (err) {
      this.opts.log?.(`Local key not registered: ${(err as Error).message}`);
    }
    return run.info;
  }

  /** Sends the start message, with the options read now (the token may have changed since the last run). */
  private sendStart(run: Run): void {
    const go = async () => {
      const chosen = this.opts.port?.() ?? 0;
      run.port = chosen > 0 ? chosen : this.lastPort;
      const options: ChildStartOptions = {
        dataDir: this.opts.dataDir, port: run.port, strictPort: chosen > 0, eligibilityToken: await this.opts.eligibilityToken?.(),
        requestLog: this.opts.onExchanges ? {} : undefined, adminToken: run.controlToken,
      };
      if (run.child.connected) run.child.send({ type: 'start', options } satisfies ParentMessage, (err) => err && this.opts.log?.(`cannot reach the Local sandbox: ${err.message}`));
    };
    go().catch((err: unknown) => {
      this.opts.log?.(`cannot start the Local sandbox: ${(err as Error).message}`);
      run.child.kill('SIGKILL');
    });
  }

  /** Starts the sandbox if needed, then {@link call}. */
  private async request<T>(call: ChildRequestCall): Promise<T> {
    await this.ensureStarted();
    const run = this.run;
    if (!run?.info) throw new Error('The Local sandbox is not running');
    return this.call<T>(run, call);
  }

  /** One request to the process of `run`; rejects on its error, its exit (at once) or after the time limit. */
  private call<T>(run: Run, call: ChildRequestCall): Promise<T> {
    if (!run.child.connected) return Promise.reject(new Error('The Local sandbox is not running'));
    const id = this.nextId++;
    const limit = (this.opts.requestTimeoutMs ?? 15_000) * (call.method === 'loadSampleData' ? 10 : 1);
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        run.pending.delete(id);
        reject(new Error(`The Local sandbox did not answer ${call.method} within ${limit / 1000} s`));
      }, limit);
      run.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
      run.child.send({ type: 'request', id, ...call } as ParentMessage, (err) => {
        if (!err || !run.pending.has(id)) return;
        // A dying process breaks the channel (EPIPE) before its exit is seen: the exit, which follows at once,
        // gives the real reason to every pending request; without one within a second, the channel's error does.
        clearTimeout(timer);
        const fallback = setTimeout(() => {
          if (run.pending.delete(id)) reject(new Error(`The Local sandbox is not reachable: ${err.message}`));
        }, 1000);
        run.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer: fallback });
      });
    });
  }

  /**
   * Re-reads the Local public key and eligibility token and registers them (after a key was generated, imported,
   * rotated or deleted). No-op while the sandbox is not running. Rejects when the key is not a supported EC key.
   */
  async syncKey(): Promise<void> {
    const run = this.run;
    if (!run?.info) return;
    const pem = await this.opts.publicKey();
    if (pem) await this.call(run, { method: 'registerPartner', params: [this.opts.partnerId, pem, LOCAL_COMPANY_NAME] });
    await this.call(run, { method: 'setEligibilityToken', params: [await this.opts.eligibilityToken?.()] });
  }

  /** Registers `spkiPem` as the Local public key (or another partner's), starting the sandbox if needed. Rejects on a bad key. */
  async registerPublicKey(spkiPem: string, partnerId = this.opts.partnerId, name = LOCAL_COMPANY_NAME): Promise<void> {
    await this.request({ method: 'registerPartner', params: [partnerId, spkiPem, name] });
  }

  /**
   * Loads sample data for the Local partner (starting the sandbox if needed). Throws when the Local environment
   * has no key pair yet (the partner must be registered to own data).
   */
  async loadSampleData(count?: number): Promise<SampleSummary> {
    await this.ensureStarted();
    const pem = await this.opts.publicKey();
    if (!pem) throw new Error('The Local environment has no key pair yet: run "Tire Protection: Generate Key Pair…" first.');
    await this.registerPublicKey(pem);
    return this.request<SampleSummary>({ method: 'loadSampleData', params: [this.opts.partnerId, count] });
  }

  /**
   * Stops the process if it runs and, when it was running, starts it again (after `tpp.local.port` changed, so that
   * it listens where the setting says). Resolves to the new addresses, or undefined when it was not running.
   */
  async restart(): Promise<LocalSandboxInfo | undefined> {
    const was = this.run;
    if (!was) return undefined;
    await this.end(was);
    if (this.run === was) this.run = undefined;
    return this.disposed ? undefined : this.ensureStarted();
  }

  /** Stops the process (disconnects, then SIGKILL after 5 s) and waits for it. Further ensureStarted calls reject. */
  async stop(): Promise<void> {
    this.disposed = true;
    const run = this.run;
    if (run) await this.end(run);
  }

  private async end(run: Run): Promise<void> {
    run.stopping = true;
    if (run.child.exitCode !== null || run.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => run.child.once('exit', () => resolve()));
    if (run.child.connected) run.child.disconnect();
    else run.child.kill('SIGTERM');
    const kill = setTimeout(() => run.child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(kill);
  }
}
