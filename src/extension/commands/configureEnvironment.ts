import * as vscode from 'vscode';
import { ENVIRONMENTS, EnvironmentId } from '../../core/environments';
import { isCurve, type Curve } from '../../core/jwt/algorithms';
import type { EnvironmentStatus } from '../services/environmentModel';
import { SetupItem, SetupItemId, SETUP_ITEMS } from '../services/environmentSetup';
import { baseUrlProblem } from '../services/environmentSettings';
import type { Services } from '../container';
import { envTargetOf, fieldsArg, stringArg, flagArg, oneOfArg } from '../commandSupport/args';
import { environmentOf, uriArg } from '../commandSupport/pickEnvironment';
import { defineCommand, UserCancelled } from './registry';

/**
 * Second argument of `tpp.configureEnvironment`. Without it the flow is interactive; with values it fills those
 * items without prompts (tests, other commands), in checklist order, and returns the checklist.
 */
export interface ConfigureOptions {
  /** Run this one item's action, then return (a tree row's click). */
  readonly item?: SetupItemId;
  /** Return the checklist only: nothing is shown or changed. */
  readonly listOnly?: boolean;
  /** v3 base address to store (remote environments). */
  readonly baseUrl?: string;
  /** Partner ID to store (remote environments). */
  readonly partnerId?: string;
  /** Generate a key pair on this curve when the environment has none. */
  readonly curve?: Curve;
  /** Save the public key (SPKI PEM) to this file. */
  readonly exportTo?: vscode.Uri;
  /** Verify the connection (GET /verify-token) once the prerequisites are there. */
  readonly verify?: boolean;
}

/** The {@link ConfigureOptions} of an argument, each field decoded; others read as not given. */
function configureOptionsOf(v: unknown): ConfigureOptions {
  const o = fieldsArg(v);
  return {
    item: oneOfArg(o.item, SETUP_ITEMS),
    listOnly: flagArg(o.listOnly),
    baseUrl: stringArg(o.baseUrl),
    partnerId: stringArg(o.partnerId),
    curve: isCurve(o.curve) ? o.curve : undefined,
    exportTo: uriArg(o.exportTo),
    verify: flagArg(o.verify),
  };
}

/** What the command resolves to: the environment's checklist after the flow. */
export interface ConfigureResult {
  readonly env: EnvironmentId;
  readonly items: readonly SetupItem[];
  readonly state: EnvironmentStatus['state'];
  readonly done: boolean;
}

/** What the checklist reads and stores. */
type ConfigureServices = Pick<Services, 'environments' | 'settings' | 'keys' | 'localSandbox'>;

const ICON: Record<SetupItem['state'], string> = { done: '$(pass-filled)', missing: '$(circle-large-outline)', automatic: '$(pass)' };

async function result(services: ConfigureServices, env: EnvironmentId): Promise<ConfigureResult> {
  const s = await services.environments.status(env);
  return { env, items: s.setup, state: s.state, done: s.done };
}

/** Asks for the v3 base address (validated: http(s), ending in /api/v3) and stores it in the user settings. */
async function askBaseUrl(services: ConfigureServices, env: Exclude<EnvironmentId, 'local'>): Promise<void> {
  const label = ENVIRONMENTS[env].label;
  const value = await vscode.window.showInputBox({
    title: `Base address of ${label}`,
    prompt: `The ${label} version 3 address the administrator gave you, ending in /api/v3 (it is also the JWT aud). Kept in your user settings (tpp.${env}.baseUrl, application scope).`,
    placeHolder: 'https://partner-api.example.com/api/v3',
    value: services.settings.remote(env)?.baseUrl ?? '',
    ignoreFocusOut: true,
    validateInput: (v) => baseUrlProblem(v),
  });
  if (value === undefined) throw new UserCancelled();
  await services.settings.setBaseUrl(env, value);
}

/** Local's addresses (v3, v2, eligibility), each copied when picked, and the port choice (Set Local Port…). */
async function showLocalAddresses(services: ConfigureServices): Promise<void> {
  const sandbox = services.localSandbox;
  const a = sandbox.addresses;
  const port = sandbox.port;
  type Pick = vscode.QuickPickItem & { url?: string; setPort?: true };
  const rows: Pick[] = a
    ? [
        { label: `$(copy) ${a.v3BaseUrl}`, url: a.v3BaseUrl, description: 'v3 base address', detail: 'TPP_BASE_URL and the v3 JWT aud. Pick to copy.' },
        { label: `$(copy) ${a.v2BaseUrl}`, url: a.v2BaseUrl, description: 'v2 address', detail: 'TPP_V2_BASE_URL and the v2 JWT aud. Pick to copy.' },
        { label: `$(copy) ${a.eligibilityBaseUrl}`, url: a.eligibilityBaseUrl, description: 'eligibility address', detail: 'The retired eligibility lookup. Pick to copy.' },
      ]
    : [{ label: '$(info) Known once the sandbox starts', detail: 'tpp.local.port is 0 (any free port).' }];
  const taken = sandbox.status.portInUse;
  rows.push({ label: '$(plug) Set Local Port…', setPort: true, detail: taken ? `Port ${taken} is in use by another program: choose another port or any free port.` : `Now ${port === 0 ? 'any free port' : `port ${port}, the same in every session`} (tpp.local.port).` });
  const picked = await vscode.window.showQuickPick(rows, { title: 'Local base addresses (provided by the embedded sandbox)' });
  if (picked?.setPort) await vscode.commands.executeCommand('tpp.setLocalPort');
  else if (picked?.url) await vscode.commands.executeCommand('tpp.copyAddress', { url: picked.url });
}

