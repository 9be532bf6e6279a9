import { createServer } from 'node:net';
import * as vscode from 'vscode';
import { DEFAULT_LOCAL_PORT } from '../../core/sandbox/addresses';
import { numberArg } from '../commandSupport/args';
import { defineCommand, UserCancelled } from './registry';

/** Why `text` is not a port 1..65535, or undefined when it is one. */
export function portProblem(text: string): string | undefined {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return 'Enter a port number from 1 to 65535 (digits only).';
  const n = Number(t);
  return n >= 1 && n <= 65535 ? undefined : `${t} is not a port: enter a number from 1 to 65535.`;
}

/** Resolves true when nothing listens on 127.0.0.1:`port` (a listen there succeeds and is closed at once). */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** How many ports above a taken one are tried for a free one to offer. */
const NEARBY_PORTS = 20;

/**
 * Why `text` cannot be the Local sandbox's port: not a port, or held by another program (the sandbox's own port,
 * `own`, is not another program's); the message offers a free port nearby when one of the next few is free.
 */
export async function portProblemNow(text: string, own: number): Promise<string | undefined> {
  const problem = portProblem(text);
  if (problem) return problem;
  const n = Number(text.trim());
  if (n === own || (await portIsFree(n))) return undefined;
  for (let p = n + 1; p <= Math.min(65535, n + NEARBY_PORTS); p++) {
    if (await portIsFree(p)) return `Port ${n} is in use by another program: ${p} is free (or pick "Any free port").`;
  }
  return `Port ${n} is in use by another program: enter another (or pick "Any free port").`;
}

/**
 * `tpp.setLocalPort(port?)`: sets `tpp.local.port` (user settings, application scope), the port of the Local sandbox:
 * another fixed port, the default, or 0 for any free port (which changes between sessions). A running sandbox starts
 * again on the new port. A port another program holds is refused before anything moves, with a free one nearby
 * offered. With a number argument (0..65535) no prompt is shown. Resolves to the port stored; throws on an argument
 * that is not a port or is held by another program.
 */
export const setLocalPort = defineCommand({
  id: 'tpp.setLocalPort',
  needs: ['localSandbox'],
  args: ([arg]) => ({ given: numberArg(arg) }),
  async run(services, { given }) {
    // The sandbox's own port is free to keep; any other must be free now, or the working sandbox would stop.
    const own = services.localSandbox.status.portInUse ? -1 : services.localSandbox.port;
    let port: number;
    if (given !== undefined) {
      if (!Number.isInteger(given) || given < 0 || given > 65535) throw new Error(`${given} is not a port: use 1..65535, or 0 for any free port.`);
      port = given;
      const taken = port === 0 ? undefined : await portProblemNow(String(port), own);
      if (taken) throw new Error(taken);
    } else {
      port = await ask(services.localSandbox.port, services.localSandbox.status.portInUse, own);
    }
    await services.localSandbox.setPort(port);
    const where = port === 0 ? 'any free port (the address changes when the sandbox starts again)' : `port ${port}`;
    void vscode.window.setStatusBarMessage(`Local sandbox: ${where}`, 4000);
    return port;
  },
});

async function ask(current: number, taken: number | undefined, own: number): Promise<number> {
  type Pick = vscode.QuickPickItem & { port?: number };
  const picks: Pick[] = [
    { label: '$(plug) Another port…', detail: 'A fixed port: the Local addresses stay the same in every session.' },
    { label: '$(zap) Any free port', port: 0, detail: 'Port 0: always starts, but the address changes between sessions, so an application configured for Local must follow it.' },
  ];
  if (current !== DEFAULT_LOCAL_PORT) picks.push({ label: `$(history) Default port ${DEFAULT_LOCAL_PORT}`, port: DEFAULT_LOCAL_PORT });
  const picked = await vscode.window.showQuickPick(picks, {
    title: 'Local sandbox port (tpp.local.port)',
    placeHolder: taken ? `Port ${taken} is in use by another program` : `Now: ${current === 0 ? 'any free port' : current}`,
  });
  if (!picked) throw new UserCancelled();
  if (picked.port !== undefined) return picked.port;
  const text = await vscode.window.showInputBox({
    title: 'Local sandbox port',
    prompt: 'A port from 1 to 65535 that no other program uses; your application then calls http://127.0.0.1:<port>/api/v3.',
    value: String(taken ? '' : current || DEFAULT_LOCAL_PORT),
    validateInput: (t) => portProblemNow(t, own),
  });
  if (text === undefined) throw new UserCancelled();
  return Number(text.trim());
}
