import * as vscode from 'vscode';
import { isAbortError } from '../../core/client/errors';
import { PayloadRefused } from '../../core/client/route';
import type { Services } from '../container';
import { SendRefused } from '../send/payloadSend';
import { UserCancelled } from '../services/userCancelled';

export { UserCancelled };

/**
 * A command: its id (`tpp.<verb><Noun>`, as in package.json) and its handler. `args` are what VS Code passes: a row of
 * a view (decoded by commandSupport/treeArgs.ts), an environment id, a URI, or options from a test or another command.
 */
export interface CommandDef {
  readonly id: string;
  run(services: Services, ...args: unknown[]): unknown;
}


/**
 * A send refused because of the file (errors in the Problems panel, broken JSON): an ordinary outcome, logged as one
 * info line naming the file and each problem, without a stack, and shown with a way to the problems.
 */
function refused(services: Services, err: PayloadRefused): undefined {
  services.log.info([err.message, ...err.problems.map((p) => `  ${p}`)].join('\n'));
  const anyway = err instanceof SendRefused ? err.sendAnyway : undefined;
  void vscode.window.showWarningMessage(err.message, 'Show Problems', ...(anyway ? ['Send Anyway'] : [])).then((choice) => {
    if (choice === 'Send Anyway') void anyway?.();
    else if (choice) void vscode.commands.executeCommand('workbench.actions.view.problems');
  });
  return undefined;
}

function isCancellation(err: unknown): boolean {
  return err instanceof UserCancelled || err instanceof vscode.CancellationError || isAbortError(err);
}

/**
 * Runs one command with the one wrapper every command has: an error is logged (masked) and shown as an error
 * message with a "Show Extension Log" button; a refused payload is an info line and a warning; a cancellation is silent.
 * Resolves to what the command resolved to, or `undefined` when it failed or was cancelled.
 */
export async function runCommand(services: Services, def: CommandDef, args: readonly unknown[]): Promise<unknown> {
  try {
    return await def.run(services, ...args);
  } catch (err) {
    if (isCancellation(err)) return undefined;
    if (err instanceof PayloadRefused) return refused(services, err);
    services.log.error(`Command ${def.id} failed`, err);
    const message = err instanceof Error ? err.message : String(err);
    void vscode.window.showErrorMessage(message, 'Show Extension Log').then((choice) => {
      if (choice) services.log.show();
    });
    return undefined;
  }
}
