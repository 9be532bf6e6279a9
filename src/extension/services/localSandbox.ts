import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { EmbeddedSandbox, type LocalSandboxInfo, type SandboxState, type SandboxStatus } from '../../core/sandbox/embedded';
import { DEFAULT_LOCAL_PORT, loopbackAddresses, type SandboxAddresses } from '../../core/sandbox/addresses';
import type { SampleSummary } from '../../core/sandbox/seed';
import type { Exchange } from '../../core/exchange/types';
import { publicKeyPem } from '../../core/jwt/keys';
import { Logger } from '../log';
import { KeyStore, signingKeyOf } from './keyStore';

export type { SandboxState, SandboxStatus };

/** globalState key of the generated Partner ID of the Local environment. */
export const LOCAL_PARTNER_ID_STATE = 'tpp.local.partnerId';

/** The setting `tpp.local.port` (machine scope: under a remote window the sandbox binds on the remote machine): a port 1..65535, or 0 for any free port. */
export const LOCAL_PORT_SETTING = 'local.port';

/** `tpp.local.port` as a port number: the default when unset or not an integer in 0..65535. */
export function configuredLocalPort(): number {
  const v = vscode.workspace.getConfiguration('tpp').get<unknown>(LOCAL_PORT_SETTING, DEFAULT_LOCAL_PORT);
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 65535 ? v : DEFAULT_LOCAL_PORT;
}

/**
 * The Local sandbox of the Local environment, in its own process: dist/sandbox-child.js, forked like a language
 * server (`process.execPath`, ELECTRON_RUN_AS_NODE=1), which loads the server (dist/sandbox.js, fastify) there, so
 * that neither the server nor a failure of it is ever in the extension host. Nothing runs at activation: the process
 * starts on first use ({@link ensureStarted}), listens on 127.0.0.1 at `tpp.local.port` (never moving elsewhere when
 * another program holds it: the status then names the port) or, with 0, at a free port; it starts again on the new
 * port when the setting changes. It keeps its data under the
 * extension's global storage (in memory when another window holds that directory), has the Local public key
 * registered under a Partner ID generated once and kept in globalState, and follows key changes of the Local
 * environment. When it dies, {@link status} is 'crashed' with the reason and the next use starts it again.
 * Disposing it stops the process.
 */
export class LocalSandbox implements vscode.Disposable {
  readonly partnerId: string;
  /** Built on first use: EmbeddedSandbox lives in dist/core.js, which activation does not load. */
  private instance: EmbeddedSandbox | undefined;
  private readonly create: () => EmbeddedSandbox;
  private readonly subscription: vscode.Disposable;
  private readonly portSubscription: vscode.Disposable;
  private readonly stateEmitter = new vscode.EventEmitter<SandboxStatus>();
  /** Fires when the process starts, runs, stops or crashes. */
  readonly onDidChangeState = this.stateEmitter.event;
  private readonly exchangesEmitter = new vscode.EventEmitter<readonly Exchange[]>();
  /** Fires with each batch of requests the sandbox answered, from any client, diagnosed and masked (Integration Log). */
  readonly onDidLogExchanges = this.exchangesEmitter.event;

