import * as vscode from 'vscode';
import { MemoryDocuments } from '../documents/memoryDocuments';
import { ApiError, describeStatus, MalformedResponseError } from '../../core/client';
import type { ApiResponse } from '../../core/client';
import { ENVIRONMENTS, EnvironmentId } from '../../core/environments';
import { maskSecrets } from '../../core/log/mask';

/** URI scheme of the read-only response documents. */
export const RESPONSE_SCHEME = 'tpp-response';

/** Everything a response document shows. */
export interface ResponseDocument {
  readonly env: EnvironmentId;
  /** What was done, e.g. "Send tire-protection-registration.json". */
  readonly title: string;
  readonly method: string;
  readonly url: string;
  /** Absent when no answer came. */
  readonly status?: number;
  readonly durationMs: number;
  readonly attempts: number;
  readonly headers?: Readonly<Record<string, string | string[] | undefined>>;
  /** Body as received (text). */
  readonly rawBody?: string;
  /** Why there was no answer (network error, refused), or a contract problem of the body. */
  readonly problem?: string;
  /** ISO 8601 time of the request. */
  readonly time: string;
}

/** Pretty JSON of a body when it is JSON, otherwise the text as is. */
function formatBody(raw: string): { text: string; lang: string } {
  if (raw.trim() === '') return { text: '(no body)', lang: 'text' };
  try {
    return { text: JSON.stringify(JSON.parse(raw), null, 2), lang: 'json' };
  } catch {
    return { text: raw, lang: 'text' };
  }
}

/**
 * The text of a response document: a header (environment — Production flagged as real data —, method and URL,
 * status with the spec's name and meaning, duration, attempts, time), the response headers, and the body
 * formatted. Everything the server sent is kept as plain characters (this is a text document, never HTML), and
 * secrets are masked.
 */
export function renderResponse(doc: ResponseDocument): string {
  const info = ENVIRONMENTS[doc.env];
  const lines: string[] = [];
  const s = doc.status !== undefined ? describeStatus(doc.status) : undefined;
  if (info.guarded) lines.push('> ⚠ PRODUCTION — real data', '');
  lines.push(`# ${doc.status !== undefined ? `${doc.status} ${s?.name}` : 'No answer'} — ${doc.title}`, '');
  lines.push(`- Environment: ${info.label}${info.guarded ? ' (PRODUCTION, real data)' : ''}`);
  lines.push(`- Request: ${doc.method} ${doc.url}`);
  if (s) lines.push(`- Status: ${s.status} ${s.name} — ${s.meaning}`);
  if (doc.problem) lines.push(`- Problem: ${doc.problem}`);
  lines.push(`- Duration: ${Math.round(doc.durationMs)} ms`);
  lines.push(`- Attempts: ${doc.attempts}`);
  lines.push(`- Time: ${doc.time}`);
  if (doc.headers && Object.keys(doc.headers).length) {
    lines.push('', '## Headers', '', '```text');
    for (const [k, v] of Object.entries(doc.headers)) if (v !== undefined) lines.push(`${k}: ${Array.isArray(v) ? v.join(', ') : v}`);
    lines.push('```');
  }
  if (doc.rawBody !== undefined) {
    const b = formatBody(doc.rawBody);
    lines.push('', '## Body', '', '```' + b.lang, b.text, '```');
  }
  return maskSecrets(lines.join('\n')) + '\n';
}

/** A response document from a successful answer. */
export function fromResponse(env: EnvironmentId, title: string, time: string, r: ApiResponse): ResponseDocument {
  return { env, title, time, method: r.method, url: r.url, status: r.status, durationMs: r.durationMs, attempts: r.attempts, headers: r.headers, rawBody: r.rawBody };
}

/** A response document from a failed call (a non-success status, a malformed body, or no answer at all). */
export function fromError(env: EnvironmentId, title: string, time: string, method: string, url: string, err: unknown): ResponseDocument {
  if (err instanceof ApiError) return { env, title, time, method: err.method, url: err.url, status: err.status, durationMs: err.durationMs, attempts: err.attempts, rawBody: err.rawBody };
  if (err instanceof MalformedResponseError)
    return { env, title, time, method: err.method, url: err.url, status: err.status, durationMs: err.durationMs, attempts: err.attempts, rawBody: err.rawBody, problem: err.message };
  const e = err as { durationMs?: number; attempts?: number; url?: string; message?: string };
  return {
    env,
    title,
    time,
    method,
    url: typeof e.url === 'string' ? e.url : url,
    durationMs: e.durationMs ?? 0,
    attempts: e.attempts ?? 0,
    problem: err instanceof Error ? err.message : String(err),
  };
}

/**
 * Provider of `tpp-response:` documents: read-only Markdown text (never rendered as HTML by us, so a customer
 * name such as `<img src=x onerror=alert(1)>` stays those characters). Keeps the newest 50 responses.
 */
export class ResponseView extends MemoryDocuments {
  constructor() {
    super(RESPONSE_SCHEME, 50, '# Response no longer available\n\nOnly the newest 50 responses are kept; see the request history.\n');
  }

  /** Stores the document and returns its URI (does not open it). */
  add(doc: ResponseDocument): vscode.Uri {
    return this.store(renderResponse(doc), (seq) => `/${doc.env}/${seq}-${doc.status ?? 'no-answer'}.md`);
  }

  /** Stores and opens the document beside the editor (preserving focus); returns its URI. */
  async show(doc: ResponseDocument, reveal = true): Promise<vscode.Uri> {
    const uri = this.add(doc);
    if (reveal) {
      const d = await vscode.workspace.openTextDocument(uri);
      await vscode.languages.setTextDocumentLanguage(d, 'markdown');
      await vscode.window.showTextDocument(d, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: true });
    }
    return uri;
  }
}
