import * as vscode from 'vscode';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LocalSandbox } from './localSandbox';

/** Name of the tour's terminal. */
export const TOUR_TERMINAL_NAME = 'Tire Protection: deliberate mistakes';

/**
 * The deliberate-mistakes tour (issue 13, item 4): runs the provided script (examples/mistakes/send-mistakes.mjs,
 * shipped as dist/send-mistakes.js) in a terminal, as an integrator's own application would run, against the Local
 * sandbox, so that the Integration Log explains each of its three broken requests.
 *
 * The script signs its own tokens, so it needs a private key in a file (TPP_PRIVATE_KEY_FILE). The tour never hands
 * it the Local environment's key, which stays in secret storage: it makes a throwaway P-256 key pair for a tour
 * partner (`tour-<random>`), registers its public key with the Local sandbox, and writes the private key to a
 * temporary file readable only by the user, deleted when the terminal closes or the extension stops.
 */
export class MistakesTour implements vscode.Disposable {
  private readonly dirs = new Map<vscode.Terminal, string>();
  private readonly subscription: vscode.Disposable;

  /** @param script absolute path of the tour script. */
  constructor(
    private readonly sandbox: LocalSandbox,
    private readonly script: string,
  ) {
    this.subscription = vscode.window.onDidCloseTerminal((t) => this.cleanUp(t));
  }

  /**
   * Starts the Local sandbox if needed, registers a tour partner and runs the script in a new terminal (with the
   * editor's own Node: `process.execPath`, ELECTRON_RUN_AS_NODE=1). Resolves with the terminal and the tour's Partner
   * ID. Rejects when the sandbox cannot start.
   */
  async run(): Promise<{ terminal: vscode.Terminal; partnerId: string }> {
    const info = await this.sandbox.ensureStarted();
    const partnerId = `tour-${randomBytes(3).toString('hex')}`;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    await this.sandbox.registerPartner(partnerId, publicKey.export({ type: 'spki', format: 'pem' }).toString(), partnerId);
    const dir = mkdtempSync(join(tmpdir(), 'tpp-tour-'));
    const keyFile = join(dir, 'tour-key.pem');
    writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    const terminal = vscode.window.createTerminal({
      name: TOUR_TERMINAL_NAME,
      shellPath: process.execPath,
      shellArgs: [this.script],
      env: { ELECTRON_RUN_AS_NODE: '1', TPP_BASE_URL: info.v3BaseUrl, TPP_PARTNER_ID: partnerId, TPP_PRIVATE_KEY_FILE: keyFile },
      isTransient: true,
    });
    this.dirs.set(terminal, dir);
    terminal.show(true);
    return { terminal, partnerId };
  }

  private cleanUp(terminal: vscode.Terminal): void {
    const dir = this.dirs.get(terminal);
    if (!dir) return;
    this.dirs.delete(terminal);
    rmSync(dir, { recursive: true, force: true });
  }

  dispose(): void {
    this.subscription.dispose();
    for (const dir of this.dirs.values()) rmSync(dir, { recursive: true, force: true });
    this.dirs.clear();
  }
}
