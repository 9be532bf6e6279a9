import { strict as assert } from 'node:assert';
import { OrderedLog, ProxyLogEntry } from '../../../src/core/proxy/proxyLog';
import { RequestLog } from '../../../src/core/requestLog/requestLog';

/** The proxy's log order (docs/proxy.md): entries in the order the answers ended, each place filled once. */

const entry = (path: string) => new ProxyLogEntry({ method: 'GET', url: `https://sandbox.example${path}`, path, headers: {}, status: 200, responseHeaders: {}, ms: 1 }, [], Date.UTC(2026, 0, 1), { environment: 'sandbox', kind: 'request', responseBytes: 0 });

describe('the proxy log order', () => {
  it('publishes entries in ticket order whatever order they are handed in, and each place once', () => {
    const log = new RequestLog();
    const seen: string[] = [];
    log.subscribe((e) => seen.push(e.path));
    const ordered = new OrderedLog(log);
    const [a, b, c] = [ordered.take(), ordered.take(), ordered.take()];
    ordered.put(c, entry('/c'));
    ordered.put(b, entry('/b'));
    assert.deepEqual(seen, []);
    ordered.put(a, entry('/a'));
    assert.deepEqual(seen, ['/a', '/b', '/c']);
    // A place handed in twice (an entry built, then a stand-in after a failure) is published once, with the first.
    ordered.put(b, entry('/b-again'));
    const [d, e] = [ordered.take(), ordered.take()];
    ordered.put(e, entry('/e'));
    ordered.put(e, entry('/e-stand-in'));
    ordered.put(d, entry('/d'));
    assert.deepEqual(seen, ['/a', '/b', '/c', '/d', '/e']);
  });
});
