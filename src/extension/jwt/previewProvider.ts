import * as vscode from 'vscode';
import { MemoryDocuments } from '../documents/memoryDocuments';

/** URI scheme of the read-only JWT preview documents. */
export const JWT_PREVIEW_SCHEME = 'tpp-jwt';

/**
 * The JWT preview as read-only virtual Markdown documents, shown rendered by VS Code's Markdown preview. Every value
 * from a token or the settings sits in a fenced code block (see renderInspectionMarkdown), so none becomes HTML: a
 * claim `<img src=x onerror=alert(1)>` shows as those characters. Keeps the last 20 previews in memory; the token
 * itself is never in them.
 */
export class JwtPreviewProvider extends MemoryDocuments {
  constructor() {
    super(JWT_PREVIEW_SCHEME, 20, '# JWT preview\n\nThis preview is no longer available: run "Tire Protection: Inspect JWT…" again.\n');
  }

  /**
   * Shows `markdown` rendered (the Markdown preview, beside the editor) under a new URI `tpp-jwt:/<n>/<title>`, titled
   * `title` (a file name ending in .md), and returns that URI. Without the built-in Markdown extension it opens the
   * source instead.
   */
  async show(title: string, markdown: string): Promise<vscode.Uri> {
    // A fresh folder per preview, not only a fresh query: the Markdown preview tells documents apart by their path
    // alone, so a second checklist of one environment under the same path would only refresh the first one.
    const uri = this.store(markdown, (seq) => `/${seq}/${title.replace(/[\\/]/g, '-')}`);
    try {
      await vscode.commands.executeCommand('markdown.showPreviewToSide', uri);
    } catch {
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Beside });
    }
    return uri;
  }
}
