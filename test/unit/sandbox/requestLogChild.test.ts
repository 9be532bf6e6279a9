import { strict as assert } from 'node:assert';
import { EmbeddedSandbox } from '../../../src/core/sandbox/embedded';
import type { Exchange } from '../../../src/core/exchange/types';
import { childOptions } from './childOptions';
import { Client, newKey } from './helpers';
import { eventually } from '../eventually';

/**
 * The request log crosses the sandbox's process boundary only over the fork's private IPC channel: the
 * editor's side (EmbeddedSandbox) receives every request any client sent, with its diagnosis, masked.
 */
describe('Local sandbox: request log pushed from the child process', function () {
  this.timeout(60_000);
  let e: EmbeddedSandbox | undefined;
  afterEach(async () => e?.stop());

  it('pushes each request, diagnosed and masked, over the IPC channel', async () => {
    const key = newKey('ES256');
    const got: { at: number; x: Exchange }[] = [];
    e = new EmbeddedSandbox({ ...childOptions(), partnerId: 'local-log1', publicKey: async () => key.spkiPem, onExchanges: (xs) => got.push(...xs.map((x) => ({ at: Date.now(), x }))) });
    const info = await e.ensureStarted();
    const c = new Client({ origin: info.origin, v3BaseUrl: info.v3BaseUrl, v2BaseUrl: info.v2BaseUrl } as never, 'local-log1', key);
    const sent = Date.now();
    const ok = await c.call('GET', '/verify-token');
    const answered = Date.now();
    const bad = c.token('v3', { aud: `${info.v3BaseUrl}/` });
    assert.equal(ok.status, 200);
    assert.equal((await c.call('GET', '/verify-token', undefined, { token: bad })).status, 401);
    await eventually(() => got.length >= 2);
    assert.equal(got.length, 2);
    const [first, second] = got.map((g) => g.x) as [Exchange, Exchange];
    assert.equal(first.source, 'sandbox-log');
    assert.equal(first.response?.status, 200);
    assert.equal(first.partner, 'local-log1');
    assert.equal(second.response?.status, 401);
    assert.deepEqual(second.diagnosis?.map((d) => d.rule), ['aud']);
    assert.ok(!JSON.stringify(got).includes(bad.split('.')[2] as string), 'no token crosses the channel');
    console.log(`      request log: first entry in the parent ${(got[0]!.at - answered).toFixed(0)} ms after the answer (${answered - sent} ms request)`);
  });
});
