import { strict as assert } from 'node:assert';
import { createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { startProxy, type ProxyHandle, type ProxyOptions } from '../../../src/core/proxy/proxyServer';
import { hasDotSegment } from '../../../src/core/proxy/requestGuard';
import type { ProxyLogEntry } from '../../../src/core/proxy/proxyLog';
import type { RequestLogEntry } from '../../../src/core/requestLog/requestLog';

/**
 * `tpp proxy` has the Local sandbox's guards (docs/proxy.md, What it refuses; docs/sandbox.md, Limits): a request
 * addressed by another host name (DNS rebinding) or sent by a web page is answered by the proxy and never forwarded,
 * as is a path with a dot segment; connections are capped; headers and bodies that trickle are cut. The limits are
 * injected small so that no test waits long, and no test measures time: each awaits what the proxy does.
 */

/** An upstream that answers every request 200 once its body has arrived; it lists the requests it got, and those cancelled. */
async function upstream(): Promise<{ server: Server; url: string; seen: string[]; cancelled: string[] }> {
  const seen: string[] = [];
  const cancelled: string[] = [];
  const server = createServer((req, res) => {
    seen.push(req.url ?? '');
    res.on('close', () => res.writableEnded || cancelled.push(req.url ?? ''));
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v3`, seen, cancelled };
}

/** One request with exactly these headers (Host included: fetch may not set it) and the path as written. */
function raw(proxy: ProxyHandle, method: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; json: { error?: string; message?: string } }> {
  const { hostname, port } = new URL(proxy.origin);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, method, path, setHost: false, headers: { host: `${hostname}:${port}`, ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text || '{}') }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The next entry of the proxy's log. */
const nextEntry = (proxy: ProxyHandle) =>
  new Promise<ProxyLogEntry>((resolve) => {
    const off = proxy.log.subscribe((e: RequestLogEntry) => {
      off();
      resolve(e as ProxyLogEntry);
    });
  });

/** A raw connection to the proxy: everything it answered, once the proxy has closed it. */
function openSocket(proxy: ProxyHandle): { socket: Socket; closed: Promise<string>; firstData: Promise<string> } {
  const { hostname, port } = new URL(proxy.origin);
  const socket = connect(Number(port), hostname);
  let text = '';
  socket.setEncoding('utf8');
  const firstData = new Promise<string>((resolve) => socket.once('data', (d: string) => resolve(d)));
  socket.on('data', (d: string) => (text += d));
  socket.on('error', () => undefined);
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(text)));
  return { socket, closed, firstData };
}

describe('tpp proxy: the Local sandbox\'s guards', () => {
  let up: Awaited<ReturnType<typeof upstream>>;
  const started: ProxyHandle[] = [];
  const sockets: Socket[] = [];
  before(async () => (up = await upstream()));
  afterEach(async () => {
    for (const s of sockets.splice(0)) s.destroy();
    for (const p of started.splice(0)) await p.close();
    up.seen.length = 0;
    up.cancelled.length = 0;
  });
  after(async () => {
    up.server.closeAllConnections();
    await new Promise<void>((r) => up.server.close(() => r()));
  });
  const proxyWith = async (extra: Partial<ProxyOptions> = {}) => {
    const p = await startProxy({ target: up.url, ...extra });
    started.push(p);
    return p;
  };
  const track = (o: ReturnType<typeof openSocket>) => (sockets.push(o.socket), o);

  it('answers 421 to a request addressed by another host name (DNS rebinding), forwarding nothing', async () => {
    const p = await proxyWith();
    const port = Number(new URL(p.origin).port);
    const entry = nextEntry(p);
    const rebound = await raw(p, 'GET', '/api/v3/verify-token', { host: `attacker.example:${port}`, authorization: 'Bearer eyJ.x.y' });
    assert.equal(rebound.status, 421);
    assert.equal(rebound.json.error, 'misdirected_request');
    assert.match(rebound.json.message ?? '', /tpp proxy answers only requests addressed to it by a loopback name .*not Host "attacker\.example:\d+"/);
    const e = await entry;
    assert.equal(e.status, 421);
    assert.equal(e.kind, 'proxy-error');
    assert.equal((await raw(p, 'GET', '/api/v3/verify-token', { host: `127.0.0.1:${port + 1}` })).status, 421, 'another port is another origin');
    assert.equal((await raw(p, 'GET', '/api/v3/verify-token', { host: '' })).status, 421, 'no Host at all');
    assert.deepEqual(up.seen, [], 'nothing reached the upstream');
    assert.equal((await raw(p, 'GET', '/api/v3/verify-token', { host: `localhost:${port}` })).status, 200, 'localhost is this machine');
    assert.equal((await raw(p, 'GET', '/api/v3/verify-token')).status, 200);
    assert.deepEqual(up.seen, ['/api/v3/verify-token', '/api/v3/verify-token']);
  });

  it('answers 403 to a request a web page sent (cross-site Origin or Sec-Fetch-Site), forwarding nothing', async () => {
    const p = await proxyWith();
    const pages: Record<string, string>[] = [{ origin: 'https://evil.example' }, { origin: 'null' }, { 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }];
    for (const headers of pages) {
      const r = await raw(p, 'POST', '/api/v3/tire-protection/registrations', headers);
      assert.equal(r.status, 403, JSON.stringify(headers));
      assert.equal(r.json.error, 'forbidden');
      assert.match(r.json.message ?? '', /refuses requests from web pages/);
    }
    assert.deepEqual(up.seen, []);
    const own = await raw(p, 'GET', '/api/v3/verify-token', { origin: p.origin, 'sec-fetch-site': 'same-origin' });
    assert.equal(own.status, 200, 'its own origin is no web page of another site');
  });

  it('answers 400 to a path with a dot segment, written or percent-encoded, forwarding nothing', async () => {
    const p = await proxyWith();
    for (const path of ['/api/v3/../../admin', '/api/v3/%2e%2e/%2E%2E/admin', '/api/v3/.%2e/admin', '/api/v3/..%2fadmin', '/api/v3/%252e%252e/admin', '/api/v3/x/..;/admin', '/api/v3/./verify-token', '/api/v3\\..\\admin']) {
      const r = await raw(p, 'GET', path);
      assert.equal(r.status, 400, path);
      assert.equal(r.json.error, 'bad_request');
      assert.match(r.json.message ?? '', /"\." or "\.\." segment/);
    }
    assert.deepEqual(up.seen, []);
    assert.equal((await raw(p, 'GET', '/api/v3/shops/a..b?q=../x')).status, 200, 'dots inside a segment, and in the query, are no dot segment');
    assert.deepEqual(up.seen, ['/api/v3/shops/a..b?q=../x']);
  });

  it('hasDotSegment: the segments a server would resolve, and only those', () => {
    for (const yes of ['/..', '/.', '/a/../b', '/a/%2E%2e', '/a%2F..', '/a%5C..%5Cb', '/%252e%252e/x', '/a/.;x/b']) assert.equal(hasDotSegment(yes), true, yes);
    for (const no of ['/', '/api/v3/x', '/a..', '/...', '/a.b/c', '/%2e%2ex', '/.well-known']) assert.equal(hasDotSegment(no), false, no);
  });

  it('refuses connections beyond its cap, and takes new ones when one closes', async () => {
    const p = await proxyWith({ maxConnections: 2 });
    const { host } = new URL(p.origin);
    const held = [track(openSocket(p)), track(openSocket(p))];
    // A request answered on each shows that the proxy holds both connections (kept alive).
    for (const h of held) {
      h.socket.write(`GET /api/v3/verify-token HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
      assert.match(await h.firstData, /^HTTP\/1.1 200/);
    }
    const third = track(openSocket(p));
    assert.equal(await third.closed, '', 'the third connection is closed unanswered');
    held[0]!.socket.destroy();
    await held[0]!.closed;
    // The proxy sees the close a moment later: poll (bounded), no time is measured.
    let status = 0;
    for (let i = 0; i < 100 && status !== 200; i++) {
      status = await raw(p, 'GET', '/api/v3/verify-token').then((r) => r.status, () => 0);
      if (status !== 200) await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(status, 200, 'a connection is taken again once one has closed');
  });

  it('closes a connection whose headers trickle in, or that sends nothing, past the request time limit (408)', async () => {
    const p = await proxyWith({ requestTimeoutMs: 300 });
    const { host } = new URL(p.origin);
    const slow = track(openSocket(p));
    slow.socket.write(`GET /api/v3/verify-token HTTP/1.1\r\nHost: ${host}\r\nX-Slow: `);
    const drip = setInterval(() => slow.socket.write('a'), 50);
    const silent = track(openSocket(p));
    try {
      assert.match(await slow.closed, /^HTTP\/1.1 408/);
      assert.match(await silent.closed, /^HTTP\/1.1 408/);
    } finally {
      clearInterval(drip);
    }
    assert.deepEqual(up.seen, [], 'nothing was forwarded');
  });

  it('closes a request whose body trickles in past the request time limit (408), cancels it upstream, and logs why', async () => {
    const p = await proxyWith({ requestTimeoutMs: 300 });
    const { host } = new URL(p.origin);
    const entry = nextEntry(p);
    const slow = track(openSocket(p));
    slow.socket.write(`POST /api/v3/tire-protection/registrations HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":`);
    const drip = setInterval(() => slow.socket.write(' '), 50);
    try {
      assert.match(await slow.closed, /^HTTP\/1.1 408/);
    } finally {
      clearInterval(drip);
    }
    const e = await entry;
    assert.equal(e.status, 408);
    assert.equal(e.kind, 'proxy-error');
    assert.match(e.problem ?? '', /did not arrive whole within 0\.3 s/);
    for (let i = 0; i < 100 && !up.cancelled.length; i++) await new Promise((r) => setTimeout(r, 20)); // bounded poll
    assert.deepEqual(up.cancelled, ['/api/v3/tire-protection/registrations'], 'the upstream saw its request cancelled, not completed');
  });
});
