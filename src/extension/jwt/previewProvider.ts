import * as vscode from 'vscode';
import { MemoryDocuments } from '../documents/memoryDocuments';

/** URI scheme of the read-only JWT preview documents. */
export const JWT_PREVIEW_SCHEME = 'tpp-jwt';

/**
 * The JWT preview as read-only virtual Markdown documents (no webview: nothing is rendered as HTML, every
 * value from a token stays text). Keeps the last 20 previews in memory; the token itself is never in them.
 */
export class JwtPreviewProvider extends MemoryDocuments {
  constructor() {
    super(JWT_PREVIEW_SCHEME, 20, '# JWT preview\n\nThis preview is no longer available: run "Tire Protection: Inspect JWT…" again.\n');
  }

  /** Opens `markdown` as a new read-only preview titled `title` (a file name ending in .md) and returns its URI. */
  async show(title: string, markdown: string): Promise<vscode.Uri> {
    const uri = this.store(markdown, () => `/${title.replace(/[\\/]/g, '-')}`, String);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Beside });
    return uri;
  }
}
