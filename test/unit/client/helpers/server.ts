/** A tiny node:http server on 127.0.0.1 for client tests: records requests, answers with a per-test handler. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

export type Handler = (req: RecordedRequest, res: ServerResponse, index: number) => unknown;

export interface TestServer {
  /** e.g. http://127.0.0.1:54321 */
  readonly origin: string;
  readonly requests: RecordedRequest[];
  handler: Handler;
  close(): Promise<void>;
}

export async function startServer(handler: Handler = (_req, res) => res.end()): Promise<TestServer> {
  const sockets = new Set<Socket>();
  const requests: RecordedRequest[] = [];
  const state: { handler: Handler } = { handler };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rec: RecordedRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      const index = requests.push(rec) - 1;
      Promise.resolve(state.handler(rec, res, index)).catch((err: unknown) => {
        res.statusCode = 599;
        res.end(String(err));
      });
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    get handler() {
      return state.handler;
    },
    set handler(h: Handler) {
      state.handler = h;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Answers JSON with a status and optional headers. */
export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body === undefined ? undefined : JSON.stringify(body));
}

/** Drops the connection without an answer (the client sees a socket error after having sent the request). */
export function drop(res: ServerResponse): void {
  res.socket?.destroy();
}

/** A port on 127.0.0.1 with nothing listening (connections are refused). */
export async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}
