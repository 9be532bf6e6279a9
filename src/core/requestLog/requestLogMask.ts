import { maskSecrets } from '../log/mask';

/** What the Local sandbox's request log (./requestLog.ts) keeps of a request: masked and cut (headers: log/mask.ts). */

/** Masks secrets of a URL or path: query values named like secrets, tokens anywhere. */
export function maskQuery(url: string): string {
  return maskSecrets(url.replace(/([?&](?:api_?key|token|access_token|key|secret|password)=)[^&\s]*/gi, '$1***'));
}

/**
 * `text` cut to `cap` characters as a string of its own: V8 makes `slice` a view that keeps the whole original alive
 * (an answer of 16 MiB for 16 KB shown).
 */
export function cut(text: string, cap: number): string {
  if (text.length <= cap) return text;
  const part = text.slice(0, cap);
  const encoding = /[\u0100-\uffff]/.test(part) ? 'utf16le' : 'latin1';
  return Buffer.from(part, encoding).toString(encoding);
}
