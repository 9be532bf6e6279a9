import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { EmbeddedSandbox, type LocalSandboxInfo } from '../../core/sandbox/embedded';
import type { SampleSummary } from '../../core/sandbox/seed';
import type { SandboxHandle, SandboxOptions } from '../../core/sandbox/server';
import { publicKeyPem } from '../../core/jwt/keys';
import { Logger } from '../log';
import { KeyStore, signingKeyOf } from './keyStore';

/** globalState key of the generated Partner ID of the Local environment. */
export const LOCAL_PARTNER_ID_STATE = 'tpp.local.partnerId';

/**
 * Loads the sandbox server from dist/sandbox.js, a separate bundle, so that fastify is neither in
 * dist/extension.js nor loaded at activation. The path is computed so that esbuild leaves the require alone.
 */
function loadServer(): { startSandbox(opts: SandboxOptions): Promise<SandboxHandle> } {
  const file = join(__dirname, 'sandbox.js');
  return require(file) as { startSandbox(opts: SandboxOptions): Promise<SandboxHandle> };
}

/**
 * The embedded Local sandbox of the Local environment. Nothing runs at activation: the server starts on first use
 * ({@link ensureStarted}), listens on 127.0.0.1 at a free port, keeps its data under the extension's global
 * storage, has the Local public key registered under a Partner ID generated once and kept in globalState, and
 * follows key changes of the Local environment. Disposing it stops the server.
 */
export class LocalSandbox implements vscode.Disposable {
  readonly partnerId: string;
  /** Built on first use: EmbeddedSandbox lives in dist/core.js, which activation does not load. */
  private instance: EmbeddedSandbox | undefined;
  private readonly create: () => EmbeddedSandbox;
  private readonly subscription: vscode.Disposable;

  constructor(context: vscode.ExtensionContext, keys: KeyStore, log: Logger) {
    let id = context.globalState.get<string>(LOCAL_PARTNER_ID_STATE);
    if (!id) {
      id = `local-${randomBytes(4).toString('hex')}`;
      void context.globalState.update(LOCAL_PARTNER_ID_STATE, id);
    }
    this.partnerId = id;
    const partnerId = id;
    this.create = () => new EmbeddedSandbox({
      load: loadServer,
      partnerId,
      dataDir: join(context.globalStorageUri.fsPath, 'sandbox'),
      publicKey: async () => {
        const rec = await keys.get('local');
        return rec ? publicKeyPem(signingKeyOf(rec)) : undefined;
      },
      eligibilityToken: async () => (await keys.eligibilityToken('local')) ?? undefined,
      log: (line) => log.info(`[Local sandbox] ${line}`),
    });
    this.subscription = keys.onDidChange((env) => {
      // A sandbox that has not been built yet reads the key when it starts.
      if (env === 'local' && this.instance) this.instance.syncKey().catch((err: unknown) => log.error('Local sandbox: cannot register the Local key', err));
    });
  }

  private get embedded(): EmbeddedSandbox {
    return (this.instance ??= this.create());
  }

  /** The running sandbox's addresses, or undefined when it has not started yet. */
  get info(): LocalSandboxInfo | undefined {
    return this.instance?.info;
  }

  /**
   * Starts the Local sandbox if needed and returns its v3 base address (the Local JWT `aud`), Partner ID
   * (the Local JWT `iss`) and other addresses. Rejects when it cannot start.
   */
  ensureStarted(): Promise<LocalSandboxInfo> {
    return this.embedded.ensureStarted();
  }

  /** Registers an SPKI PEM public key for the Local Partner ID (starting the sandbox if needed). */
  registerPublicKey(spkiPem: string): Promise<void> {
    return this.embedded.registerPublicKey(spkiPem);
  }

  /** Loads sample data into the Local sandbox; rejects when the Local environment has no key pair. */
  loadSampleData(): Promise<SampleSummary> {
    return this.embedded.loadSampleData();
  }

  dispose(): void {
    this.subscription.dispose();
    void this.instance?.stop();
  }
}
