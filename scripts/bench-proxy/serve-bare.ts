// The physical limit of the proxy benchmark: a bare node:http pass-through proxy in its own process (keep-alive
// agent to the upstream, Host rewritten, bodies piped, nothing logged or checked). Prints its origin on stdout.
//   node --import tsx scripts/bench-proxy/serve-bare.ts --target http://127.0.0.1:<port>
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { target: { type: 'string' } } });
const target = new URL(values.target as string);
const agent = new Agent({ keepAlive: true, maxSockets: 64 });
const server = createServer((req, res) => {
  const up = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host }, agent }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  up.on('error', () => res.writeHead(502).end());
  req.pipe(up);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${(server.address() as AddressInfo).port}\n`));
process.on('SIGTERM', () => process.exit(0));
