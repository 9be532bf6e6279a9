import * as vscode from 'vscode';
import { join } from 'node:path';
import { ENVIRONMENTS, type EnvironmentId } from '../../core/environments';
import { publicKeyPem } from '../../core/jwt/keys';
import { startWatch, type RunningWatch } from '../../core/proxy/watch';
import type { Logger } from '../log';
import type { EnvironmentSettings } from './environmentSettings';
import type { IntegrationLog } from './integrationLog';
import { KeyStore, signingKeyOf } from './keyStore';

/** Context key of the palette and menus: true while Watch My Application runs for any environment. */
export const WATCHING_CONTEXT_KEY = 'tpp.watchingApplication';

/** The environments an application can be watched on (Local has its own log: the sandbox's). */
export type WatchedEnvironment = Exclude<EnvironmentId, 'local'>;

/** A proxy running for one environment: where the application calls, and where it forwards. */
export interface WatchInfo {
  readonly env: WatchedEnvironment;
  /** The proxy's version 3 address (the application's TPP_BASE_URL). */
  readonly v3BaseUrl: string;
  /** The proxy's origin (the application's TPP_V2_BASE_URL, when the environment has a version 2 address). */
  readonly origin: string;
  /** The real version 3 address (the application's TPP_AUDIENCE). */
  readonly target: string;
  readonly pid: number | undefined;
}

/**
 * Watch My Application (docs/proxy.md): `tpp proxy` in front of Sandbox or Production, in a process of its own
 * (dist/proxy-child.js) like the Local sandbox, with the environment's settings (base addresses) and the public half
 * of its key pair (to check signatures). Its exchanges go into the Integration Log with their environment.
 * {@link onDidChange} fires with the environment whose watch started or stopped. Disposing stops every proxy.
 */
export class ApplicationWatch implements vscode.Disposable {
  private readonly running = new Map<WatchedEnvironment, { info: WatchInfo; run: RunningWatch }>();
  private readonly emitter = new vscode.EventEmitter<WatchedEnvironment>();
  readonly onDidChange = this.emitter.event;

  constructor(
    private readonly keys: KeyStore,
    private readonly settings: EnvironmentSettings,
    private readonly integrationLog: IntegrationLog,
    private readonly log: Logger,
    /** dist/proxy-child.js (tests may fork the source under tsx). */
    private readonly childModule = join(__dirname, 'proxy-child.js'),
  ) {}

  /** The environments watched now, in the order they started. */
  watching(): WatchedEnvironment[] {
    return [...this.running.keys()];
  }

  /** Keeps the context key of the menus and palette (`tpp.watchingApplication`: any watch running) current. */
  private changed(env: WatchedEnvironment): void {
    void vscode.commands.executeCommand('setContext', WATCHING_CONTEXT_KEY, this.running.size > 0);
    this.emitter.fire(env);
  }

  /**
   * Starts the proxy for `env` (or returns the running one).
   * @param port the proxy's port on 127.0.0.1 (0: a free one)
   * @throws Error when the environment has no base address, or the proxy cannot start (its reason: a target that is
   *   not https://, a taken port)
   */
  async start(env: WatchedEnvironment, port = 0): Promise<WatchInfo> {
    const known = this.running.get(env);
    if (known) return known.info;
    const remote = this.settings.remote(env);
    const label = ENVIRONMENTS[env].label;
    if (!remote?.baseUrl) throw new Error(`${label} has no base address yet: set it with Configure Environment, then watch your application.`);
    const v2 = this.settings.remoteExtras(env)?.v2BaseUrl || undefined;
    const record = await this.keys.get(env);
    const partners = record && remote.partnerId ? [{ id: remote.partnerId, spkiPem: publicKeyPem(signingKeyOf(record)) }] : [];
    const run = await startWatch({
      childModule: this.childModule,
      proxy: {
        target: remote.baseUrl,
        v2Target: v2,
        environment: env,
        partners,
        port,
        missingKeyHint: `generate or import the ${label} key pair (the one whose public key the administrator registered) and set its Partner ID, then watch again`,
      },
      onExchanges: (records) => this.integrationLog.add(records),
      onExit: (why) => {
        if (!this.running.has(env)) return;
        this.running.delete(env);
        this.log.warn(`[Watch ${label}] the proxy ${why}`);
        this.changed(env);
      },
    });
    const info: WatchInfo = { env, v3BaseUrl: run.v3BaseUrl, origin: run.origin, target: remote.baseUrl.replace(/\/+$/, ''), pid: run.pid };
    this.running.set(env, { info, run });
    this.log.info(`[Watch ${label}] ${info.v3BaseUrl} -> ${info.target}${partners.length ? '' : ' (no key pair: signatures are not checked)'}`);
    this.changed(env);
    return info;
  }

  /** Stops the proxy of `env`; resolves with what it was once its process has ended, undefined when none ran. */
  async stop(env: WatchedEnvironment): Promise<WatchInfo | undefined> {
    const r = this.running.get(env);
    if (!r) return undefined;
    this.running.delete(env);
    await r.run.stop();
    this.log.info(`[Watch ${ENVIRONMENTS[env].label}] stopped: ${r.info.v3BaseUrl} no longer answers`);
    this.changed(env);
    return r.info;
  }

  dispose(): void {
    for (const env of [...this.running.keys()]) void this.stop(env);
    this.emitter.dispose();
  }
}
