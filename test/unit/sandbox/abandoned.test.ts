import { strict as assert } from 'node:assert';
import { request as httpRequest } from 'node:http';
import { Client, request, startWith, tpRegistration, type Reply } from './helpers';

/**
 * A request the client abandons while a scheduled fault holds it (docs/testing-your-application.md, Journal): its
 * `delayMs` or `timeout` outlasts the client's own timeout. It is journalled (status 0, `clientClosed`) and logged the
 * moment the client closes, and a request held before processing is not processed.
 */
describe('Local sandbox: requests the client gives up on while a fault holds them', function () {
  this.timeout(60_000);

  const ctl = (c: Client, method: string, path: string, body?: unknown): Promise<Reply> =>
    request(method, `${c.sb.origin}/__tpp/${path}`, method === 'POST' ? { 'content-type': 'application/json' } : {}, body === undefined ? undefined : JSON.stringify(body));
  const path = '/api/v3/tire-protection/registrations';

  /**
   * POSTs a registration and closes the connection as soon as the sandbox has the whole request (its journal then
   * waits on nothing but the close): a client whose timeout is shorter than the fault's hold.
   */
  const abandon = (c: Client, invoice: string): Promise<void> =>
    new Promise((resolve) => {
      const body = JSON.stringify(tpRegistration(invoice));
      const url = new URL(`${c.sb.v3BaseUrl}/tire-protection/registrations`);
      const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { authorization: `Bearer ${c.token()}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } });
      req.on('error', () => resolve());
      req.on('close', () => resolve());
      req.end(body, () => setImmediate(() => req.destroy()));
    });

  for (const [what, fault] of [
    ['a delayMs alone', { delayMs: 600_000 }],
    ['a delayMs with a 503', { delayMs: 600_000, fault: 503 }],
    ['a timeout', { fault: 'timeout', timeoutMs: 600_000 }],
  ] as const) {
    it(`${what}: journalled and logged when the client closes, status 0, clientClosed; nothing processed`, async () => {
      const lines: string[] = [];
      const { sb, clients } = await startWith({ log: (l) => lines.push(l) });
      const c = clients[0] as Client;
      const [scheduled] = (await ctl(c, 'POST', 'faults', { method: 'POST', path, ...fault })).json.scheduled as { id: number }[];
      await abandon(c, 'GONE-1');
      // The fault holds for ten minutes: the entry can only come from the client's close.
      let journal = (await ctl(c, 'GET', 'requests')).json;
      for (let i = 0; i < 200 && journal.total === 0; i++) {
        await new Promise((r) => setTimeout(r, 25));
        journal = (await ctl(c, 'GET', 'requests')).json;
      }
      assert.equal(journal.total, 1, JSON.stringify(journal));
      const [e] = journal.entries;
      assert.equal(e.status, 0);
      assert.equal(e.fault.id, scheduled?.id);
      assert.equal(e.fault.clientClosed, true);
      assert.equal(e.diagnosis[0].rule, 'fault');
      assert.match(e.diagnosis[0].message, /client closed the connection first.*nothing was processed/);
      assert.ok(lines.some((l) => /^POST \S+ no answer [\d.]+ms$/.test(l)), lines.join('\n'));
      assert.ok(lines.some((l) => l.includes(`scheduled fault #${scheduled?.id}`) && /client closed the connection first/.test(l)), lines.join('\n'));
      assert.deepEqual((await ctl(c, 'GET', 'records?kind=registrations')).json.records, [], 'held before processing: nothing stored');
      assert.deepEqual((await ctl(c, 'GET', 'faults')).json.faults, [], 'the hit was used');
      await sb.close();
    });
  }
});
