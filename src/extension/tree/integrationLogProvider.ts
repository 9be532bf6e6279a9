import * as vscode from 'vscode';
import { ENVIRONMENTS, isEnvironmentId } from '../../core/environments';
import type { DiagnosisItem, Exchange } from '../../core/exchange/types';
import { isEditorRead, type IntegrationLog } from '../services/integrationLog';
import { uniqueById } from '../../core/listing/uniqueRows';

/**
 * The Integration Log view (`tpp.integrationLog`): one row per request the Local sandbox (or Watch My Application)
 * answered, newest first: status, environment, method and the resource's short name, then the path, latency, time
 * and partner, with an icon by status class. A failure's row
 * opens onto its diagnosis (one child per broken rule: the claim, header field or payload path, and the fix).
 * Selecting a row runs `tpp.showExchange` with the exchange (the response view); its context menu offers Open as
 * Payload File (`tpp.openExchangeAsPayload`, rows with a body) and Copy as Code… (`tpp.copyAsCode`).
 */

/** One item of an exchange's diagnosis, as a child row. */
export interface DiagnosisRow {
  readonly exchange: Exchange;
  readonly item: DiagnosisItem;
  readonly index: number;
}
/**
 * A row: an exchange itself (so that context-menu commands, `tpp.copyAsCode` and `tpp.openExchangeAsPayload`, receive
 * the Exchange as their argument), or one item of its diagnosis.
 */
export type IntegrationLogElement = Exchange | DiagnosisRow;

const isDiagnosisRow = (e: IntegrationLogElement): e is DiagnosisRow => 'item' in e && 'exchange' in e;

/** Context values of exchange rows (menus in package.json). */
export const ENTRY_CONTEXT = 'integrationLogEntry';
export const ENTRY_WITH_BODY_CONTEXT = 'integrationLogEntry.body';

/** The path and query of an exchange's URL (the URL itself when it does not parse). */
export function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  } catch {
    return url;
  }
}

/** Local time of day of an ISO time, HH:MM:SS. */
function clock(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleTimeString('en-GB', { hour12: false });
}

/** The icon of a status class: green check for 2xx/3xx, warning for 4xx, error for 5xx or no answer. */
function iconOf(status: number | undefined): vscode.ThemeIcon {
  if (status !== undefined && status < 400) return new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed'));
  if (status !== undefined && status < 500) return new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
  return new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed'));
}

/**
 * The environment of a row: "Local" for the Local sandbox's own entries, the environment's label for those of Watch
 * My Application (docs/proxy.md), in capitals for Production so that live traffic is never mistaken for a test.
 */
function envOf(x: Exchange): string {
  if (x.source === 'sandbox-log') return 'Local';
  return isEnvironmentId(x.env) ? ENVIRONMENTS[x.env].logLabel : x.env;
}

/** Path segments that say nothing about the resource: the API prefixes and the products' (spec: Endpoints). */
const PREFIX_SEGMENTS = new Set(['api', 'v3', 'v2', 'tire-protection', 'motor-club']);
/**
 * A path segment that names one record rather than a collection: an `_id` or a number (digits), or the partner id
 * after the version 2 API's `partners` (spec: Version 2).
 */
const isIdSegment = (seg: string, prev: string | undefined) => /\d/.test(seg) || seg.length > 24 || prev === 'partners';

/**
 * The resource's short name, as a person scans for it at the side bar's default width: the last collection the path
 * names, with `/…` when a record's id follows it (the full path is in the row's description), e.g. `registrations`,
 * `registrations/…`, `claims` (of `/registrations/:id/claims`), `partners/…`, `verify-token`.
 */
export function shortResource(url: string): string {
  const segments = pathOf(url).split('?')[0]!.split('/').filter((seg) => seg && !PREFIX_SEGMENTS.has(seg));
  const named = segments.filter((seg, i) => !isIdSegment(seg, segments[i - 1]));
  const last = named[named.length - 1];
  if (!last) return segments.length ? '…' : '/';
  return segments[segments.length - 1] === last ? last : `${last}/…`;
}

/**
 * The row of an exchange: what a person scans first at the side bar's default width, `401 · Sandbox · POST
 * registrations` (status, environment, method, {@link shortResource}), then the full path, latency, time and partner;
 * the tooltip keeps everything.
 */
