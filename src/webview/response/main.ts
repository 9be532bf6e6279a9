/**
 * The response view's page (bundled to dist/webview/response.js; see src/extension/response/responsePanel.ts). It
 * receives a view model by `postMessage` and builds the page with DOM APIs: every value a server sent is set with
 * `textContent`, never as HTML, and the Content Security Policy allows no inline script or handler.
 */
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-collapsible/index.js';
import type { DiagnosisItem } from '../../core/exchange/types';
import type { PageMessage, ViewModel } from '../../core/exchange/viewTypes';
import { jsonTree } from './jsonTree';

declare function acquireVsCodeApi(): { postMessage(message: PageMessage): void };
const vscode = acquireVsCodeApi();
const root = document.getElementById('root') as HTMLElement;
/** The one live region: a screen reader announces the status line of a new answer, never the whole page. */
const announce = document.getElementById('announce') as HTMLElement;

type Child = Node | string;

/** An element with a class and children (strings become text nodes). */
function h<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, ...children: Child[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  e.append(...children);
  return e;
}

/** A vscode-elements element with a text label or children. */
function vsc(tag: string, attrs: Record<string, string | boolean>, ...children: Child[]): HTMLElement {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== false) e.setAttribute(k, v === true ? '' : v);
  e.append(...children);
  return e;
}

/** A button that posts `message` when clicked. */
function button(label: string, message: PageMessage, secondary = true): HTMLElement {
  const b = vsc('vscode-button', { secondary }, label);
  b.dataset.action = label;
  b.addEventListener('click', () => vscode.postMessage(message));
  return b;
}

/** A link-styled button (a field of the payload file, a record). */
function link(label: string, message: PageMessage): HTMLButtonElement {
  const b = h('button', 'link', label);
  b.type = 'button';
  b.dataset.action = label;
  b.addEventListener('click', () => vscode.postMessage(message));
  return b;
}

function formatBytes(n: number): string {
  return n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;
}

function headerTable(rows: readonly (readonly [string, string])[], none = 'None.'): HTMLElement {
  if (!rows.length) return h('p', 'muted', none);
  const table = h('table', 'headers');
  for (const [k, v] of rows) table.append(h('tr', '', h('th', '', k), h('td', '', v)));
  return table;
}

/** A body: a foldable JSON tree, or the text as is. */
function body(text: string | undefined): { el: HTMLElement; foldable: number } {
  if (text === undefined || text.trim() === '') return { el: h('p', 'muted', 'No body.'), foldable: 0 };
  try {
    const tree = jsonTree(JSON.parse(text) as unknown);
    if (tree) return tree;
  } catch {
    // not JSON: shown as text
  }
  return { el: h('pre', 'body', text), foldable: 0 };
}

const MARK = { pass: '✓', fail: '✗', skip: '–' } as const;

/** The diagnosis: JWT checklist (401), field problems (400, linked to the payload file), conflicts (409), others. */
function diagnosis(m: ViewModel): HTMLElement | undefined {
  const items = m.diagnosis.map((d, index) => ({ d, index }));
  if (!items.length) return undefined;
  const box = h('section', 'diagnosis');
  const checks = items.filter(({ d }) => d.status);
  const fields = items.filter(({ d }) => !d.status && d.path);
  const records = items.filter(({ d }) => !d.status && !d.path && d.record);
  const rest = items.filter(({ d }) => !d.status && !d.path && !d.record);
  if (checks.length) {
    const fails = checks.filter(({ d }) => d.status === 'fail').length;
    box.append(h('h2', '', `JWT checklist of the token that was sent — ${fails ? `${fails} rule${fails === 1 ? '' : 's'} failed` : 'no rule failed'}`));
    const ul = h('ul', 'checklist');
    for (const { d } of checks) ul.append(h('li', `check ${d.status ?? ''}`, h('span', 'mark', MARK[d.status ?? 'skip']), ' ', d.message));
    box.append(ul);
  }
  if (rest.length) {
    const ul = h('ul', 'problems');
    for (const { d } of rest) ul.append(h('li', '', d.message));
    box.append(ul);
  }
  if (fields.length) {
    box.append(h('h2', '', 'Field problems'));
    const ul = h('ul', 'problems');
    for (const { d, index } of fields) {
      const where = (d.path ?? []).join('.') || d.rule;
      const li = h('li', '', m.fieldLinks ? link(where, { type: 'openField', index }) : h('code', '', where), ' — ', d.message);
      if (d.code) li.append(' ', h('span', 'code', `(${d.code})`));
      ul.append(li);
    }
    box.append(ul);
  }
  if (records.length) {
    box.append(h('h2', '', 'Conflicts with'));
    const ul = h('ul', 'problems');
    for (const { d, index } of records) ul.append(h('li', '', d.message, ' ', button(`Open ${(d.record as NonNullable<DiagnosisItem['record']>).label ?? 'record'}`, { type: 'openRecord', index })));
    box.append(ul);
  }
  return box;
}

