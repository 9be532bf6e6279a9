import * as assert from 'node:assert/strict';
import type { ExtensionApi } from '../../src/extension/extension';
import type { TreeNode } from '../../src/extension/tree/node';

/**
 * The registrations folder of an environment, found through the extension's own tree provider (a node class
 * imported into a test would be that bundle's copy, and its errors would not be the extension's classes).
 */
export async function registrationsFolder(api: ExtensionApi, env: string, product: 'tire-protection' | 'motor-club'): Promise<TreeNode> {
  const envNode = (await api.view.getChildren()).find((n) => n.toTreeItem().id === `environment:${env}`);
  assert.ok(envNode, `no ${env} row`);
  const folder = (await api.view.getChildren(envNode)).find((n) => n.toTreeItem().id === `${env}:folder:${product}`);
  assert.ok(folder, `no ${product} folder under ${env}`);
  return folder;
}

/** The rows of a registrations folder, as the view asks for them. */
export async function folderRows(api: ExtensionApi, env: string, product: 'tire-protection' | 'motor-club'): Promise<TreeNode[]> {
  return api.view.getChildren(await registrationsFolder(api, env, product));
}
