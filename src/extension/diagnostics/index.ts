import * as vscode from 'vscode';
import type { Logger } from '../log';
import { PayloadCodeActions } from './codeActions';
import { DiagnosticsController } from './controller';
import { registerSchemaProvider } from './schemaProvider';

/**
 * Wires payload diagnostics into the editor: the `tpp` schema provider (completion and hover through
 * VS Code's JSON language service), the diagnostics controller, quick fixes, a watcher for payload files
 * changed on disk, and the background scan of the workspace's payload files. `specUri`, when given, is
 * the spec document that problem codes link to (with the section's anchor).
 */
export function registerPayloadDiagnostics(log: Logger, specUri?: vscode.Uri): { controller: DiagnosticsController; disposables: vscode.Disposable[] } {
  const controller = new DiagnosticsController(log, specUri);
  const watcher = vscode.workspace.createFileSystemWatcher('**/*.json');
  const scan = new vscode.CancellationTokenSource();
  const disposables: vscode.Disposable[] = [
    registerSchemaProvider(),
    controller,
    vscode.languages.registerCodeActionsProvider([{ language: 'json' }, { language: 'jsonc' }], new PayloadCodeActions(controller), PayloadCodeActions.metadata),
    watcher,
    watcher.onDidChange((u) => void controller.refreshFile(u)),
    watcher.onDidCreate((u) => void controller.refreshFile(u)),
    watcher.onDidDelete((u) => controller.forget(u)),
    {
      dispose: () => {
        clearTimeout(start);
        scan.cancel();
      },
    },
    scan,
  ];
  // After activation returns: activation time stays independent of open documents and the workspace's size.
  const start = setTimeout(() => {
    controller.validateOpenDocuments();
    controller.scanWorkspace(scan.token).then(
      (n) => log.info(`Payload validation: ${n} payload file(s) in the workspace checked`),
      (err) => log.error('Scanning the workspace for payload files failed', err),
    );
  }, 0);
  return { controller, disposables };
}
