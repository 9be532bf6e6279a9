import * as vscode from 'vscode';
import { PAYLOAD_KINDS, schemaUri, type PayloadKind } from '../../core/contract';
import { defineCommand, UserCancelled } from './registry';

/**
 * `tpp.newPayload` (New Payload…): picks a payload kind and opens a new, untitled JSON document with the
 * kind's template, which declares `"$schema": "tpp://schemas/<kind>.json"` on its first line.
 * An argument (a kind name) skips the picker. Resolves to the new document.
 */
export const newPayload = defineCommand({
  id: 'tpp.newPayload',
  needs: [],
  args: ([arg]) => ({ given: typeof arg === 'string' && Object.hasOwn(PAYLOAD_KINDS, arg) ? (arg as PayloadKind) : undefined }),
  async run(_services, { given }) {
    let kind = given;
    if (!kind) {
      const items = Object.values(PAYLOAD_KINDS).map((def) => ({
        label: def.title,
        description: def.kind,
        detail: def.deprecated ? `Deprecated: ${def.description}` : def.description,
        payloadKind: def.kind,
      }));
      const picked = await vscode.window.showQuickPick(items, { title: 'New Payload', placeHolder: 'Kind of payload', matchOnDescription: true, matchOnDetail: true });
      if (!picked) throw new UserCancelled();
      kind = picked.payloadKind;
    }
    const { $schema: _drop, ...rest } = PAYLOAD_KINDS[kind].template;
    const content = JSON.stringify({ $schema: schemaUri(kind), ...rest }, null, 2) + '\n';
    const doc = await vscode.workspace.openTextDocument({ language: 'json', content });
    await vscode.window.showTextDocument(doc);
    return doc;
  },
});
