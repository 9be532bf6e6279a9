import * as vscode from 'vscode';
import { ENVIRONMENTS } from '../../core/environments';
import type { WatchedEnvironment } from '../services/applicationWatch';
import { envOf } from '../commandSupport/treeArgs';
import { CommandDef, UserCancelled } from './registry';

/** The environment of an argument (tree node, id) or asked for. */
export async function watchedEnvironmentOf(arg: unknown, placeHolder: string): Promise<WatchedEnvironment> {
  // An environment id, or the Environments view's row of one (EnvironmentNode: status.info.id).
  const id = typeof arg === 'string' ? arg : envOf(arg);
  if (id === 'sandbox' || id === 'production') return id;
  const picked = await vscode.window.showQuickPick(
    (['sandbox', 'production'] as const).map((env) => ({ label: ENVIRONMENTS[env].label, env, ...(env === 'production' ? { description: 'live data' } : {}) })),
    { placeHolder },
  );
  if (!picked) throw new UserCancelled();
  return picked.env;
}

/**
 * `tpp.watchApplication`: Watch My Application on Sandbox/Production… runs `tpp proxy` in front of the environment
 * (docs/proxy.md) and says which addresses the application uses. Arguments (optional): the environment id, and
 * `{ port }` (tests).
 */
export const watchApplication: CommandDef = {
  id: 'tpp.watchApplication',
  async run({ applicationWatch }, arg?: unknown, options?: { port?: number; quiet?: boolean }) {
    const env = await watchedEnvironmentOf(arg, 'Watch your application on which environment?');
    const info = await applicationWatch.start(env, options?.port ?? 0);
    const label = env === 'production' ? 'PRODUCTION' : ENVIRONMENTS[env].label;
    const lines = `TPP_BASE_URL=${info.v3BaseUrl}\nTPP_V2_BASE_URL=${info.origin}\nTPP_AUDIENCE=${info.target}\n`;
    if (!options?.quiet) {
      const copy = 'Copy Settings';
      const choice = await vscode.window.showInformationMessage(
        `Watching your application on ${label}: point it at ${info.v3BaseUrl} and keep the token's aud at ${info.target} (TPP_AUDIENCE). Its requests appear in the Integration Log, explained.`,
        copy,
      );
      if (choice === copy) await vscode.env.clipboard.writeText(lines);
    }
    return info;
  },
};

/**
 * `tpp.stopWatchingApplication` (Stop Application Watch…): stops the proxy of an environment and says what stopped.
 * Without an argument it asks only when several environments are watched, and says so when none is. Resolves with
 * the environments stopped.
 */
export const stopWatchingApplication: CommandDef = {
  id: 'tpp.stopWatchingApplication',
  async run({ applicationWatch }, arg?: unknown) {
    const watching = applicationWatch.watching();
    const given = arg === undefined ? undefined : await watchedEnvironmentOf(arg, '');
    const env = given ?? (watching.length <= 1 ? watching[0] : await pickWatched(watching));
    const info = env ? await applicationWatch.stop(env) : undefined;
    if (!env || !info) {
      void vscode.window.showInformationMessage(`Your application was not being watched${env ? ` on ${labelOf(env)}` : ''}: nothing to stop. Watch My Application on Sandbox/Production… starts a watch.`);
      return [];
    }
    void vscode.window.showInformationMessage(`Stopped watching your application on ${labelOf(env)}: ${info.v3BaseUrl} no longer answers; point your application back at ${info.target}.`);
    return [env];
  },
};

const labelOf = (env: WatchedEnvironment) => (env === 'production' ? 'PRODUCTION' : ENVIRONMENTS[env].label);

/** Asks which of the watched environments to stop. */
async function pickWatched(watching: readonly WatchedEnvironment[]): Promise<WatchedEnvironment> {
  const picked = await vscode.window.showQuickPick(
    watching.map((env) => ({ label: labelOf(env), env })),
    { placeHolder: 'Stop watching your application on which environment?' },
  );
  if (!picked) throw new UserCancelled();
  return picked.env;
}
