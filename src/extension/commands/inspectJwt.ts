import * as vscode from 'vscode';
import { EnvironmentId, isEnvironmentId } from '../../core/environments';
import { JwtInspection, normalizeTokenInput } from '../../core/jwt/inspect';
import { renderInspectionMarkdown } from '../../core/jwt/report';
import type { Services } from '../container';
import { labelOf } from '../commandSupport/keys';
import { pickEnvironment } from '../commandSupport/pickEnvironment';
import { envOf } from '../commandSupport/treeArgs';
import { fieldsArg, oneOfArg, stringArg } from '../commandSupport/args';
import { defineCommand, UserCancelled } from './registry';

/** Where `tpp.inspectJwt` takes its token from. */
export type TokenSource = 'selection' | 'clipboard' | 'input' | 'mint';

/** Second argument of `tpp.inspectJwt` (skips prompts). */
export interface InspectOptions {
  readonly source?: TokenSource;
  /** The token itself, for `source: 'input'` without the input box. */
  readonly token?: string;
  /** Environment to check against (default: the first argument's, else the active one). */
  readonly env?: EnvironmentId;
  /** A note shown at the top of the preview (Verify Connection explains a 401 there). */
  readonly note?: string;
}

/** What the command returns (for tests): the preview's URI and the check outcomes; never the token. */
export interface InspectResult {
  readonly uri: string;
  readonly ok: boolean;
  readonly failed: readonly string[];
}

const TOKEN_SOURCES: readonly TokenSource[] = ['selection', 'clipboard', 'input', 'mint'];

/** The {@link InspectOptions} of an argument, each field decoded. Throws on a `source` that is none of {@link TokenSource}. */
function inspectOptionsOf(v: unknown): InspectOptions {
  const o = fieldsArg(v);
  const source = oneOfArg(o.source, TOKEN_SOURCES);
  if (o.source !== undefined && !source) throw new Error(`Unknown token source '${String(o.source)}'.`);
  return { source, token: stringArg(o.token), env: isEnvironmentId(o.env) ? o.env : undefined, note: stringArg(o.note) };
}

const LOOKS_LIKE_JWT = /^\s*(?:bearer\s+)?["']?eyJ[\w-]*\.[\w-]*\.[\w-]*/i;

/**
 * Checks `token` against `env` and opens the read-only preview (decoded header and claims, dates, checklist).
 * Shared by `tpp.inspectJwt` and `tpp.verifyConnection`.
 */
export async function showInspection(services: Pick<Services, 'jwt' | 'jwtPreview'>, env: EnvironmentId, token: string, source: string, note?: string): Promise<{ inspection: JwtInspection; uri: vscode.Uri }> {
  const inspection = await services.jwt.inspect(env, token);
  const target = await services.jwt.partialTarget(env);
  const markdown = renderInspectionMarkdown(inspection, { environment: labelOf(env), source, token, iss: target.iss, aud: target.aud, note });
  const uri = await services.jwtPreview.show(`JWT Checklist (${labelOf(env)}).md`, markdown);
  return { inspection, uri };
}

/**
 * `tpp.inspectJwt`: takes a token from the editor selection, the clipboard, an input box, or mints a fresh one,
 * and shows the decoded header and claims with the checklist of every rule of spec section Authentication,
 * checked against an environment's Partner ID, base address and public key.
 */
export const inspectJwt = defineCommand({
  id: 'tpp.inspectJwt',
  needs: ['environments', 'jwt', 'jwtPreview'],
  args: ([arg, opts]) => ({ rowEnv: envOf(arg), options: inspectOptionsOf(opts) }),
  async run(services, { rowEnv, options }) {
    const { environments } = services;
    let source = options.source;
    const selection = (() => {
      const editor = vscode.window.activeTextEditor;
      return editor && !editor.selection.isEmpty ? editor.document.getText(editor.selection) : '';
    })();
    if (!source) {
      const clip = await vscode.env.clipboard.readText();
      const items: { label: string; description?: string; source: TokenSource }[] = [];
      if (selection.trim()) items.push({ label: '$(selection) Selected Text', description: LOOKS_LIKE_JWT.test(selection) ? 'looks like a JWT' : undefined, source: 'selection' });
      items.push({ label: '$(clippy) Clipboard', description: LOOKS_LIKE_JWT.test(clip) ? 'looks like a JWT' : 'does not look like a JWT', source: 'clipboard' });
      items.push({ label: '$(edit) Paste or Type a Token…', source: 'input' });
      items.push({ label: '$(key) Mint a Fresh Token', description: 'signed with an environment’s key', source: 'mint' });
      items.sort((a, b) => Number(Boolean(b.description?.startsWith('looks'))) - Number(Boolean(a.description?.startsWith('looks'))));
      const picked = await vscode.window.showQuickPick(items, { title: 'Inspect JWT', placeHolder: 'Which token?' });
      if (!picked) throw new UserCancelled();
      source = picked.source;
    }
    const argEnv = options.env ?? rowEnv;
    let env: EnvironmentId = argEnv ?? environments.active.get();
    let token: string;
    let from: string;
    switch (source) {
      case 'selection':
        token = selection;
        from = 'the editor selection';
        break;
      case 'clipboard':
        token = await vscode.env.clipboard.readText();
        from = 'the clipboard';
        break;
      case 'input': {
        const typed =
          options.token ??
          (await vscode.window.showInputBox({ title: 'Inspect JWT', prompt: 'Paste a token (header.payload.signature); "Bearer " is ignored.', password: true, ignoreFocusOut: true }));
        if (typed === undefined) throw new UserCancelled();
        token = typed;
        from = 'input';
        break;
      }
      case 'mint':
        if (!argEnv) env = await pickEnvironment(environments, undefined, 'Mint a Fresh Token For');
        token = await services.jwt.mint(env);
        from = `a token minted for ${labelOf(env)}`;
        break;
      default:
        throw new Error(`Unknown token source '${String(source)}'.`);
    }
    if (!normalizeTokenInput(token)) throw new Error(`No token found in ${from}.`);
    if (!isEnvironmentId(env)) throw new UserCancelled();
    const { inspection, uri } = await showInspection(services, env, token, from, options.note);
    const failed = inspection.checks.filter((c) => c.status === 'fail').map((c) => c.id);
    const result: InspectResult = { uri: uri.toString(), ok: inspection.ok, failed };
    return result;
  },
});
