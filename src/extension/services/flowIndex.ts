import * as vscode from 'vscode';
import { parseFlow } from '../../core/flows';
import type { FlowFile } from '../../core/flows/types';
import { parseFlowFiles, unreadableFlow } from './flowDiscovery';
import { FLOW_EXCLUDE, FLOW_GLOB, isFlowDocument } from '../flowFiles';

export { FLOW_EXCLUDE, FLOW_GLOB, isFlowDocument, isFlowUri } from '../flowFiles';

/**
 * The parsed flow files of the workspace (docs/flows-editor.md), keyed by URI string. Files are found on the first
 * {@link discover} (the Test Explorer's first listing), not at activation; a FileSystemWatcher and the open
 * documents' edits keep them current, and an edit parses only the file edited. Fires {@link onDidChange} with the one
 * file re-parsed and {@link onDidDelete} with a file gone.
 */
export class FlowIndex implements vscode.Disposable {
  private readonly flows = new Map<string, FlowFile>();
  private readonly changeEmitter = new vscode.EventEmitter<vscode.Uri>();
  private readonly deleteEmitter = new vscode.EventEmitter<vscode.Uri>();
  /** A flow file was parsed again (opened, edited, saved, created, or found by discovery). */
  readonly onDidChange = this.changeEmitter.event;
  /** A flow file was deleted (or an untitled one closed). */
  readonly onDidDelete = this.deleteEmitter.event;
  private readonly subscriptions: vscode.Disposable[];
  private discovery: Promise<vscode.Uri[]> | undefined;

  constructor() {
    this.subscriptions = [
      vscode.workspace.onDidOpenTextDocument((d) => {
        if (isFlowDocument(d)) this.update(d.uri, d.getText());
      }),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length && isFlowDocument(e.document)) this.update(e.document.uri, e.document.getText());
      }),
      // A closed document may have had unsaved edits: the disk's text is the file again.
      vscode.workspace.onDidCloseTextDocument((d) => {
        if (!isFlowDocument(d)) return;
        if (d.uri.scheme === 'untitled') this.forget(d.uri);
        else if (this.flows.has(d.uri.toString())) void this.reload(d.uri);
      }),
    ];
  }

  /** The parsed file, if it was loaded. */
  get(uri: vscode.Uri | string): FlowFile | undefined {
    return this.flows.get(uri.toString());
  }

  /** URIs of the files loaded so far. */
  uris(): vscode.Uri[] {
    return [...this.flows.keys()].map((k) => vscode.Uri.parse(k));
  }

  /**
   * Every flow file of the workspace, each read (open documents first) and parsed once; later calls resolve to the
   * same list. Starts the watcher that keeps the index current.
   */
  discover(): Promise<vscode.Uri[]> {
    return (this.discovery ??= this.findAll());
  }

  private async findAll(): Promise<vscode.Uri[]> {
    const watcher = vscode.workspace.createFileSystemWatcher(FLOW_GLOB);
    this.subscriptions.push(
      watcher,
      watcher.onDidCreate((u) => void this.reload(u)),
      watcher.onDidChange((u) => {
        if (!openDocument(u)) void this.reload(u);
      }),
      watcher.onDidDelete((u) => this.forget(u)),
    );
    const found = (await vscode.workspace.findFiles(FLOW_GLOB, FLOW_EXCLUDE)).sort((a, b) => a.path.localeCompare(b.path));
    const todo = found.filter((u) => !this.flows.has(u.toString()));
    const parsed = await parseFlowFiles(todo.map(String), (f) => readText(vscode.Uri.parse(f)));
    parsed.forEach((flow, i) => this.store(todo[i]!, flow));
    return found;
  }

  /** The parsed file, read and parsed now when not loaded yet (a file that cannot be read has one error problem). */
  async load(uri: vscode.Uri): Promise<FlowFile> {
    const known = this.get(uri);
    if (known) return known;
    await this.reload(uri);
    return this.get(uri) as FlowFile;
  }

  /** Parses `text` as the content of `uri`, keeps it and fires {@link onDidChange}. */
  update(uri: vscode.Uri, text: string): FlowFile {
    const flow = parseFlow(text, uri.toString());
    this.store(uri, flow);
    return flow;
  }

  private store(uri: vscode.Uri, flow: FlowFile): void {
    this.flows.set(uri.toString(), flow);
    this.changeEmitter.fire(uri);
  }

  private async reload(uri: vscode.Uri): Promise<void> {
    let text: string;
    try {
      text = await readText(uri);
    } catch (err) {
      if (err instanceof vscode.FileSystemError && err.code === 'FileNotFound') return this.forget(uri);
      return this.store(uri, unreadableFlow(uri.toString(), err));
    }
    this.update(uri, text);
  }

  private forget(uri: vscode.Uri): void {
    if (this.flows.delete(uri.toString())) this.deleteEmitter.fire(uri);
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.changeEmitter.dispose();
    this.deleteEmitter.dispose();
  }
}

/** The open document of `uri`, if any. */
export function openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  const key = uri.toString();
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
}

/** The text of `uri`: its open document's (unsaved edits included), else the file's (UTF-8). */
export async function readText(uri: vscode.Uri): Promise<string> {
  const doc = openDocument(uri);
  if (doc) return doc.getText();
  return new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(uri));
}
