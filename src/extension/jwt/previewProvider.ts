import * as vscode from 'vscode';

/** URI scheme of the read-only JWT preview documents. */
export const JWT_PREVIEW_SCHEME = 'tpp-jwt';

/**
 * The JWT preview as read-only virtual Markdown documents (no webview: nothing is rendered as HTML, every
 * value from a token stays text). Keeps the last 20 previews in memory; the token itself is never in them.
 */
export class JwtPreviewProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  private readonly docs = new Map<string, string>();
  private readonly registration: vscode.Disposable;
  private counter = 0;
  readonly onDidChange = this.emitter.event;

  constructor() {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(JWT_PREVIEW_SCHEME, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.docs.get(uri.toString()) ?? '# JWT preview\n\nThis preview is no longer available: run "Tire Protection: Inspect JWT…" again.\n';
  }

  /** Opens `markdown` as a new read-only preview titled `title` (a file name ending in .md) and returns its URI. */
  async show(title: string, markdown: string): Promise<vscode.Uri> {
    const uri = vscode.Uri.from({ scheme: JWT_PREVIEW_SCHEME, path: `/${title.replace(/[\\/]/g, '-')}`, query: String(++this.counter) });
    this.docs.set(uri.toString(), markdown);
    while (this.docs.size > 20) this.docs.delete(this.docs.keys().next().value!);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Beside });
    return uri;
  }

  dispose(): void {
    this.registration.dispose();
    this.emitter.dispose();
    this.docs.clear();
  }
}
