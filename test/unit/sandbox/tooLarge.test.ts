import { strict as assert } from 'node:assert';
import { request as httpRequest } from 'node:http';
import { Client, startWith } from './helpers';

/**
 * A body over the limit is answered 413 once the client has sent it, so the client reads the answer instead of
 * failing its upload with EPIPE (docs/sandbox.md, Limits).
 */
describe('Local sandbox: a body too large is a readable 413', function () {
  this.timeout(120_000);

  /** Sends `size` bytes in chunks of 64 KiB, a short pause between some, and resolves with the status or the error. */
  const upload = (url: string, headers: Record<string, string>, size: number, chunked: boolean): Promise<{ status?: number; error?: string }> =>
    new Promise((resolve) => {
      const req = httpRequest(url, { method: 'POST', agent: false, headers: { ...headers, 'content-type': 'application/json', ...(chunked ? {} : { 'content-length': String(size) }) } });
      let status: number | undefined;
      req.on('response', (res) => {
        status = res.statusCode;
        res.resume();
        res.on('end', () => resolve({ status }));
      });
      req.on('error', (err) => resolve({ status, error: (err as NodeJS.ErrnoException).code ?? err.message }));
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let sent = 0;
      const next = (): void => {
        while (sent < size) {
          sent += chunk.length;
          const more = req.write(chunk);
          if (sent % (1024 * 1024) === 0) return void setTimeout(next, 20);
          if (!more) return void req.once('drain', next);
        }
        req.end();
      };
      next();
    });

  it('4 MB to a version 2 endpoint, with and without Content-Length: every client reads the 413', async () => {
    const { sb, clients } = await startWith();
    const c = clients[0] as Client;
    const url = `${sb.origin}/v2/partners/partner1`;
    const outcomes = [];
    for (let i = 0; i < 6; i++) outcomes.push(await upload(url, { authorization: `Bearer ${c.token('v2')}` }, 4 * 1024 * 1024, i % 2 === 1));
    assert.deepEqual(outcomes, Array.from({ length: 6 }, () => ({ status: 413 })));
    assert.equal((await c.call('GET', '/verify-token')).status, 200, 'the sandbox serves on');
    await sb.close();
  });
});
