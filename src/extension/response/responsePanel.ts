import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import type { Exchange } from '../../core/exchange/types';
import { openFieldOfPayload } from './payloadLinks';
import { completeExchange } from '../../core/exchange/complete';
import { PageMessage, prettyBody, RenderReport, toViewModel, ViewModel } from '../../core/exchange/viewModel';

/** How long {@link ResponsePanel.show} waits for the page's "rendered" message before resolving without it (ms). */
const RENDER_WAIT_MS = 5000;

/** What {@link ResponsePanel.show} resolves to. */
export interface ShownExchange {
  readonly exchange: Exchange;
  readonly model: ViewModel;
  /** Milliseconds from the call to the page's "rendered" message; absent when it did not come in time. */
  readonly renderMs?: number;
  readonly report?: RenderReport;
}

/** Options of {@link ResponsePanel.show}. */
export interface ShowOptions {
  /** The payload file the request was sent from: 400 field problems link to it. */
  readonly payloadUri?: vscode.Uri;
}

/**
 * The response view: one webview panel beside the editor, reused (revealed in its column, focus kept) for every
 * exchange shown. The page (dist/webview/response.js, built on @vscode-elements/elements) runs under a strict Content
 * Security Policy (`default-src 'none'`, one nonce-bearing script from the extension) and gets its data by
 * `postMessage`, inserting it with DOM APIs and `textContent` only, so anything a server sends is text.
 */