/** Runs the action of one checklist item (interactive). */
async function runItem(services: ConfigureServices, env: EnvironmentId, id: SetupItemId): Promise<void> {
  const remote = env !== 'local';
  switch (id) {
    case 'baseUrl':
      if (remote) await askBaseUrl(services, env);
      else await showLocalAddresses(services);
      return;
    case 'partnerId':
      if (remote) await vscode.commands.executeCommand('tpp.setPartnerId', env);
      else void vscode.window.showInformationMessage(`Local's Partner ID is generated for the embedded sandbox: ${services.localSandbox.partnerId}.`);
      return;
    case 'key':
      await vscode.commands.executeCommand('tpp.generateKeyPair', env);
      return;
    case 'publicKeyExported': {
      if (!remote) return void vscode.window.showInformationMessage('Local registers its public key with the embedded sandbox by itself.');
      const how = await vscode.window.showQuickPick(
        [
          { label: '$(copy) Copy Public Key', id: 'tpp.copyPublicKey', detail: 'PEM on the clipboard, to paste into a message to the administrator' },
          { label: '$(save) Save Public Key…', id: 'tpp.savePublicKey', detail: 'a .pem file to attach' },
        ],
        { title: `Public key of ${ENVIRONMENTS[env].label} for the administrator` },
      );
      if (how) await vscode.commands.executeCommand(how.id, env);
      return;
    }
    case 'connection':
      await vscode.commands.executeCommand('tpp.verifyConnection', env);
      return;
  }
}

/** Fills the items given in `o` without prompts, in checklist order; verification only once the prerequisites pass. */
async function fill(services: ConfigureServices, env: EnvironmentId, o: ConfigureOptions): Promise<void> {
  if (env !== 'local' && o.baseUrl !== undefined) await services.settings.setBaseUrl(env, o.baseUrl);
  if (env !== 'local' && o.partnerId !== undefined) await services.settings.setPartnerId(env, o.partnerId.trim());
  if (o.curve && !(await services.keys.has(env))) await vscode.commands.executeCommand('tpp.generateKeyPair', env, { curve: o.curve });
  if (o.exportTo) await vscode.commands.executeCommand('tpp.savePublicKey', env, o.exportTo);
  if (o.verify && (await services.environments.status(env)).state === 'ready') await vscode.commands.executeCommand('tpp.verifyConnection', env);
}

/**
 * `tpp.configureEnvironment` (Configure Environment…; palette, the environment row, Get Started): one checklist per
 * environment that lists every item at once — base address (application-scoped setting), Partner ID, key pair, the
 * public key exported for the administrator, connection verified — each with its action; picking an item runs it
 * and the checklist comes back updated, until "Done". Spec: Base addresses; Authentication, items 2–3.
 * Resolves to {@link ConfigureResult}; throws {@link UserCancelled} when no environment is chosen.
 */
export const configureEnvironment = defineCommand({
  id: 'tpp.configureEnvironment',
  needs: ['environments', 'keys', 'localSandbox', 'settings'],
  args: ([arg, opts]) => ({ target: envTargetOf(arg), o: configureOptionsOf(opts) }),
  async run(services, { target, o }) {
    const env = await environmentOf(services.environments, target, 'Configure Environment');
    if (o.listOnly) return result(services, env);
    const given = o.baseUrl !== undefined || o.partnerId !== undefined || o.curve || o.exportTo || o.verify;
    if (given) {
      await fill(services, env, o);
      return result(services, env);
    }
    if (o.item) {
      await runItem(services, env, o.item).catch((err: unknown) => {
        if (!(err instanceof UserCancelled)) throw err;
      });
      return result(services, env);
    }
    const label = ENVIRONMENTS[env].label;
    for (;;) {
      const s = await services.environments.status(env);
      const missing = s.setup.filter((it) => it.state === 'missing');
      type Pick = vscode.QuickPickItem & { id?: SetupItemId | 'close' };
      const rows: Pick[] = SETUP_ITEMS.map((id) => s.setup.find((it) => it.id === id) as SetupItem).map((it) => ({
        id: it.id,
        label: `${ICON[it.state]} ${it.title}`,
        description: it.state === 'missing' ? 'missing — pick to set up' : it.state === 'automatic' ? 'automatic' : 'done',
        detail: it.detail,
      }));
      const close: Pick = s.done
        ? { id: 'close', label: `$(check-all) Done — ${label} is set up`, detail: 'Every item passes. Pick any item above to change it.' }
        : { id: 'close', label: '$(close) Close', detail: `${missing.length} item${missing.length === 1 ? '' : 's'} still missing: ${missing.map((it) => it.title[0]?.toLowerCase() + it.title.slice(1)).join(', ')}.` };
      const picked = await vscode.window.showQuickPick([...rows, { label: '', kind: vscode.QuickPickItemKind.Separator }, close], {
        title: s.done ? `Configure ${label}: done` : `Configure ${label}: ${s.setup.length - missing.length} of ${s.setup.length} done`,
        placeHolder: missing.length ? `Missing: ${missing.map((it) => it.title).join(' · ')}` : `${label} is ready`,
        ignoreFocusOut: true,
      });
      if (!picked || !picked.id || picked.id === 'close') return result(services, env);
      try {
        await runItem(services, env, picked.id);
      } catch (err) {
        if (!(err instanceof UserCancelled)) throw err;
      }
    }
  },
});
