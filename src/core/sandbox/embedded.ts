import type { SandboxHandle, SandboxOptions } from './server';
import type { SampleSummary } from './seed';

/**
 * The Local sandbox as embedded in the editor: started lazily on first use (127.0.0.1, a free port), with the
 * Local environment's public key registered under a generated Partner ID, data kept under a directory, and
 * stopped on dispose. Free of `vscode` so that it is unit-tested; the extension wraps it in LocalSandbox.
 */

/** Addresses and identity of the running Local sandbox. */
export interface LocalSandboxInfo {
  /** e.g. http://127.0.0.1:43117 */
  readonly origin: string;
  /** origin + /api/v3: the Local base address and JWT `aud`. */
  readonly v3BaseUrl: string;
  /** The origin: the v2 base address and v2 JWT `aud`. */
  readonly v2BaseUrl: string;
  /** origin + /api/v1. */
  readonly eligibilityBaseUrl: string;
  /** The generated Partner ID of the Local environment (JWT `iss`). */
  readonly partnerId: string;
  /** The v2 {company_name} segment of the Local partner. */
  readonly companyName: string;
}

/** Options of {@link EmbeddedSandbox}. */
export interface EmbeddedSandboxOptions {
  /** Loads the server module lazily (the extension loads dist/sandbox.js; tests load ./server). */
  readonly load: () => { startSandbox(opts: SandboxOptions): Promise<SandboxHandle> };
  /** Partner ID of the Local environment. */
  readonly partnerId: string;
  /** Data directory; absent = in memory. */
  readonly dataDir?: string;
  /** The Local environment's public key (SPKI PEM), or undefined when it has no key pair yet. */
  readonly publicKey: () => Promise<string | undefined>;
  /** The Local eligibility token, if set. */
  readonly eligibilityToken?: () => Promise<string | undefined>;
  /** One line per request. */
  readonly log?: (line: string) => void;
}

/** Name segment of the Local partner in v2 paths (/v2/partners/local). */
export const LOCAL_COMPANY_NAME = 'local';

export class EmbeddedSandbox {
  private starting: Promise<SandboxHandle> | undefined;
  private handle: SandboxHandle | undefined;
  private disposed = false;

  constructor(private readonly opts: EmbeddedSandboxOptions) {}

  /** The running sandbox's addresses, or undefined when it has not been started. */
  get info(): LocalSandboxInfo | undefined {
    return this.handle ? this.infoOf(this.handle) : undefined;
  }

  private infoOf(h: SandboxHandle): LocalSandboxInfo {
    return {
      origin: h.origin,
      v3BaseUrl: h.v3BaseUrl,
      v2BaseUrl: h.v2BaseUrl,
      eligibilityBaseUrl: h.eligibilityBaseUrl,
      partnerId: this.opts.partnerId,
      companyName: LOCAL_COMPANY_NAME,
    };
  }

  /**
   * Starts the sandbox if needed (once, even when called concurrently) and registers the Local public key.
   * Rejects when the sandbox cannot start (the next call tries again) or after {@link stop}.
   */
  async ensureStarted(): Promise<LocalSandboxInfo> {
    if (this.disposed) throw new Error('The Local sandbox has been stopped');
    if (!this.starting) {
      this.starting = (async () => {
        const { startSandbox } = this.opts.load();
        const base = { host: '127.0.0.1', port: 0, log: this.opts.log, eligibilityToken: await this.opts.eligibilityToken?.() };
        let h: SandboxHandle;
        try {
          h = await startSandbox({ ...base, dataDir: this.opts.dataDir });
        } catch (err) {
          // Another window's sandbox owns the data directory: run this one in memory.
          if ((err as Error).name !== 'DataDirInUse') throw err;
          this.opts.log?.(`${(err as Error).message}; this window's Local sandbox keeps its data in memory`);
          h = await startSandbox(base);
        }
        if (this.disposed) {
          await h.close();
          throw new Error('The Local sandbox has been stopped');
        }
        this.handle = h;
        try {
          await this.syncKey();
        } catch (err) {
          this.opts.log?.(`Local key not registered: ${(err as Error).message}`);
        }
        return h;
      })();
      this.starting.catch(() => {
        this.starting = undefined;
      });
    }
    return this.infoOf(await this.starting);
  }

  /**
   * Re-reads the Local public key and eligibility token and registers them (after a key was generated, imported,
   * rotated or deleted). No-op while the sandbox is not running. Rejects when the key is not a supported EC key.
   */
  async syncKey(): Promise<void> {
    const h = this.handle;
    if (!h) return;
    const pem = await this.opts.publicKey();
    if (pem) await h.registerPartner(this.opts.partnerId, pem, LOCAL_COMPANY_NAME);
    h.setEligibilityToken(await this.opts.eligibilityToken?.());
  }

  /**
   * Registers `spkiPem` as the Local public key, starting the sandbox if needed. Rejects on a bad key.
   */
  async registerPublicKey(spkiPem: string): Promise<void> {
    await this.ensureStarted();
    await (this.handle as SandboxHandle).registerPartner(this.opts.partnerId, spkiPem, LOCAL_COMPANY_NAME);
  }

  /**
   * Loads sample data for the Local partner (starting the sandbox if needed). Throws when the Local environment
   * has no key pair yet (the partner must be registered to own data).
   */
  async loadSampleData(count?: number): Promise<SampleSummary> {
    await this.ensureStarted();
    const h = this.handle as SandboxHandle;
    const pem = await this.opts.publicKey();
    if (!pem) throw new Error('The Local environment has no key pair yet: run "Tire Protection: Generate Key Pair…" first.');
    await h.registerPartner(this.opts.partnerId, pem, LOCAL_COMPANY_NAME);
    return h.loadSampleData(this.opts.partnerId, count);
  }

  /** Stops the sandbox (waits for it to close). Further calls of ensureStarted reject. */
  async stop(): Promise<void> {
    this.disposed = true;
    const starting = this.starting;
    this.starting = undefined;
    this.handle = undefined;
    if (starting) {
      try {
        await (await starting).close();
      } catch {
        // it never started
      }
    }
  }
}