export class ResponsePanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private ready: Promise<void> | undefined;
  private readyResolve: (() => void) | undefined;
  private readyResolved = false;
  private current: { exchange: Exchange; model: ViewModel } | undefined;
  private readonly payloads = new Map<string, vscode.Uri>();
  /** The model to post once the page is ready (posted by whichever comes first: `show` or the page's "ready"). */
  private pending: ViewModel | undefined;
  private readonly waiting = new Map<string, (r: RenderReport) => void>();
  private readonly disposables: vscode.Disposable[] = [];
  /** The last page report (tests). */
  lastReport: RenderReport | undefined;

  constructor(private readonly extensionUri: vscode.Uri) {}

  /** The exchange on show, if the panel is open. */
  get shown(): Exchange | undefined {
    return this.panel ? this.current?.exchange : undefined;
  }

  /**
   * Shows `exchange` in the panel (created beside the active editor on first use, then revealed where it is),
   * with the description its producer gave it (400 field problems, no-answer advice; the editor's send path adds the
   * 401 JWT checklist and the 409 conflicts, services/editorDiagnosis.ts): the panel renders, it looks nothing up.
   * Resolves when the page reports it rendered (or after 5 s without the timing). Never throws for content.
   */
  async show(exchange: Exchange, opts: ShowOptions = {}): Promise<ShownExchange> {
    const started = performance.now();
    if (opts.payloadUri) this.payloads.set(exchange.id, opts.payloadUri);
    if (this.payloads.size > 200) this.payloads.delete(this.payloads.keys().next().value as string);
    const complete = completeExchange(exchange);
    const model = toViewModel(complete, { fieldLinks: this.payloads.has(exchange.id) });
    this.current = { exchange, model };
    const panel = this.ensurePanel();
    panel.title = model.status ? `${model.status.code} ${model.status.name} · ${model.envLabel}` : `No answer · ${model.envLabel}`;
    panel.reveal(panel.viewColumn, true);
    // At most RENDER_WAIT_MS in all: a page that never loads must not hold up the command that sent the request.
    const rendered = new Promise<RenderReport | undefined>((resolve) => {
      const timer = setTimeout(() => (this.waiting.delete(model.id), resolve(undefined)), RENDER_WAIT_MS);
      this.waiting.set(model.id, (r) => (clearTimeout(timer), resolve(r)));
    });
    this.pending = model;
    await Promise.race([this.ready, rendered]);
    this.postPending();
    const report = await rendered;
    return { exchange, model, ...(report ? { report, renderMs: performance.now() - started } : {}) };
  }

  private postPending(): void {
    if (!this.pending || !this.panel || !this.readyResolved) return;
    void this.panel.webview.postMessage({ type: 'show', model: this.pending });
    this.pending = undefined;
  }

  private ensurePanel(): vscode.WebviewPanel {
    if (this.panel) return this.panel;
    const roots = [vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(this.extensionUri, 'media', 'response')];
    const panel = vscode.window.createWebviewPanel('tpp.response', 'Response', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, {
      enableScripts: true,
      localResourceRoots: roots,
      retainContextWhenHidden: true,
    });
    this.panel = panel;
    this.readyResolved = false;
    this.ready = new Promise<void>((r) => (this.readyResolve = () => ((this.readyResolved = true), r())));
    // A tab icon is an image, not a mask: `currentColor` would draw it black on a dark theme. One colour per theme kind.
    panel.iconPath = { light: vscode.Uri.joinPath(this.extensionUri, 'media', 'response', 'tab-light.svg'), dark: vscode.Uri.joinPath(this.extensionUri, 'media', 'response', 'tab-dark.svg') };
    panel.webview.html = this.html(panel.webview);
    this.disposables.push(
      panel.webview.onDidReceiveMessage((m: PageMessage) => void this.onMessage(m)),
      panel.onDidDispose(() => {
        this.panel = undefined;
        this.ready = undefined;
      }),
    );
    return panel;
  }

  private html(webview: vscode.Webview): string {
    const nonce = randomBytes(16).toString('base64');
    const script = webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview', 'response.js'));
    const style = webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'media', 'response', 'response.css'));
    const csp = [`default-src 'none'`, `style-src ${webview.cspSource}`, `font-src ${webview.cspSource}`, `img-src ${webview.cspSource}`, `script-src 'nonce-${nonce}'`].join('; ');
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style.toString()}">
<title>Response</title>
</head>
<body>
<p id="announce" class="visually-hidden" role="status" aria-live="polite"></p>
<main id="root"><p class="muted">Waiting for an answer…</p></main>
<script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
  }

  /** Handles a message of the page (also called by tests to act as the page). Returns what the action produced. */
  async onMessage(m: PageMessage): Promise<unknown> {
    const cur = this.current;
    switch (m.type) {
      case 'ready':
        this.readyResolve?.();
        this.postPending();
        return undefined;
      case 'rendered':
        this.lastReport = m.report;
        this.waiting.get(m.id)?.(m.report);
        this.waiting.delete(m.id);
        return undefined;
      case 'copy': {
        const text = m.what === 'request' ? cur?.model.requestBody : prettyBody(cur?.model.responseBody);
        await vscode.env.clipboard.writeText(text ?? '');
        void vscode.window.setStatusBarMessage(`Copied the ${m.what} body`, 2000);
        return text;
      }
      case 'save':
        return cur ? this.save(cur.exchange, cur.model) : undefined;
      case 'openField': {
        const item = cur?.model.diagnosis[m.index];
        const uri = cur ? this.payloads.get(cur.exchange.id) : undefined;
        if (!item?.path || !uri) return undefined;
        return openFieldOfPayload(uri, item.path);
      }
      case 'openRecord': {
        const rec = cur?.model.diagnosis[m.index]?.record;
        if (!rec || !cur) return undefined;
        // Titled by the invoice number a person knows the record by, not by its id.
        return vscode.commands.executeCommand('tpp.openRecord', { kind: rec.kind === 'motor-club' ? 'motorClub' : 'registration', env: cur.exchange.env, id: rec.id, invoiceNumber: rec.invoiceNumber });
      }
      case 'openAsPayload':
        return cur ? vscode.commands.executeCommand('tpp.openExchangeAsPayload', cur.exchange) : undefined;
    }
  }

  /** Saves the response body through a save dialog; resolves to the file written, if any. */
  private async save(x: Exchange, model: ViewModel): Promise<vscode.Uri | undefined> {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const name = `response-${model.status?.code ?? 'no-answer'}-${x.id}.json`;
    const target = await vscode.window.showSaveDialog({
      title: 'Save Response Body',
      ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, name) } : {}),
      filters: { JSON: ['json'], 'All files': ['*'] },
    });
    if (!target) return undefined;
    await vscode.workspace.fs.writeFile(target, Buffer.from((prettyBody(model.responseBody) ?? '') + '\n', 'utf8'));
    return target;
  }

  dispose(): void {
    this.panel?.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
