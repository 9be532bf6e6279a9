import * as vscode from 'vscode';

/** URI scheme of prefilled payload drafts (File Claim…): files kept in memory, never on disk (`tpp-draft:/<n>/<title>.json`). */
export const DRAFT_SCHEME = 'tpp-draft';

/** Idle time after an edit before a draft is written back to memory (so it is never left dirty), in milliseconds. */
const SAVE_AFTER_MS = 300;

interface Draft {
  data: Uint8Array;
  mtime: number;
}

/**
 * Prefilled payload drafts as an in-memory file system (`tpp-draft:/<n>/<title>.json`): a draft is a real document (with
 * the payload diagnostics and the Send CodeLens), written back to memory shortly after each edit so that it is never
 * left dirty, and removed when its tab is closed. A draft sent successfully stays open, to be edited and sent again (a
 * second claim, or the 409 of a claim the server refuses: spec, States and transitions). No untitled document is left
 * behind, and closing never asks to save.
 */
export class DraftFiles implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly files = new Map<string, Draft>();
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly subscriptions: vscode.Disposable[];
  private seq = 0;
  readonly onDidChangeFile = this.emitter.event;

  constructor() {
    this.subscriptions = [
      vscode.workspace.registerFileSystemProvider(DRAFT_SCHEME, this, { isCaseSensitive: true }),
      vscode.workspace.onDidChangeTextDocument((e) => this.edited(e.document)),
      vscode.window.tabGroups.onDidChangeTabs((e) => {
        for (const tab of e.closed) {
          const uri = tab.input instanceof vscode.TabInputText ? tab.input.uri : undefined;
          if (uri?.scheme === DRAFT_SCHEME && !this.tabsOf(uri).length) this.forget(uri);
        }
      }),
    ];
  }

  /** Number of drafts held in memory (tests). */
  get size(): number {
    return this.files.size;
  }

  /** Creates a draft named `title` (e.g. `Claim on INV-1042`) holding `content`, and opens it as JSON. */
  async open(title: string, content: string): Promise<vscode.TextDocument> {
    // A fresh folder per draft: the tab shows the title, and a URI is never reused (VS Code may still hold the
    // document of an earlier, closed draft).
    const path = `/${++this.seq}/${title.replace(/[/\\]/g, '-')}.json`;
    const uri = vscode.Uri.from({ scheme: DRAFT_SCHEME, path });
    this.files.set(uri.path, { data: Buffer.from(content, 'utf8'), mtime: Date.now() });
    const doc = await vscode.workspace.openTextDocument(uri);
    const json = doc.languageId === 'json' ? doc : await vscode.languages.setTextDocumentLanguage(doc, 'json');
    await vscode.window.showTextDocument(json);
    return json;
  }

  private tabsOf(uri: vscode.Uri): vscode.Tab[] {
    return vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri.toString());
  }

  /** Drops the draft (its tabs are closed: no event, which would mark an open editor as deleted). */
  private forget(uri: vscode.Uri): void {
    clearTimeout(this.timers.get(uri.path));
    this.timers.delete(uri.path);
    this.files.delete(uri.path);
  }

  /** Writes an edited draft back to memory after a short pause, so closing it never asks to save. */
  private edited(doc: vscode.TextDocument): void {
    if (doc.uri.scheme !== DRAFT_SCHEME || !this.files.has(doc.uri.path)) return;
    clearTimeout(this.timers.get(doc.uri.path));
    this.timers.set(
      doc.uri.path,
      setTimeout(() => {
        this.timers.delete(doc.uri.path);
        if (doc.isDirty && !doc.isClosed) void doc.save();
      }, SAVE_AFTER_MS),
    );
  }

  // FileSystemProvider: one flat directory of drafts.
  watch(): vscode.Disposable {
    return { dispose() {} };
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    if (uri.path === '/' || /^\/\d+$/.test(uri.path)) return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    const f = this.files.get(uri.path);
    if (!f) throw vscode.FileSystemError.FileNotFound(uri);
    return { type: vscode.FileType.File, ctime: f.mtime, mtime: f.mtime, size: f.data.byteLength };
  }

  readDirectory(uri: vscode.Uri): [string, vscode.FileType][] {
    const prefix = uri.path === '/' ? '/' : `${uri.path}/`;
    const names = [...this.files.keys()].filter((p) => p.startsWith(prefix)).map((p) => p.slice(prefix.length).split('/')[0] as string);
    return [...new Set(names)].map((n) => [n, uri.path === '/' ? vscode.FileType.Directory : vscode.FileType.File]);
  }

  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  readFile(uri: vscode.Uri): Uint8Array {
    const f = this.files.get(uri.path);
    if (!f) throw vscode.FileSystemError.FileNotFound(uri);
    return f.data;
  }

  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    const f = this.files.get(uri.path);
    // A late write-back of a draft already closed: nothing to keep.
    if (!f) return;
    // No change event: the only writer is the editor saving this very document.
    f.data = content;
    f.mtime = Date.now();
  }

  delete(uri: vscode.Uri): void {
    this.forget(uri);
  }

  rename(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    for (const s of this.subscriptions) s.dispose();
    this.emitter.dispose();
    this.files.clear();
  }
}
