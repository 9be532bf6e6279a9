import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startProxy, type ProxyHandle } from '../../../src/core/proxy/proxyServer';
import { ProxyConfigError } from '../../../src/core/proxy/targets';
import { through } from './helpers';
import { eventually } from '../eventually';

/**
 * Bad input to `tpp proxy`: each gets a specific message, and the application always gets the
 * upstream's answer or a 502 saying the upstream failed, never a hang. The upstreams here are small node:http
 * servers that misbehave on purpose.
 */

/** A node:http upstream answering with `handler`; resolves with its origin. */
async function upstream(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v3` };
}
const closeServer = (s: Server) => new Promise<void>((r) => { s.closeAllConnections(); s.close(() => r()); });

describe('tpp proxy: bad input', () => {
  const started: ProxyHandle[] = [];
  const servers: Server[] = [];
  after(async () => {
    for (const p of started) await p.close();
    for (const s of servers) await closeServer(s);
  });
  const proxyTo = async (target: string, extra: Partial<Parameters<typeof startProxy>[0]> = {}) => {
    const p = await startProxy({ target, ...extra });
    started.push(p);
    return p;
  };

  it('refuses a target that is not https:// off loopback, and says why', async () => {
    await assert.rejects(startProxy({ target: 'http://sandbox.example.com/api/v3' }), (e: Error) => e instanceof ProxyConfigError && /must be an https:\/\/ address.*unencrypted/.test(e.message));
    await assert.rejects(startProxy({ target: 'ftp://x/api/v3' }), /must start with https:\/\//);
    await assert.rejects(startProxy({ target: 'sandbox/api/v3' }), /absolute base address/);
  });

  it('refuses to listen anywhere but loopback', async () => {
    await assert.rejects(startProxy({ target: 'https://sandbox.example.com/api/v3', host: '0.0.0.0' }), /loopback only/);
  });

  it('a second proxy on a taken port: names the port and the choices', async () => {
    const first = await proxyTo('https://sandbox.example.com/api/v3');
    const port = Number(new URL(first.origin).port);
    await assert.rejects(startProxy({ target: 'https://sandbox.example.com/api/v3', port }), (e: Error) => e instanceof ProxyConfigError && e.message.includes(`Port ${port}`) && /taken.*--port 0/.test(e.message));
  });

  it('an upstream that does not answer: 502 naming it, and an entry saying so', async () => {
    const down = await upstream(() => undefined);
    servers.push(down.server);
    const gone = await upstream(() => undefined);
    await closeServer(gone.server);
    const p = await proxyTo(gone.url);
    const { reply, entry } = await through(p, 'GET', `${p.v3BaseUrl}/verify-token`, {});
    assert.equal(reply.status, 502);
    assert.match(reply.json.message, /did not answer \(ECONNREFUSED\); nothing was resent/);
    assert.equal(entry.kind, 'proxy-error');
    assert.equal(entry.diagnosis[0]?.rule, 'upstream');

    const slow = await proxyTo(down.url, { upstreamTimeoutMs: 300 });
    const r2 = await through(slow, 'GET', `${slow.v3BaseUrl}/verify-token`, {});
    assert.equal(r2.reply.status, 502);
    // The upstream never answers: only the proxy's timer, set with the limit the message names, can end the request.
    assert.match(r2.reply.json.message, /did not answer within 0.3 s/);
  });

  it('an upstream that closes mid-body: the application sees a cut answer (not a hang), the entry names it', async () => {
    const cut = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"partner_id":');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    servers.push(cut.server);
    const p = await proxyTo(cut.url);
    const entry = new Promise<{ kind: string; problem?: string }>((r) => p.log.subscribe((e) => r(e as never)));
    await assert.rejects(fetch(`${p.v3BaseUrl}/verify-token`).then((res) => res.text()));
    const e = await entry;
    assert.equal(e.kind, 'proxy-error');
    assert.match(e.problem ?? '', /closed the connection after 14 bytes/);
  });

  it('an application that goes away before the answer: the upstream request is cancelled, the entry says so, the next one goes through', async () => {
    let cancelled = false;
    let reached = (): void => undefined;
    const atUpstream = new Promise<void>((r) => (reached = r));
    const slow = await upstream((req, res) => {
      if (req.url?.includes('slow')) {
        res.once('close', () => (cancelled = !res.writableFinished));
        return reached(); // and never answers: only the application going away ends this request
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"partner_id":"P","name":"n"}');
    });
    servers.push(slow.server);
    const p = await proxyTo(slow.url);
    const entry = new Promise<{ problem?: string }>((r) => p.log.subscribe((e) => r(e as never)));
    const gone = new AbortController();
    const call = fetch(`${p.v3BaseUrl}/verify-token?slow`, { signal: gone.signal });
    await atUpstream;
    gone.abort();
    await assert.rejects(call);
    assert.match((await entry).problem ?? '', /the application closed its connection before the answer .* ended; the request there was cancelled/);
    await eventually(() => cancelled);
    assert.ok(cancelled, 'the upstream saw its request closed before it answered');
    const next = await through(p, 'GET', `${p.v3BaseUrl}/verify-token`, {});
    assert.equal(next.reply.status, 200);
  });

  it('a 50 MB answer is forwarded whole, and the entry says it was too large to check', async function () {
    this.timeout(60_000);
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    const big = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(50 * chunk.length) });
      let n = 0;
      const more = () => {
        while (n < 50) {
          n++;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      more();
    });
    servers.push(big.server);
    const p = await proxyTo(big.url);
    const entry = new Promise<{ diagnosis: readonly { rule: string; message: string }[] }>((r) => p.log.subscribe((e) => r(e)));
    const res = await fetch(`${p.v3BaseUrl}/verify-token`);
    assert.equal((await res.arrayBuffer()).byteLength, 50 * chunk.length);
    const e = await entry;
    assert.ok(e.diagnosis.some((d) => d.rule === 'size' && /50\.0 MB/.test(d.message)), JSON.stringify(e.diagnosis));
  });

  it('a request body over the cap: 413 from the proxy, not forwarded (declared length) or cut (chunked)', async () => {
    let reached = 0;
    const up = await upstream((req, res) => {
      reached++;
      req.resume();
      req.on('end', () => res.writeHead(201, { 'content-type': 'application/json' }).end('{"id":"x"}'));
      req.on('error', () => undefined);
    });
    servers.push(up.server);
    const p = await proxyTo(up.url, { maxBodyBytes: 1000 });
    const { reply, entry } = await through(p, 'POST', `${p.v3BaseUrl}/tire-protection/registrations`, { 'content-type': 'application/json' }, 'x'.repeat(2000));
    assert.equal(reply.status, 413);
    assert.match(reply.json.message, /2000 bytes is over the proxy's limit of 1000 bytes; it was not forwarded/);
    assert.equal(reached, 0);
    assert.equal(entry.diagnosis[0]?.rule, 'upstream');

    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < 4; i++) c.enqueue(new Uint8Array(600).fill(0x20));
        c.close();
      },
    });
    const res = await fetch(`${p.v3BaseUrl}/tire-protection/registrations`, { method: 'POST', body: stream, headers: { 'content-type': 'application/json' }, duplex: 'half' } as RequestInit);
    assert.equal(res.status, 413);
    assert.match(((await res.json()) as { message: string }).message, /over the proxy's limit of 1000 bytes/);
  });

  it('a path outside the two bases: 404 saying what the proxy forwards', async () => {
    const p = await proxyTo('https://sandbox.example.com/api/v3');
    const { reply } = await through(p, 'GET', `${p.origin}/api/v1/vehicle-lookup/x/rsa/eligible`, {});
    assert.equal(reply.status, 404);
    assert.match(reply.json.message, /forwards version 3 requests under \/api\/v3\//);
    const v2 = await through(p, 'GET', `${p.origin}/v2/partners/x`, {});
    assert.match(v2.reply.json.message, /without --v2-target/);
  });
});