function render(m: ViewModel): void {
  const frag = document.createDocumentFragment();
  if (m.production) frag.append(h('div', 'banner production', '⚠ PRODUCTION — real data'));
  const status = m.status ? `${m.status.code} ${m.status.name}` : 'No answer';
  const head = h('header', '', vsc('vscode-badge', { class: `status ${m.status?.kind ?? 'none'}` }, status), h('h1', '', m.title));
  frag.append(head);
  frag.append(h('p', 'request', h('strong', '', m.method), ' ', h('code', 'url', m.url)));
  const facts = h('dl', 'facts');
  const fact = (k: string, v: string) => facts.append(h('dt', '', k), h('dd', '', v));
  fact('Environment', m.production ? `${m.envLabel} (real data)` : m.envLabel);
  fact('Time', m.time);
  fact('Duration', `${m.durationMs} ms`);
  if (m.size !== undefined) fact('Size', formatBytes(m.size));
  fact('Attempts', String(m.attempts));
  frag.append(facts);
  if (m.status) frag.append(h('p', 'meaning', m.status.meaning));
  if (m.problem) frag.append(h('p', 'problem', m.problem));
  const diag = diagnosis(m);
  if (diag) frag.append(diag);

  const res = body(m.responseBody);
  const resBox = vsc('vscode-collapsible', { heading: 'Response body', open: true });
  const resActions = h('div', 'actions', button('Copy', { type: 'copy', what: 'response' }), button('Save…', { type: 'save' }));
  resBox.append(resActions, res.el);
  if (m.responseTruncated) resBox.append(h('p', 'muted', 'Cut at 64 KB (history keeps 64 KB of each body).'));
  frag.append(resBox);
  frag.append(vsc('vscode-collapsible', { heading: `Response headers (${m.responseHeaders.length})`, open: true }, headerTable(m.responseHeaders, 'Not available for this answer.')));

  const req = vsc('vscode-collapsible', { heading: 'Request', open: m.status === undefined || m.status.code >= 400 });
  req.append(headerTable(m.requestHeaders));
  if (m.requestBody !== undefined) {
    const actions = h('div', 'actions', button('Copy request body', { type: 'copy', what: 'request' }));
    if (m.canOpenAsPayload) actions.append(button('Open as Payload File', { type: 'openAsPayload' }));
    req.append(actions, body(m.requestBody).el);
  }
  frag.append(req);
  root.replaceChildren(frag);
  announce.textContent = `${status}: ${m.title}`;
  // Report once the custom elements have upgraded and the browser laid the page out.
  requestAnimationFrame(() =>
    vscode.postMessage({
      type: 'rendered',
      id: m.id,
      report: {
        text: (root.textContent ?? '').slice(0, 50_000),
        images: document.querySelectorAll('img').length,
        title: document.title,
        actions: [...document.querySelectorAll<HTMLElement>('[data-action]')].map((e) => e.dataset.action ?? ''),
        foldable: res.foldable,
        live: [...document.querySelectorAll<HTMLElement>('[aria-live]')].map((e) => e.textContent ?? ''),
      },
    }),
  );
}

window.addEventListener('message', (e: MessageEvent<{ type?: string; model?: ViewModel }>) => {
  if (e.data?.type === 'show' && e.data.model) render(e.data.model);
});
vscode.postMessage({ type: 'ready' });
