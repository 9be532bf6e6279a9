import * as vscode from 'vscode';
import { isAbortError } from '../../core/client/errors';
import { PayloadRefused } from '../../core/client/route';
import type { Services } from '../container';
import { SendRefused } from '../send/payloadSend';
import { UserCancelled } from '../services/userCancelled';

export { UserCancelled };

/** A service of the container, named as its field (`history`, `api`, `environments`, …). */
export type ServiceName = keyof Services;

/**
 * A command as written: its id (`tpp.<verb><Noun>`, as in package.json), the services it uses (`needs`), the decoder
 * that turns what VS Code passes (a row of a view, an environment id, a URI, options from a test or another command)
 * into its typed arguments, once (rows: commandSupport/treeArgs.ts; fields: commandSupport/args.ts), and its handler,
 * which receives only the services it named.
 */
export interface CommandSpec<A, K extends ServiceName> {
  readonly id: string;
  readonly needs: readonly K[];
  readonly args: (raw: readonly unknown[]) => A;
  run(deps: Pick<Services, K>, args: A): unknown;
}

/** A command as the registry runs it: `run` decodes the arguments VS Code passed and hands the command its services. */
export interface CommandDef {
  readonly id: string;
  run(services: Services, raw: readonly unknown[]): unknown;
}

/** A command with its typed parts kept (`spec`), for another command that reuses its handler. */
export interface TypedCommand<A, K extends ServiceName> extends CommandDef {
  readonly spec: CommandSpec<A, K>;
}

/**
 * The services `needs` names, read from the container when used (getters: `flows` and `flowRuns` load dist/flows.js
 * on first use, which must stay lazy).
 */
function depsOf<K extends ServiceName>(services: Services, needs: readonly K[]): Pick<Services, K> {
  const deps = {} as Pick<Services, K>;
  for (const name of needs) Object.defineProperty(deps, name, { get: () => services[name], enumerable: true });
  return deps;
}

/** Makes a {@link CommandDef} of a typed command: arguments decoded by `spec.args`, services picked by `spec.needs`. */
export function defineCommand<A, K extends ServiceName = never>(spec: CommandSpec<A, K>): TypedCommand<A, K> {
  return { id: spec.id, spec, run: (services, raw) => spec.run(depsOf(services, spec.needs), spec.args(raw)) };
}

/** For a command that takes no argument. */
export const noArgs = (): Record<string, never> => ({});

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
    return await def.run(services, args);
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
