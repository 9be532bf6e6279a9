import * as vscode from 'vscode';
import { canDisable, diagnosePayload, kindFromFileName, specAnchor, withoutDisabled, type Problem } from '../../core/diagnostics';
import type { Logger } from '../log';

/** Diagnostic source shown in the Problems panel. */
export const DIAGNOSTIC_SOURCE = 'tpp';
/** Delay after the last keystroke before validating (the result is published well within 200 ms). */
export const DEBOUNCE_MS = 100;
/** A validation taking longer than this switches its document to "validate on save" (typing never waits). */
export const BUDGET_MS = 150;
/** Context key: the active editor's document is a payload file (the send keybinding's `when`). */
export const PAYLOAD_CONTEXT = 'tpp.isPayloadFile';
/**
 * Context key: the paths of the payload files known (open or found by the scan), for `resourcePath in tpp.payloadFiles`
 * menus. Paths, not URIs: in a remote window the workbench names a file `vscode-remote://…` where this host has `file://…`;
 * `resourcePath` is the file-system path of a file and the path of any other URI, on both sides.
 */
export const PAYLOAD_FILES_CONTEXT = 'tpp.payloadFiles';
/** Setting: warning codes not to show (`tpp.diagnostics.disabled`; errors are always shown). */
export const DISABLED_SETTING = 'diagnostics.disabled';

/** The warning codes the `tpp.diagnostics.disabled` setting turns off (unknown codes and error codes are ignored). */
export function disabledCodes(): ReadonlySet<string> {
  const v = vscode.workspace.getConfiguration('tpp').get<unknown>(DISABLED_SETTING, []);
  return new Set(Array.isArray(v) ? v.filter((c): c is string => typeof c === 'string' && canDisable(c)) : []);
}

/** Workspace files larger than this are not read by the activation scan (they are validated when opened). */
const SCAN_MAX_BYTES = 20 * 1024 * 1024;
const IGNORED_SCHEMES = new Set(['tpp', 'git', 'output', 'vscode-scm', 'vscode-settings']);

/** A published diagnostic and the problem it came from (code actions read the fix from here). */
export interface PublishedProblem {
  readonly diagnostic: vscode.Diagnostic;
  readonly problem: Problem;
}

/** Should `doc` be looked at? (JSON documents outside our own schema scheme and source control views.) */
export function isCandidate(doc: vscode.TextDocument): boolean {
  if (IGNORED_SCHEMES.has(doc.uri.scheme)) return false;
  return doc.languageId === 'json' || doc.languageId === 'jsonc' || doc.uri.path.endsWith('.json');
}

/**
 * Owns the `tpp` DiagnosticCollection: validates payload documents on open, on every edit (debounced),
 * on save, and every payload file of the workspace once after activation; clears on close and delete.
 * Documents whose validation exceeds {@link BUDGET_MS} are validated on save only, with a status bar note.
 */
