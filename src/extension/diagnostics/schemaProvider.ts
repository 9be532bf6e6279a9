import * as vscode from 'vscode';
import { PAYLOAD_KINDS, jsonSchemaFor, kindFromSchemaUri } from '../../core/contract';
import { editorSchema } from '../../core/diagnostics/editorSchema';

/** URI scheme of the schemas this extension serves (`tpp://schemas/<kind>.json`). */
export const TPP_SCHEME = 'tpp';

/**
 * Serves `tpp://schemas/<kind>.json` from the contract, so that VS Code's JSON language service resolves
 * a payload's own `"$schema"` (and the `jsonValidation` contributions) offline and in untrusted
 * workspaces. The schema is the completion-and-hover variant ({@link editorSchema}); validation is ours.
 */
export class SchemaContentProvider implements vscode.TextDocumentContentProvider {
  private readonly cache = new Map<string, string>();

  provideTextDocumentContent(uri: vscode.Uri): string {
    const key = uri.toString();
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    const kind = kindFromSchemaUri(`${uri.scheme}://${uri.authority}${uri.path}`);
    const text = kind
      ? JSON.stringify({ ...(editorSchema(jsonSchemaFor(kind)) as object), title: PAYLOAD_KINDS[kind].title }, null, 2)
      : JSON.stringify({ description: `Unknown payload kind ${uri.path}. Known: ${Object.keys(PAYLOAD_KINDS).join(', ')}` });
    this.cache.set(key, text);
    return text;
  }
}

/** Registers the provider for the `tpp` scheme. */
export function registerSchemaProvider(): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(TPP_SCHEME, new SchemaContentProvider());
}
