import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension/extension';

export const EXTENSION_ID = 'tpp-toolkit.tire-protection-partner-toolkit';

/**
 * Activates the extension under test and returns its API (fails the test if activation throws).
 * The full API is returned only under a test runner (ExtensionMode.Test), which is how these suites run.
 */
export async function activateExtension(): Promise<ExtensionApi> {
  const ext = vscode.extensions.getExtension<ExtensionApi>(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not installed in this host`);
  return ext.activate();
}
