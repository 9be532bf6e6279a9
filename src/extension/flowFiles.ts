import * as vscode from 'vscode';

/**
 * What tells a flow file (docs/flows-editor.md), apart from the flow services themselves: activation reads these to
 * decide whether to load the flow features (dist/flows.js) at all.
 */

/** The flow files of a workspace: `.http` (REST Client's and httpyac's extension) and `.rest`. */
export const FLOW_GLOB = '**/*.{http,rest}';
/** Folders discovery never looks into. */
export const FLOW_EXCLUDE = '**/node_modules/**';

/** True for a URI whose name ends in `.http` or `.rest`. */
export function isFlowUri(uri: vscode.Uri): boolean {
  return /\.(http|rest)$/i.test(uri.path);
}

/** Schemes of documents that are flow files (not a diff's `git:` side or an output channel). */
const FLOW_SCHEMES = new Set(['file', 'untitled', 'vscode-remote', 'vscode-vfs']);

/** True for a document of the `http` language or a flow file name (untitled documents set to HTTP included). */
export function isFlowDocument(doc: vscode.TextDocument): boolean {
  return FLOW_SCHEMES.has(doc.uri.scheme) && (doc.languageId === 'http' || isFlowUri(doc.uri));
}
