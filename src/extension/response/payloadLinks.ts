import * as vscode from 'vscode';
import { findNodeAtLocation, parseTree, type Node } from 'jsonc-parser';

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
  const root = parseTree(doc.getText());
  let node: Node | undefined;
  for (let n = path.length; n >= 0 && !node; n--) node = root ? findNodeAtLocation(root, [...path.slice(0, n)]) : undefined;
  // A property's value: select the whole "key": value pair's value; an object or array: its opening bracket only.
  const range = node
    ? node.type === 'object' || node.type === 'array'
      ? new vscode.Range(doc.positionAt(node.offset), doc.positionAt(node.offset + 1))
      : new vscode.Range(doc.positionAt(node.offset), doc.positionAt(node.offset + node.length))
    : new vscode.Range(0, 0, 0, 0);
  const column = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString())?.viewColumn ?? vscode.ViewColumn.One;
  const editor = await vscode.window.showTextDocument(doc, { viewColumn: column, selection: range, preserveFocus: false });
  editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  return editor;
}
