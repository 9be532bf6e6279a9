import type { IncomingMessage } from 'node:http';
import type { FastifyError, FastifyInstance } from 'fastify';
import { maskSecrets } from '../log/mask';
import { StorageError, sqlState } from './db/database';
import { ApiError, Issue, errorName } from './ops/common';

/**
 * How the Local sandbox answers errors (spec: Errors; docs/sandbox.md, Faults and Limits): every error body is JSON
 * with `error` and `statusCode`; a storage failure is 503 with Retry-After; a value PostgreSQL cannot store is 400;
 * an answer over the response limit is refused.
 */

/** Largest response body the sandbox sends, in bytes. */
export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
/** Seconds a client is told to wait after a storage failure. */
const STORAGE_RETRY_AFTER_SECONDS = 2;

export function errorBody(status: number, message: string, issues?: readonly Issue[], extra?: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return { error: errorName(status), statusCode: status, message, ...(issues ? { issues } : {}), ...(extra ?? {}) };
}

/** A request line for the log: secrets in the query (`apikey`, `token`, …) and tokens masked. */
export function logSafe(text: string): string {
  return maskSecrets(text.replace(/([?&](?:api_?key|token|access_token|key|secret|password)=)[^&\s]*/gi, '$1***'));
}

/** Bytes of a refused body read and dropped before its 413 is sent (beyond, the connection closes mid-upload). */
export const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;
/** Longest wait for a refused body's end, in milliseconds. */
const DRAIN_LIMIT_MS = 10_000;

/**
 * Reads and drops the rest of a request's body, then calls `then` once: at its end, after {@link DRAIN_LIMIT_BYTES}
 * or {@link DRAIN_LIMIT_MS}, or when the connection fails.
 */
function drainRequest(raw: IncomingMessage, then: () => void): void {
  let seen = 0;
  let called = false;
  const finish = () => {
    if (called) return;
    called = true;
    clearTimeout(timer);
    raw.removeListener('data', onData).removeListener('end', finish).removeListener('error', finish).removeListener('close', finish);
    then();
  };
  const onData = (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > DRAIN_LIMIT_BYTES) finish();
  };
  const timer = setTimeout(finish, DRAIN_LIMIT_MS);
  timer.unref?.();
  raw.on('data', onData).once('end', finish).once('error', finish).once('close', finish);
  raw.resume();
}

/**
 * Installs the not-found, error and response-size handlers on `app`, and the drain of a body too large (413);
 * `log` receives storage failures and 500s.
 */
export function installErrorReplies(app: FastifyInstance, log: ((line: string) => void) | undefined): void {
  app.setNotFoundHandler((req, reply) => {
    void reply.code(404).send(errorBody(404, `No endpoint at ${req.method} ${req.url.split('?')[0] ?? ''}`));
  });
  app.setErrorHandler((err: FastifyError, _req, reply) => {
    if (err instanceof ApiError) {
      void reply.code(err.statusCode).send(errorBody(err.statusCode, err.message, err.issues, err.extra));
      return;
    }
    if (err instanceof StorageError) {
      log?.(`storage failure: ${err.message}`);
      void reply
        .code(503)
        .header('Retry-After', String(STORAGE_RETRY_AFTER_SECONDS))
        .send(errorBody(503, `The Local sandbox could not store or read this (storage failure: ${err.message.replace(/^Storage failed: /, '')}). Nothing was stored; retry after ${STORAGE_RETRY_AFTER_SECONDS} s.`));
      return;
    }
    if (sqlState(err)?.startsWith('22')) {
      // A value PostgreSQL cannot store (a NUL character in a string, a number out of range): the request's fault.
      void reply.code(400).send(errorBody(400, `A value of the request cannot be stored: ${err.message}`, [{ path: '', message: err.message }]));
      return;
    }
    const status = typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) log?.(`internal error: ${err.stack ?? err.message}`);
    const message = status === 500 ? 'Internal error of the Local sandbox' : err.message;
    const issues = status === 400 ? [{ path: '', message: err.message }] : undefined;
    void reply.code(status).send(errorBody(status, message, issues));
  });
  // One hook, in fastify's callback form: no promise per answer, one call per answer.
  app.addHook('onSend', (req, reply, payload, done) => {
    // A string's UTF-8 size is at most 3 bytes per UTF-16 unit: only a long one is measured.
    const size = typeof payload === 'string' ? (payload.length * 3 <= MAX_RESPONSE_BYTES ? 0 : Buffer.byteLength(payload)) : Buffer.isBuffer(payload) ? payload.length : 0;
    if (size > MAX_RESPONSE_BYTES) {
      void reply.code(500);
      return done(null, JSON.stringify(errorBody(500, `The answer would exceed the Local sandbox's response limit of ${MAX_RESPONSE_BYTES} bytes`)));
    }
    // A body too large is answered once the client has sent it (up to a bound): the 413 is then readable, where
    // closing the connection mid-upload made the client's next write fail (EPIPE) before it read the answer.
    if (reply.statusCode !== 413 || req.raw.complete || req.raw.destroyed) return done(null, payload);
    drainRequest(req.raw, () => done(null, payload));
  });
}

/** Methods of the partner interface's routes (a path called with another one answers 405). */
const ALL_METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS'] as const;

/** 405 `method_not_allowed` with an `Allow` header for a known path called with another method (docs/sandbox.md). */
export function installMethodNotAllowed(app: FastifyInstance, methodsByPath: ReadonlyMap<string, ReadonlySet<string>>): void {
  for (const [url, methods] of methodsByPath) {
    app.route({
      method: ALL_METHODS.filter((m) => !methods.has(m)) as ('GET' | 'POST')[],
      url,
      handler: async (req, reply) =>
        reply
          .code(405)
          .header('Allow', [...methods].join(', '))
          .send(errorBody(405, `${req.method} is not allowed here; use ${[...methods].join(' or ')}`)),
    });
  }
}
