import * as vscode from 'vscode';
import { nearestFieldSpan } from '../../core/json/strictJson';

/**
 * Opens a payload file at a field (a 400's field problem): the value at `path` selected, or, when the field is
 * missing, the nearest enclosing object or array. The file opens in the column where it is visible, else the first.
 *
 * @param path JSON path segments of the field in the body as sent (meta properties are top-level extras of the
 *   file, so the same path applies to the file).
 * @returns the editor showing the file.
 */
export async function openFieldOfPayload(uri: vscode.Uri, path: readonly (string | number)[]): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument(uri);
  const span = nearestFieldSpan(doc.getText(), path);
  // A property's value: select the whole "key": value pair's value; an object or array: its opening bracket only.
  const range = span
    ? new vscode.Range(doc.positionAt(span.offset), doc.positionAt(span.offset + (span.container ? 1 : span.length)))
    : new vscode.Range(0, 0, 0, 0);
  const column = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString())?.viewColumn ?? vscode.ViewColumn.One;
  const editor = await vscode.window.showTextDocument(doc, { viewColumn: column, selection: range, preserveFocus: false });
  editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  return editor;
}
