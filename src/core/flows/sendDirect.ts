/**
 * A flow request sent once, as written (docs/flows.md, How requests are sent): for URLs outside the environment's
 * contract endpoints, or requests with their own Authorization header. No retry and no redirect is followed (the
 * answer is what the server said); the time is bounded by `timeoutMs` and the answer read is bounded by
 * `maxResponseBytes` (the client's limits, docs/sending.md: Limits).
 */
import type { Dispatcher } from 'undici';
import type { Exchange } from '../exchange/types';
import { newExchangeId } from '../exchange/id';
import { maskHeaders, maskSecrets } from '../log/mask';
import type { FlowAnswer } from './variables';

// undici is loaded on the first request (as the client does, attempt.ts): parsing a flow never loads it.
const undici = (): typeof import('undici') => require('undici') as typeof import('undici');

/** The request as sent. */
export interface DirectRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: readonly { readonly name: string; readonly value: string }[];
  /** The body text as sent. */
  readonly body?: string;
  /** Label of the request, the Exchange's title. */
  readonly title: string;
}

/** Limits and labels of a direct send. */
export interface DirectOptions {
  readonly env: string;
  readonly partner?: string;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly dispatcher?: Dispatcher;
  readonly signal?: AbortSignal;
}

/** Request headers as an Exchange keeps them: repeated names joined, then masked as every exchange is (log/mask.ts). */
function sentHeaders(headers: DirectRequest['headers']): Record<string, string> {
  const joined: Record<string, string> = {};
  for (const h of headers) {
    const name = h.name.toLowerCase();
    joined[name] = joined[name] !== undefined ? `${joined[name]}, ${h.value}` : h.value;
  }
  return maskHeaders(joined);
}

/** The Exchange of a direct send: its answer, or the problem that left it without one. */
export function directExchange(req: DirectRequest, meta: { env: string; partner?: string }, time: string, outcome: { answer?: FlowAnswer; problem?: string; durationMs: number }): Exchange {
  const a = outcome.answer;
  return {
    id: newExchangeId(),
    env: meta.env,
    source: 'client',
    time,
    title: req.title,
    ...(meta.partner ? { partner: meta.partner } : {}),
    request: { method: req.method, url: maskSecrets(req.url), headers: sentHeaders(req.headers), ...(req.body !== undefined ? { body: maskSecrets(req.body) } : {}) },
    ...(a ? { response: { status: a.status, headers: maskHeaders(a.headers), body: maskSecrets(a.body), size: Buffer.byteLength(a.body) } } : {}),
    durationMs: Math.round(outcome.durationMs),
    attempts: 1,
    ...(outcome.problem ? { problem: maskSecrets(outcome.problem) } : {}),
  };
}

/** Reads at most `max` bytes of a body; throws when there is more. */
async function readCapped(body: AsyncIterable<Buffer | Uint8Array> & { destroy?: () => void }, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > max) {
      body.destroy?.();
      throw new Error(`The answer is larger than ${max} bytes, the most a flow reads.`);
    }
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Sends a request once, as written.
 * @returns the answer and its Exchange, or `error` (no answer: refused address, network failure, timeout after
 *   `timeoutMs`, an answer over `maxResponseBytes`, cancellation). Never throws.
 */
export async function sendDirect(req: DirectRequest, o: DirectOptions): Promise<{ answer?: FlowAnswer; exchange: Exchange; error?: string }> {
  const time = new Date().toISOString();
  const started = performance.now();
  const fail = (error: string) => ({ error: maskSecrets(error), exchange: directExchange(req, o, time, { problem: error, durationMs: performance.now() - started }) });
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return fail(`'${req.url}' is not an absolute URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return fail(`Only http and https URLs are sent, not ${url.protocol}.`);
  const timeout = AbortSignal.timeout(o.timeoutMs);
  const signal = o.signal ? AbortSignal.any([o.signal, timeout]) : timeout;
  try {
    const headers: Record<string, string> = {};
    for (const h of req.headers) headers[h.name] = headers[h.name] !== undefined ? `${headers[h.name]}, ${h.value}` : h.value;
    const res = await undici().request(url, { method: req.method as Dispatcher.HttpMethod, headers, body: req.body, signal, ...(o.dispatcher ? { dispatcher: o.dispatcher } : {}) });
    const announced = Number(res.headers['content-length']);
    if (Number.isFinite(announced) && announced > o.maxResponseBytes) {
      res.body.destroy();
      return fail(`The answer announces ${announced} bytes, more than the ${o.maxResponseBytes} a flow reads.`);
    }
    const body = await readCapped(res.body, o.maxResponseBytes);
    const flat: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
    const answer: FlowAnswer = { status: res.statusCode, headers: flat, body, durationMs: performance.now() - started };
    return { answer, exchange: directExchange(req, o, time, { answer, durationMs: answer.durationMs }) };
  } catch (err) {
    if (timeout.aborted && !o.signal?.aborted) return fail(`No answer within ${o.timeoutMs} ms.`);
    if (o.signal?.aborted) return fail('Cancelled.');
    const code = (err as { code?: string }).code;
    return fail(`${err instanceof Error ? err.message : String(err)}${code ? ` (${code})` : ''}`);
  }
}