export function exchangeItem(x: Exchange): vscode.TreeItem {
  const status = x.response?.status;
  const diagnosis = x.diagnosis ?? [];
  const label = `${status ?? 'no answer'} · ${envOf(x)} · ${x.request.method} ${shortResource(x.request.url)}`;
  const item = new vscode.TreeItem(label, diagnosis.length ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
  item.id = x.id;
  const editor = isEditorRead(x);
  item.description = [pathOf(x.request.url), `${Math.round(x.durationMs)} ms`, clock(x.time), x.partner, editor ? 'editor read' : undefined].filter((p) => p !== undefined && p !== '').join(' · ');
  item.iconPath = editor ? new vscode.ThemeIcon('eye') : iconOf(status);
  item.contextValue = x.request.body ? ENTRY_WITH_BODY_CONTEXT : ENTRY_CONTEXT;
  const tip = new vscode.MarkdownString();
  tip.appendText(`${x.request.method} ${x.request.url}\n${status ?? 'no answer'} · ${envOf(x)} · ${x.durationMs} ms · ${x.time}${x.partner ? ` · partner ${x.partner}` : ''}`);
  if (editor) tip.appendText("\nThe editor's own read (its tree, a record's details), not your application's.");
  for (const d of diagnosis) tip.appendMarkdown('\n\n').appendText(`${d.rule}: ${d.message}`);
  item.tooltip = tip;
  item.accessibilityInformation = { label: `status ${status ?? 'none'}, ${envOf(x)}, ${x.request.method} ${pathOf(x.request.url)}, ${Math.round(x.durationMs)} milliseconds${diagnosis.length ? `, ${diagnosis.length} problem${diagnosis.length > 1 ? 's' : ''}` : ''}` };
  item.command = { command: 'tpp.showExchange', title: 'Show Request and Answer', arguments: [x] };
  return item;
}

/**
 * The row of one diagnosis item: its message first, so the rule broken and the fix start where the row starts (the
 * rule is prefixed when the message does not name it); the tooltip adds the code.
 */
export function diagnosisItem(x: Exchange, d: DiagnosisItem, index: number): vscode.TreeItem {
  const item = new vscode.TreeItem(d.message.startsWith(d.rule) ? d.message : `${d.rule}: ${d.message}`, vscode.TreeItemCollapsibleState.None);
  item.id = `${x.id}/${index}`;
  item.tooltip = new vscode.MarkdownString().appendText(`${d.rule}: ${d.message}${d.code ? ` (${d.code})` : ''}`);
  item.iconPath = new vscode.ThemeIcon('debug-breakpoint-log-unverified');
  item.contextValue = 'integrationLogDiagnosis';
  item.command = { command: 'tpp.showExchange', title: 'Show Request and Answer', arguments: [x] };
  return item;
}

/** How long the view waits to redraw after entries arrive, in ms (a burst of requests redraws once). */
const REDRAW_MS = 50;
/** Tries of a reveal, and the wait between them in ms: a row that just arrived may not be drawn yet. */
const REVEAL_TRIES = 10;
const REVEAL_RETRY_MS = 300;

export class IntegrationLogProvider implements vscode.TreeDataProvider<IntegrationLogElement>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<IntegrationLogElement | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly subscription: vscode.Disposable;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly model: IntegrationLog) {
    this.subscription = model.onDidChange(() => {
      this.timer ??= setTimeout(() => {
        this.timer = undefined;
        this.emitter.fire(undefined);
      }, REDRAW_MS);
    });
  }

  getChildren(element?: IntegrationLogElement): IntegrationLogElement[] {
    // Each exchange once (an entry pushed again by a restarted sandbox child): row ids must be unique in the view.
    if (!element) return uniqueById(this.model.list(), (x) => x.id, true);
    if (isDiagnosisRow(element)) return [];
    return (element.diagnosis ?? []).map((item, index) => ({ exchange: element, item, index }));
  }

  getTreeItem(element: IntegrationLogElement): vscode.TreeItem {
    return isDiagnosisRow(element) ? diagnosisItem(element.exchange, element.item, element.index) : exchangeItem(element);
  }

  getParent(element: IntegrationLogElement): IntegrationLogElement | undefined {
    return isDiagnosisRow(element) ? element.exchange : undefined;
  }

  /** Redraws now if a redraw is waiting (before a reveal of a row that just arrived). */
  redrawNow(): void {
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.emitter.fire(undefined);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.subscription.dispose();
    this.emitter.dispose();
  }
}

/**
 * Creates the view (`tpp.integrationLog`) on `model`; its description names the status filter and the count.
 * Returns the disposables (provider, view, subscription).
 */
export function registerIntegrationLogView(model: IntegrationLog): { provider: IntegrationLogProvider; view: vscode.TreeView<IntegrationLogElement>; disposables: vscode.Disposable[] } {
  const provider = new IntegrationLogProvider(model);
  const view = vscode.window.createTreeView('tpp.integrationLog', { treeDataProvider: provider, canSelectMany: true });
  const describe = () => {
    view.description = [model.filter === 'all' ? '' : `${model.filter} only`, model.editorReadsShown ? "with the editor's reads" : ''].filter(Boolean).join(' · ') || undefined;
  };
  describe();
  const sub = model.onDidChange((added) => {
    if (!added) describe();
  });
  // The newest rows of a run the person started (the tour) land at the top, maybe above where the view is scrolled.
  // Such a row has often just arrived: its redraw goes out first, and as VS Code refreshes a view on its own schedule
  // (a reveal of a row it has not drawn yet selects nothing), the reveal is tried again until the row is selected.
  const reveal = model.onDidRequestReveal((x) => {
    provider.redrawNow();
    const attempt = (left: number): void => {
      void Promise.resolve(view.reveal(x, { select: true, focus: false }))
        .then(undefined, () => undefined)
        .then(() => {
          const selected = view.selection.some((s) => !isDiagnosisRow(s) && s.id === x.id);
          if (!selected && left > 1) setTimeout(() => attempt(left - 1), REVEAL_RETRY_MS);
        });
    };
    attempt(REVEAL_TRIES);
  });
  return { provider, view, disposables: [provider, view, sub, reveal] };
}
