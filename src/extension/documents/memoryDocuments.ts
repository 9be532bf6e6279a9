import * as vscode from 'vscode';

/**
 * Read-only virtual documents of one URI scheme, kept in memory: the newest `limit` texts are kept,
 * older ones answer `missingText`. Base of the JWT preview, the response view and the record documents
 * (nothing is rendered as HTML: a value such as `<img src=x onerror=alert(1)>` stays those characters).
 */
export class MemoryDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  private readonly registration: vscode.Disposable;
  private seq = 0;
  readonly onDidChange = this.emitter.event;

  constructor(
    readonly scheme: string,
    private readonly limit: number,
    private readonly missingText: string,
  ) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(scheme, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string | Promise<string> {
    return this.stored(uri) ?? this.missingText;
  }

  /** The text stored for `uri`, if it is still kept. */
  protected stored(uri: vscode.Uri): string | undefined {
    return this.texts.get(uri.toString());
  }

  /**
   * Stores `text` under a new URI `<scheme>:<path>[?<query>]` and returns it; `path` and `query` get a
   * sequence number (1, 2, …) to make the URI unique.
   */
  protected store(text: string, path: (seq: number) => string, query?: (seq: number) => string): vscode.Uri {
    const seq = ++this.seq;
    const uri = vscode.Uri.from({ scheme: this.scheme, path: path(seq), ...(query ? { query: query(seq) } : {}) });
    this.texts.set(uri.toString(), text);
    while (this.texts.size > this.limit) this.texts.delete(this.texts.keys().next().value as string);
    return uri;
  }

  /** Tells VS Code to read `uri` again. */
  protected changed(uri: vscode.Uri): void {
    this.emitter.fire(uri);
  }

  dispose(): void {
    this.registration.dispose();
    this.emitter.dispose();
    this.texts.clear();
  }
}
