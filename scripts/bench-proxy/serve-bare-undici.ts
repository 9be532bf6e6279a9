// The other physical limit of the proxy benchmark: a bare pass-through proxy in its own process whose upstream side
// is undici's dispatch() (what tpp proxy uses), with nothing logged or checked: the connection-level headers that
// undici refuses to forward are dropped, bodies are streamed with backpressure. Prints its origin on stdout.
//   node --import tsx scripts/bench-proxy/serve-bare-undici.ts --target http://127.0.0.1:<port>
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { Agent, type Dispatcher } from 'undici';

const { values } = parseArgs({ options: { target: { type: 'string' } } });
const origin = new URL(values.target as string).origin;
const agent = new Agent({ connections: 64 });
const CONNECTION_LEVEL = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'expect', 'host', 'te', 'trailer', 'proxy-connection']);
const strip = (h: IncomingHttpHeaders) => Object.fromEntries(Object.entries(h).filter(([k, v]) => v !== undefined && !CONNECTION_LEVEL.has(k))) as Record<string, string | string[]>;
const server = createServer((req, res) => {
  const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  agent.dispatch(
    { origin, path: req.url ?? '/', method: (req.method ?? 'GET') as Dispatcher.HttpMethod, headers: strip(req.headers), body: hasBody ? req : null },
    {
      onRequestStart: () => undefined, // marks the handler as undici 7's (controller) kind
      onResponseStart: (_c, status, headers) => void res.writeHead(status, strip(headers)),
      onResponseData: (c, chunk) => {
        if (!res.write(chunk)) {
          c.pause();
          res.once('drain', () => c.resume());
        }
      },
      onResponseEnd: () => void res.end(),
      onResponseError: () => (res.headersSent ? res.destroy() : res.writeHead(502).end()),
    },
  );
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${(server.address() as AddressInfo).port}\n`));
process.on('SIGTERM', () => process.exit(0));
