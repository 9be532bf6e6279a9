import * as vscode from 'vscode';
import { ENVIRONMENTS, REMOTE_ENVIRONMENT_IDS } from '../../core/environments';
import type { WatchedEnvironment, WatchInfo } from '../services/applicationWatch';
import type { Services } from '../container';
import { envOf } from '../commandSupport/treeArgs';
import { fieldsArg, numberArg } from '../commandSupport/args';
import { defineCommand, UserCancelled } from './registry';

/** The watchable environment an argument names (an environment id, or the Environments view's row of one), else `undefined`. */
function watchableOf(arg: unknown): WatchedEnvironment | undefined {
  const id = envOf(arg);
  return (REMOTE_ENVIRONMENT_IDS as readonly string[]).includes(id ?? '') ? (id as WatchedEnvironment) : undefined;
}

/** The environment `named`, else asked for. */
export async function watchedEnvironmentOf(named: WatchedEnvironment | undefined, placeHolder: string): Promise<WatchedEnvironment> {
  if (named) return named;
  const picked = await vscode.window.showQuickPick(
    REMOTE_ENVIRONMENT_IDS.map((env) => ({ label: ENVIRONMENTS[env].label, env, ...(ENVIRONMENTS[env].caution ? { description: ENVIRONMENTS[env].caution } : {}) })),
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
export const watchApplication = defineCommand({
  id: 'tpp.watchApplication',
  needs: ['applicationWatch', 'settings'],
  args: ([arg, options]) => {
    const o = fieldsArg(options);
    return { named: watchableOf(arg), port: numberArg(o.port), quiet: o.quiet === true };
  },
  async run(services, { named, port, quiet }) {
    const { applicationWatch } = services;
    const env = await watchedEnvironmentOf(named, 'Watch your application on which environment?');
    const info = await applicationWatch.start(env, port ?? 0);
    const label = ENVIRONMENTS[env].logLabel;
    if (!quiet) {
      const copy = 'Copy Settings';
      const choice = await vscode.window.showInformationMessage(
        `Watching your application on ${label}: point it at ${info.v3BaseUrl} and keep the token's aud at ${info.target} (TPP_AUDIENCE). Its requests appear in the Integration Log, explained. Copy Settings stays on the Integration Log's title bar while the watch runs.`,
        copy,
      );
      if (choice === copy) await vscode.env.clipboard.writeText(watchSettings(services, info));
    }
    return info;
  },
});

/**
 * `tpp.stopWatchingApplication` (Stop Application Watch…): stops the proxy of an environment and says what stopped.
 * Without an argument it asks only when several environments are watched, and says so when none is. Resolves with
 * the environments stopped.
 */
export const stopWatchingApplication = defineCommand({
  id: 'tpp.stopWatchingApplication',
  needs: ['applicationWatch'],
  args: ([arg]) => ({ given: arg !== undefined, named: watchableOf(arg) }),
  async run({ applicationWatch }, { given, named }) {
    const watching = applicationWatch.watching();
    const chosen = given ? await watchedEnvironmentOf(named, '') : undefined;
    const env = chosen ?? (watching.length <= 1 ? watching[0] : await pickWatched(watching));
    const info = env ? await applicationWatch.stop(env) : undefined;
    if (!env || !info) {
      void vscode.window.showInformationMessage(`Your application was not being watched${env ? ` on ${labelOf(env)}` : ''}: nothing to stop. Watch My Application on Sandbox/Production… starts a watch.`);
      return [];
    }
    void vscode.window.showInformationMessage(`Stopped watching your application on ${labelOf(env)}: ${info.v3BaseUrl} no longer answers; point your application back at ${info.target}.`);
    return [env];
  },
});

const labelOf = (env: WatchedEnvironment) => ENVIRONMENTS[env].logLabel;

/** Asks which of the watched environments to stop. */
async function pickWatched(watching: readonly WatchedEnvironment[]): Promise<WatchedEnvironment> {
  const picked = await vscode.window.showQuickPick(
    watching.map((env) => ({ label: labelOf(env), env })),
    { placeHolder: 'Stop watching your application on which environment?' },
  );
  if (!picked) throw new UserCancelled();
  return picked.env;
}

/**
 * The settings of a watched application, as dotenv lines: the proxy's TPP_BASE_URL and TPP_V2_BASE_URL, TPP_AUDIENCE
 * (the real address the token's aud names), the environment's TPP_PARTNER_ID, and a comment on TPP_PRIVATE_KEY_FILE:
 * the editor never writes its key to a file, so the line Connect Your Application wrote is kept (docs/proxy.md).
 */
export function watchSettings(services: Pick<Services, 'settings'>, info: WatchInfo): string {
  const partnerId = services.settings.remote(info.env)?.partnerId;
  return [
    `# Watch My Application on ${labelOf(info.env)}: load this after the dotenv file of Connect Your Application (tpp-${info.env}.env by default).`,
    `TPP_BASE_URL=${info.v3BaseUrl}`,
    `TPP_V2_BASE_URL=${info.origin}`,
    `TPP_AUDIENCE=${info.target}`,
    partnerId ? `TPP_PARTNER_ID=${partnerId}` : '# TPP_PARTNER_ID: not configured yet (Configure Environment…)',
    `# TPP_PRIVATE_KEY_FILE: keep the line of that file: the key your application signs with (never written by the editor).`,
    '',
  ].join('\n');
}

/**
 * `tpp.copyWatchSettings` (Copy Watch Settings, on the Integration Log's title bar and a watched environment's row
 * while a watch runs): puts {@link watchSettings} of the watched environment on the clipboard. Without an argument
 * it asks only when several environments are watched, and says so when none is. Resolves with the text copied.
 */
export const copyWatchSettings = defineCommand({
  id: 'tpp.copyWatchSettings',
  needs: ['applicationWatch', 'settings'],
  args: ([arg]) => ({ given: arg !== undefined, named: watchableOf(arg) }),
  async run(services, { given, named }) {
    const watching = services.applicationWatch.watching();
    const chosen = given ? await watchedEnvironmentOf(named, '') : undefined;
    const env = chosen ?? (watching.length <= 1 ? watching[0] : await pickWatched(watching));
    const info = env && services.applicationWatch.info(env);
    if (!env || !info) {
      void vscode.window.showInformationMessage(`Your application is not being watched${env ? ` on ${labelOf(env)}` : ''}: Watch My Application on Sandbox/Production… starts a watch and gives its settings.`);
      return undefined;
    }
    const text = watchSettings(services, info);
    await vscode.env.clipboard.writeText(text);
    void vscode.window.showInformationMessage(`Copied the settings of your application watched on ${labelOf(env)}: TPP_BASE_URL, TPP_V2_BASE_URL, TPP_AUDIENCE and TPP_PARTNER_ID; keep TPP_PRIVATE_KEY_FILE from tpp-${env}.env.`);
    return text;
  },
});
