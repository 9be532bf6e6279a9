import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import type { Exchange } from '../../../src/core/exchange/types';
import { startWatch, type RunningWatch } from '../../../src/core/proxy/watch';
import { Client, startWith } from '../sandbox/helpers';
import { eventually } from '../eventually';

/** Watch My Application's process (docs/proxy.md): the proxy in a process of its own, its exchanges over IPC. */
describe('tpp proxy in its own process (the editor\'s Watch My Application)', function () {
  this.timeout(60_000);
  const childModule = join(__dirname, '../../../src/core/proxy/child.ts');
  let w: RunningWatch | undefined;
  afterEach(async () => w?.stop());

  it('pushes each exchange, with its environment and diagnosis, masked', async () => {
    const { sb, clients } = await startWith({});
    try {
      const c = clients[0] as Client;
      const got: Exchange[] = [];
      w = await startWatch({ childModule, execArgv: ['--import', 'tsx'], proxy: { target: sb.v3BaseUrl, environment: 'production', partners: [{ id: 'P1001', spkiPem: c.key.spkiPem }] }, onExchanges: (xs) => got.push(...xs) });
      const bad = c.token('v3', { aud: w.v3BaseUrl });
      const res = await fetch(`${w.v3BaseUrl}/verify-token`, { headers: { authorization: `Bearer ${bad}` } });
      assert.equal(res.status, 401);
      await eventually(() => got.length >= 1);
      assert.equal(got[0]?.env, 'production');
      assert.equal(got[0]?.source, 'proxy-log');
      assert.deepEqual(got[0]?.diagnosis?.map((d) => d.rule), ['aud']);
      assert.match(got[0]?.diagnosis?.[0]?.message ?? '', /TPP_AUDIENCE/);
      assert.ok(!JSON.stringify(got).includes(bad.split('.')[2] as string), 'no token crosses the channel');
    } finally {
      await sb.close();
    }
  });

  it('a start that fails says why (a target that is not https://)', async () => {
    await assert.rejects(startWatch({ childModule, execArgv: ['--import', 'tsx'], proxy: { target: 'http://sandbox.example.com/api/v3' }, onExchanges: () => undefined }), /must be an https:\/\/ address/);
  });
});
