/**
 * The echo server of the compatibility corpus: it keeps every request as it arrived (method, target, header lines in
 * order, body bytes) and answers by the end of its path: `…/login` sets two cookies for the first path segment,
 * `…/redirect/<status>?to=<path>` redirects, anything else is 200 with a small JSON body. Port 0: the system picks it.
 */
import { createServer, type Server } from 'node:http';

/** One request as the server received it. */
export interface Received {
  readonly method: string;
  /** Path and query as sent. */
  readonly target: string;
  /** Header lines in order, names as sent. */
  readonly headers: readonly (readonly [string, string])[];
  readonly body: Buffer;
}

/** The JSON every ordinary request is answered with. */
export const ECHO_ANSWER = { ok: true, id: 7, name: 'tire', items: [1, 2] };

export interface Echo {
  readonly origin: string;
  readonly received: Received[];
  close(): Promise<void>;
}

/** Starts an echo server on 127.0.0.1, port 0. */
export async function startEcho(): Promise<Echo> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const pairs: [string, string][] = [];
      for (let i = 0; i < req.rawHeaders.length; i += 2) pairs.push([req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string]);
      received.push({ method: req.method ?? '', target: req.url ?? '', headers: pairs, body: Buffer.concat(chunks) });
      const url = new URL(req.url ?? '/', 'http://echo');
      const segment = url.pathname.split('/')[1] ?? '';
      if (url.pathname.endsWith('/login')) {
        res.writeHead(200, { 'set-cookie': [`session=s-1; Path=/${segment}`, `theme=dark; Path=/${segment}`], 'content-type': 'application/json' });
        res.end('{}');
        return;
      }
      const redirect = /\/redirect\/(\d{3})$/.exec(url.pathname);
      if (redirect) {
        res.writeHead(Number(redirect[1]), { location: url.searchParams.get('to') ?? '/' });
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(ECHO_ANSWER));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
