import type { ProxyHandle } from '../../../src/core/proxy/proxyServer';
import type { ProxyLogEntry } from '../../../src/core/proxy/proxyLog';
import type { RequestLogEntry } from '../../../src/core/requestLog/requestLog';
import { request, type Reply } from '../sandbox/helpers';

/** Sends one request to the proxy and resolves with its answer and its log entry. */
export async function through(proxy: ProxyHandle, method: string, url: string, headers: Record<string, string>, body?: string): Promise<{ reply: Reply; entry: ProxyLogEntry }> {
  const entry = new Promise<ProxyLogEntry>((resolve) => {
    const off = proxy.log.subscribe((e: RequestLogEntry) => {
      off();
      resolve(e as ProxyLogEntry);
    });
  });
  const reply = await request(method, url, headers, body);
  return { reply, entry: await entry };
}

