import * as vscode from 'vscode';
import { spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LocalSandbox } from './localSandbox';

/** Name of the tour's terminal. */
export const TOUR_TERMINAL_NAME = 'Tire Protection: deliberate mistakes';

/**
 * The mistakes tour: runs the provided script (examples/mistakes/send-mistakes.mjs,
 * shipped as dist/send-mistakes.js) in a terminal, as an integrator's own application would run, against the Local
 * sandbox, so that the Integration Log explains each of its three broken requests.
 *
 * The script signs its own tokens, so it needs a private key in a file (TPP_PRIVATE_KEY_FILE). The tour never hands
 * it the Local environment's key, which stays in secret storage: it makes a throwaway P-256 key pair for a tour
 * partner (`tour-<random>`), registers its public key with the Local sandbox, and writes the private key to a
 * temporary file readable only by the user, deleted when the terminal closes or the extension stops.
 *
 * The terminal is a pseudoterminal fed by the script's process: a terminal whose shell is the script closes the
 * moment the script ends (a second or so), so a person saw nothing happen; this one stays open with the script's
 * output and a last line saying where the explanations are, until the person closes it.
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
   * Starts the Local sandbox if needed, registers a tour partner and runs the script (with the editor's own Node:
   * `process.execPath`, ELECTRON_RUN_AS_NODE=1) in a new terminal, shown. Resolves with the terminal, the tour's
   * Partner ID and `done`, which resolves with the script's exit code once it ended. Rejects when the sandbox cannot
   * start.
   */
  async run(): Promise<{ terminal: vscode.Terminal; partnerId: string; done: Promise<number> }> {
    const info = await this.sandbox.ensureStarted();
    const partnerId = `tour-${randomBytes(3).toString('hex')}`;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    await this.sandbox.registerPartner(partnerId, publicKey.export({ type: 'spki', format: 'pem' }).toString(), partnerId);
    const dir = mkdtempSync(join(tmpdir(), 'tpp-tour-'));
    const keyFile = join(dir, 'tour-key.pem');
    writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    const env = { ...process.env, ELECTRON_RUN_AS_NODE: '1', TPP_BASE_URL: info.v3BaseUrl, TPP_PARTNER_ID: partnerId, TPP_PRIVATE_KEY_FILE: keyFile };
    const write = new vscode.EventEmitter<string>();
    let resolveDone: (code: number) => void = () => undefined;
    const done = new Promise<number>((r) => (resolveDone = r));
    let child: ReturnType<typeof spawn> | undefined;
    const pty: vscode.Pseudoterminal = {
      onDidWrite: write.event,
      open: () => {
        write.fire(`Sending three broken requests to the Local sandbox as partner ${partnerId}, as your own application would…\r\n\r\n`);
        child = spawn(process.execPath, [this.script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
        const out = (b: Buffer) => write.fire(b.toString('utf8').replace(/\r?\n/g, '\r\n'));
        child.stdout?.on('data', out);
        child.stderr?.on('data', out);
        child.on('error', (err) => {
          write.fire(`Could not run the tour script: ${err.message}\r\n`);
          resolveDone(-1);
        });
        child.on('close', (code) => {
          write.fire(`\r\nDone (exit code ${code ?? 'none'}). The Integration Log view explains each request. Close this terminal when you are done.\r\n`);
          resolveDone(code ?? -1);
        });
      },
      close: () => {
        child?.kill();
        write.dispose();
      },
    };
    const terminal = vscode.window.createTerminal({ name: TOUR_TERMINAL_NAME, pty, isTransient: true });
    this.dirs.set(terminal, dir);
    terminal.show(true);
    return { terminal, partnerId, done };
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
