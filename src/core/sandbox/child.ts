import { join } from 'node:path';
import type { SandboxHandle, SandboxOptions } from './server';
import { childErrorOf, exchangePusher, sendToParent, type ChildMessage, type ChildStartOptions, type ParentMessage } from '../childProcess/childProtocol';

/**
 * Entry of the Local sandbox's own process (dist/sandbox-child.js), forked by the editor like a language server
 * (`child_process.fork` with `process.execPath` and ELECTRON_RUN_AS_NODE=1), so that a sandbox failure can never take
 * the extension host down. Protocol: ./childProtocol.ts. The server module (dist/sandbox.js, or the path after
 * `--server`) is loaded only when the parent says `start`. The process exits when the parent disconnects (the
 * editor window closed or the extension host died), after closing the server.
 */

type ServerModule = { startSandbox(opts: SandboxOptions): Promise<SandboxHandle> };

let handle: SandboxHandle | undefined;
let exiting = false;

const send = (msg: ChildMessage): void => sendToParent(msg);

const log = (line: string): void => send({ type: 'log', line });

/** Request-log entries pushed to the parent in batches. */
const pushExchange = exchangePusher();

function serverModulePath(): string {
  const i = process.argv.indexOf('--server');
  return i > 0 && process.argv[i + 1] ? (process.argv[i + 1] as string) : join(__dirname, 'sandbox.js');
}

/**
 * Starts on `port`, or on a free port when that one is taken (a restart asks for its previous port); with `strict`
 * (a port the user chose) a taken port is an error named `PortInUse` instead.
 */
async function listen(server: ServerModule, opts: SandboxOptions, strict: boolean): Promise<SandboxHandle> {
  try {
    return await server.startSandbox(opts);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || !opts.port) throw err;
    if (strict) throw Object.assign(new Error(`Port ${opts.port} on 127.0.0.1 is in use by another program`), { name: 'PortInUse' });
    return server.startSandbox({ ...opts, port: 0 });
  }
}

/**
 * What a control call without the editor's token hears (401): this is the editor's sandbox, and the two ways on
 * (docs/testing-your-application.md, Security). Here, not beside the control API: this entry stays small.
 */
const EDITOR_TOKEN_HELP =
  'This is the Local sandbox of the Tire Protection Partner Toolkit in VS Code: its control API needs the token the editor made when it started it. ' +
  "Either run 'Tire Protection: Copy Local Control Token' in VS Code and send it as Authorization: Bearer <token> (a new one after each restart of the Local sandbox), " +
  'or start a sandbox of your own for your tests: tpp sandbox --port 0 needs no token on a loopback --host (tpp docs testing).';

async function start(options: ChildStartOptions): Promise<void> {
  const server = require(serverModulePath()) as ServerModule;
  const base: SandboxOptions = { host: '127.0.0.1', port: options.port ?? 0, log, eligibilityToken: options.eligibilityToken, requestLog: options.requestLog, admin: { token: options.adminToken, tokenHelp: EDITOR_TOKEN_HELP } };
  let inMemory = !options.dataDir;
  try {
    handle = await listen(server, { ...base, dataDir: options.dataDir }, options.strictPort === true);
  } catch (err) {
    // Another window's sandbox owns the data directory: this one keeps its data in memory.
    if ((err as Error).name !== 'DataDirInUse') throw err;
    log(`${(err as Error).message}; this window's Local sandbox keeps its data in memory`);
    inMemory = true;
    handle = await listen(server, base, options.strictPort === true);
  }
  if (exiting) return;
  handle.requestLog?.subscribe(pushExchange);
  const { origin, v3BaseUrl, v2BaseUrl, eligibilityBaseUrl } = handle;
  send({ type: 'ready', origin, v3BaseUrl, v2BaseUrl, eligibilityBaseUrl, inMemory });
}

async function answer(msg: Extract<ParentMessage, { type: 'request' }>): Promise<void> {
  try {
    const h = handle;
    if (!h) throw new Error('The Local sandbox has not started');
    let result: unknown;
    if (msg.method === 'registerPartner') result = await h.registerPartner(...msg.params);
    else if (msg.method === 'setEligibilityToken') result = h.setEligibilityToken(msg.params[0]);
    else if (msg.method === 'loadSampleData') result = await h.loadSampleData(...msg.params);
    else throw new Error(`Unknown request ${(msg as { method: string }).method}`);
    send({ type: 'response', id: msg.id, ok: true, result });
  } catch (err) {
    send({ type: 'response', id: msg.id, ok: false, error: childErrorOf(err) });
  }
}

/** Closes the server (bounded: 5 s) and exits with `code`. */
async function shutdown(code: number): Promise<void> {
  if (exiting) return;
  exiting = true;
  const timer = setTimeout(() => process.exit(code), 5000);
  try {
    await handle?.close();
  } catch (err) {
    process.stderr.write(`closing the sandbox failed: ${(err as Error).message}\n`);
  }
  clearTimeout(timer);
  process.exit(code);
}

if (!process.send) {
  process.stderr.write('sandbox-child: must be started by the editor with an IPC channel (child_process.fork)\n');
  process.exit(2);
}
process.on('message', (msg: ParentMessage) => {
  if (msg.type === 'start') {
    start(msg.options).catch((err: unknown) => {
      send({ type: 'startFailed', error: childErrorOf(err) });
      process.stderr.write(`${(err as Error)?.stack ?? String(err)}\n`);
      void shutdown(1);
    });
  } else if (msg.type === 'request') {
    void answer(msg);
  }
});
process.on('disconnect', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));