  constructor(context: vscode.ExtensionContext, keys: KeyStore, log: Logger) {
    let id = context.globalState.get<string>(LOCAL_PARTNER_ID_STATE);
    if (!id) {
      id = `local-${randomBytes(4).toString('hex')}`;
      void context.globalState.update(LOCAL_PARTNER_ID_STATE, id);
    }
    this.partnerId = id;
    const partnerId = id;
    this.create = () => new EmbeddedSandbox({
      childModule: join(__dirname, 'sandbox-child.js'),
      partnerId,
      dataDir: join(context.globalStorageUri.fsPath, 'sandbox'),
      port: configuredLocalPort,
      publicKey: async () => {
        const rec = await keys.get('local');
        return rec ? publicKeyPem(signingKeyOf(rec)) : undefined;
      },
      eligibilityToken: async () => (await keys.eligibilityToken('local')) ?? undefined,
      log: (line) => log.info(`[Local sandbox] ${line}`),
      onExchanges: (records) => this.exchangesEmitter.fire(records),
      onStateChange: (s) => {
        if (s.portInUse) log.warn(`[Local sandbox] ${describeSandboxProblem(s)}`);
        else if (s.state === 'crashed') log.warn(`[Local sandbox] stopped unexpectedly (${s.reason}); it starts again on the next use of Local`);
        this.stateEmitter.fire(s);
      },
    });
    this.subscription = keys.onDidChange((env) => {
      // A sandbox that has not been built yet reads the key when it starts.
      if (env === 'local' && this.instance) this.instance.syncKey().catch((err: unknown) => log.error('Local sandbox: cannot register the Local key', err));
    });
    this.portSubscription = vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(`tpp.${LOCAL_PORT_SETTING}`) || !this.instance) return;
      const wanted = this.port;
      const running = this.info ? Number(new URL(this.info.origin).port) : undefined;
      // The event may come more than once for one change: a sandbox already where the setting says stays up.
      if (running !== undefined && (wanted === 0 || wanted === running)) return;
      // Running elsewhere: listen where the setting now says. Refused for a taken port: try the new choice at once.
      const again = this.status.portInUse ? this.instance.ensureStarted() : this.instance.restart();
      again.catch((err: unknown) => log.warn(`[Local sandbox] ${(err as Error).message}`));
    });
  }

  /** The port `tpp.local.port` asks for (0 = any free port). */
  get port(): number {
    return configuredLocalPort();
  }

  /**
   * The Local v3, v2 and eligibility addresses: the running sandbox's, else those of the chosen port (known before
   * it starts); undefined with port 0 until it runs.
   */
  get addresses(): SandboxAddresses | undefined {
    const info = this.info;
    if (info) return { origin: info.origin, v3BaseUrl: info.v3BaseUrl, v2BaseUrl: info.v2BaseUrl, eligibilityBaseUrl: info.eligibilityBaseUrl };
    return this.port > 0 ? loopbackAddresses(this.port) : undefined;
  }

  /** Stores `port` (0 = any free port) in `tpp.local.port` (user settings); the sandbox follows the change. */
  async setPort(port: number): Promise<void> {
    await vscode.workspace.getConfiguration('tpp').update(LOCAL_PORT_SETTING, port, vscode.ConfigurationTarget.Global);
  }

  private get embedded(): EmbeddedSandbox {
    return (this.instance ??= this.create());
  }

  /** The running sandbox's addresses, or undefined when it is not running. */
  get info(): LocalSandboxInfo | undefined {
    return this.instance?.info;
  }

  /** 'stopped' (not started yet), 'starting', 'running' or 'crashed' (with the reason from its log). */
  get status(): SandboxStatus {
    return this.instance?.status ?? { state: 'stopped' };
  }

  /**
   * Starts the Local sandbox if needed (again after a crash) and returns its v3 base address (the Local JWT `aud`),
   * Partner ID (the Local JWT `iss`) and other addresses. Rejects when it cannot start.
   */
  ensureStarted(): Promise<LocalSandboxInfo> {
    return this.embedded.ensureStarted();
  }

  /** Registers an SPKI PEM public key for the Local Partner ID (starting the sandbox if needed). */
  registerPublicKey(spkiPem: string): Promise<void> {
    return this.embedded.registerPublicKey(spkiPem);
  }

  /** Registers another partner's SPKI PEM public key (e.g. the mistakes tour's), starting the sandbox if needed. */
  registerPartner(partnerId: string, spkiPem: string, name = partnerId): Promise<void> {
    return this.embedded.registerPublicKey(spkiPem, partnerId, name);
  }

  /** Loads sample data into the Local sandbox; rejects when the Local environment has no key pair. */
  loadSampleData(): Promise<SampleSummary> {
    return this.embedded.loadSampleData();
  }

  dispose(): void {
    this.subscription.dispose();
    this.portSubscription.dispose();
    this.stateEmitter.dispose();
    this.exchangesEmitter.dispose();
    void this.instance?.stop();
  }
}

/** One line for the Local row and the status bar: undefined while nothing is wrong. */
export function describeSandboxProblem(status: SandboxStatus): string | undefined {
  if (status.state === 'crashed' && status.portInUse) {
    return `Local port ${status.portInUse} is in use by another program (perhaps the Local sandbox of another VS Code window), so the Local sandbox did not start: it never moves to another port by itself. Choose another port, or any free port: Tire Protection: Set Local Port….`;
  }
  return status.state === 'crashed' ? `Local sandbox crashed: ${status.reason ?? 'no reason logged'}. It starts again on the next use of Local.` : undefined;
}
