import type { DiagnosisItem } from './types';

/**
 * What the response view's page renders (sent with `postMessage`, inserted with `textContent` only). Shared by the
 * extension (src/extension/response) and the page script (src/webview/response); plain JSON.
 */
export interface ViewModel {
  readonly id: string;
  readonly title: string;
  readonly envLabel: string;
  /** Production: real data, flagged. */
  readonly production: boolean;
  readonly method: string;
  readonly url: string;
  /** Local date and time the request started. */
  readonly time: string;
  readonly durationMs: number;
  /** Bytes of the answer's body; absent without an answer. */
  readonly size?: number;
  readonly attempts: number;
  readonly status?: { readonly code: number; readonly name: string; readonly meaning: string; readonly kind: string };
  readonly problem?: string;
  readonly requestHeaders: readonly (readonly [string, string])[];
  readonly responseHeaders: readonly (readonly [string, string])[];
  readonly requestBody?: string;
  readonly responseBody?: string;
  readonly responseTruncated: boolean;
  readonly diagnosis: readonly DiagnosisItem[];
  /** Field problems link to the payload file (its URI is known). */
  readonly fieldLinks: boolean;
  /** The request body can be opened as a payload file. */
  readonly canOpenAsPayload: boolean;
}

/** Page → extension messages. */
export type PageMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'rendered'; readonly id: string; readonly report: RenderReport }
  | { readonly type: 'copy'; readonly what: 'response' | 'request' }
  | { readonly type: 'save' }
  | { readonly type: 'openField'; readonly index: number }
  | { readonly type: 'openRecord'; readonly index: number }
  | { readonly type: 'openAsPayload' };

/** What the page reports after rendering (tests read it). */
export interface RenderReport {
  /** The page's text (`textContent`: folded sections included, no separators between cells). */
  readonly text: string;
  /** `img` elements in the page (a hostile body must create none). */
  readonly images: number;
  /** Buttons and links the page rendered, by label. */
  readonly actions: readonly string[];
  /** The page's `document.title` (a script injected through a body would change it: tests). */
  readonly title: string;
  /** Collapsible JSON nodes of the response body. */
  readonly foldable: number;
  /** The text of each `aria-live` region: one short status line, never the whole answer (read aloud on change). */
  readonly live: readonly string[];
}