export class DiagnosticsController implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection(DIAGNOSTIC_SOURCE);
  private readonly published = new Map<string, PublishedProblem[]>();
  /** Every problem found per document, before the disabled codes are left out (re-filtered on a setting change). */
  private readonly found = new Map<string, { readonly uri: vscode.Uri; readonly problems: readonly Problem[] }>();
  private disabled = disabledCodes();
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly saveOnly = new Set<string>();
  private readonly status = vscode.window.createStatusBarItem('tpp.diagnostics.saveOnly', vscode.StatusBarAlignment.Left, 50);
  private readonly disposables: vscode.Disposable[] = [];
  /** Milliseconds of the last validation per document (for tests and the status message). */
  readonly lastDurationMs = new Map<string, number>();
  /** Names of the active environment's variables for a document (`{{name}}` not among them: unknown-variable). */
  private variableNames?: (uri: vscode.Uri) => ReadonlySet<string>;
  private payloadContext: boolean | undefined;
  private filesContextTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly log: Logger,
    private readonly specUri?: vscode.Uri,
  ) {
    this.status.name = 'Tire Protection: payload validation';
    this.disposables.push(
      this.collection,
      this.status,
      vscode.workspace.onDidOpenTextDocument((d) => this.validate(d)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length > 0) this.schedule(e.document);
      }),
      vscode.workspace.onDidSaveTextDocument((d) => this.validate(d, true)),
      vscode.workspace.onDidCloseTextDocument((d) => this.clear(d.uri)),
      vscode.workspace.onDidDeleteFiles((e) => e.files.forEach((u) => this.clear(u))),
      vscode.workspace.onDidRenameFiles((e) => e.files.forEach((f) => this.clear(f.oldUri))),
      vscode.window.onDidChangeActiveTextEditor(() => this.updateStatus()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration(`tpp.${DISABLED_SETTING}`)) return;
        this.disabled = disabledCodes();
        for (const { uri, problems } of this.found.values()) this.render(uri, problems);
      }),
    );
  }

  /**
   * Makes the `{{names}}` of `tpp.variables` known to the diagnostics, and re-checks the open documents when the
   * variables or the active environment change.
   */
  useVariables(names: (uri: vscode.Uri) => ReadonlySet<string>, onDidChange: vscode.Event<void>): vscode.Disposable {
    this.variableNames = names;
    return onDidChange(() => this.validateOpenDocuments());
  }

  /** Validates every open document (after activation, see registerPayloadDiagnostics). */
  validateOpenDocuments(): void {
    for (const doc of vscode.workspace.textDocuments) this.validate(doc);
  }

  /** Problems published for `uri` with their diagnostics (empty when none). */
  problemsOf(uri: vscode.Uri): readonly PublishedProblem[] {
    return this.published.get(uri.toString()) ?? [];
  }

  /** True when `uri` is validated on save only (its validation exceeded the budget). */
  isSaveOnly(uri: vscode.Uri): boolean {
    return this.saveOnly.has(uri.toString());
  }

  private schedule(doc: vscode.TextDocument): void {
    const key = doc.uri.toString();
    if (this.saveOnly.has(key) || !isCandidate(doc)) return;
    const t = this.timers.get(key);
    if (t) clearTimeout(t);
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        if (!doc.isClosed) this.validate(doc);
      }, DEBOUNCE_MS),
    );
  }

  /** Validates an open document now (on save also when in save-only mode). */
  validate(doc: vscode.TextDocument, onSave = false): void {
    if (!isCandidate(doc)) return;
    const key = doc.uri.toString();
    if (this.saveOnly.has(key) && !onSave) return;
    const started = performance.now();
    this.publish(doc.uri, doc.getText(), doc.uri.path, doc);
    const ms = performance.now() - started;
    this.lastDurationMs.set(key, ms);
    if (ms > BUDGET_MS && !this.saveOnly.has(key)) {
      this.saveOnly.add(key);
      this.log.warn(`Validating ${doc.uri.path} took ${ms.toFixed(0)} ms (budget ${BUDGET_MS} ms): it is now validated on save only.`);
    } else if (onSave && ms < BUDGET_MS / 2 && this.saveOnly.delete(key)) {
      this.log.info(`Validating ${doc.uri.path} takes ${ms.toFixed(0)} ms again: validating while typing.`);
    }
    this.updateStatus();
  }

  /**
   * Diagnoses `text` and publishes (or clears) the diagnostics of `uri`. Never throws. `doc`, when `text` is its
   * text now, places the diagnostics with the document's own line index (the problems' ranges are then never built).
   */
  private publish(uri: vscode.Uri, text: string, fileName: string, doc?: vscode.TextDocument): void {
    let problems: readonly Problem[] | undefined;
    try {
      const variables = text.includes('{{') ? this.variableNames?.(uri) : undefined;
      problems = diagnosePayload(text, { fileName, variables })?.problems;
    } catch (err) {
      this.log.error(`Validating ${uri.path} failed`, err);
      problems = undefined;
    }
    if (!problems) {
      this.clear(uri);
      return;
    }
    // A deprecated kind is a note for whoever opens the file, not a problem of the workspace: the scan of files not
    // open leaves it out of the Problems view (docs/diagnostics.md, Every diagnostic).
    if (!doc) problems = problems.filter((p) => p.code !== 'deprecated');
    this.found.set(uri.toString(), { uri, problems });
    this.render(uri, problems, doc);
  }

  /** Publishes `problems` of `uri` without the disabled warning codes (placed by `doc` when it is the text diagnosed). */
  private render(uri: vscode.Uri, all: readonly Problem[], doc?: vscode.TextDocument): void {
    const problems = withoutDisabled(all, this.disabled);
    const items = problems.map((problem) => ({ problem, diagnostic: this.toDiagnostic(problem, doc) }));
    if (!this.published.has(uri.toString())) this.payloadFilesChanged();
    this.published.set(uri.toString(), items);
    this.collection.set(
      uri,
      items.map((i) => i.diagnostic),
    );
  }

  private toDiagnostic(p: Problem, doc?: vscode.TextDocument): vscode.Diagnostic {
    const range = doc ? new vscode.Range(doc.positionAt(p.start), doc.positionAt(p.end)) : new vscode.Range(p.range.start.line, p.range.start.character, p.range.end.line, p.range.end.character);
    const d = new vscode.Diagnostic(range, p.message, p.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning);
    d.source = DIAGNOSTIC_SOURCE;
    d.code = p.section && this.specUri ? { value: p.code, target: this.specUri.with({ fragment: specAnchor(p.section) }) } : p.code;
    if (p.code === 'deprecated') d.tags = [vscode.DiagnosticTag.Deprecated];
    if (p.code === 'unknown-property') d.tags = [vscode.DiagnosticTag.Unnecessary];
    return d;
  }

  private clear(uri: vscode.Uri): void {
    const key = uri.toString();
    const t = this.timers.get(key);
    if (t) clearTimeout(t);
    this.timers.delete(key);
    if (this.published.delete(key)) this.payloadFilesChanged();
    this.found.delete(key);
    this.saveOnly.delete(key);
    this.lastDurationMs.delete(key);
    this.collection.delete(uri);
    this.updateStatus();
  }

  /** Publishes the set of payload files as {@link PAYLOAD_FILES_CONTEXT} once a scan or a burst of opens settles. */
  private payloadFilesChanged(): void {
    if (this.filesContextTimer) return;
    this.filesContextTimer = setTimeout(() => {
      this.filesContextTimer = undefined;
      const paths = [...this.found.values()].map(({ uri }) => (uri.scheme === 'file' ? uri.fsPath : uri.path));
      void vscode.commands.executeCommand('setContext', PAYLOAD_FILES_CONTEXT, paths);
    }, 50);
  }

  private updateStatus(): void {
    const doc = vscode.window.activeTextEditor?.document;
    const key = doc?.uri.toString();
    const isPayload = key !== undefined && this.published.has(key);
    if (isPayload !== this.payloadContext) {
      this.payloadContext = isPayload;
      void vscode.commands.executeCommand('setContext', PAYLOAD_CONTEXT, isPayload);
    }
    if (key && this.saveOnly.has(key)) {
      const ms = this.lastDurationMs.get(key) ?? 0;
      this.status.text = '$(watch) TPP: validating on save';
      this.status.tooltip = `This payload file is large: validating it took ${ms.toFixed(0)} ms (budget ${BUDGET_MS} ms), so it is validated when you save it rather than while you type.`;
      this.status.show();
    } else this.status.hide();
  }

  /**
   * Validates every payload file of the workspace that is not open (activation; runs in the
   * background, one file at a time, yielding between files). Files are read only if they may be payloads.
   */
  async scanWorkspace(token?: vscode.CancellationToken): Promise<number> {
    const files = await vscode.workspace.findFiles('**/*.json', '{**/node_modules/**,**/.git/**}', 10000, token);
    let found = 0;
    for (const uri of files) {
      if (token?.isCancellationRequested) break;
      if (vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString())) continue;
      try {
        const stat = await vscode.workspace.fs.stat(uri);
        if (stat.size > SCAN_MAX_BYTES) continue;
        const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
        if (!text.includes('tpp://schemas/') && !kindFromFileName(uri.path)) continue;
        this.publish(uri, text, uri.path);
        if (this.published.has(uri.toString())) found++;
      } catch (err) {
        this.log.warn(`Could not read ${uri.path} for validation: ${err instanceof Error ? err.message : String(err)}`);
      }
      await new Promise((r) => setTimeout(r, 0));
    }
    return found;
  }

  /** Re-validates a file changed on disk that is not open in an editor. */
  async refreshFile(uri: vscode.Uri): Promise<void> {
    if (vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString())) return;
    try {
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      this.publish(uri, text, uri.path);
    } catch {
      this.clear(uri);
    }
  }

  /** Forgets a file deleted on disk. */
  forget(uri: vscode.Uri): void {
    this.clear(uri);
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    clearTimeout(this.filesContextTimer);
    for (const d of this.disposables) d.dispose();
  }
}
