import { childErrorOf, exchangePusher, sendToParent } from '../childProcess/childProtocol';
import { startProxy, type ProxyHandle } from './proxyServer';
import type { ProxyChildMessage, ProxyParentMessage } from './watch';

/**
 * Entry of `tpp proxy`'s own process in the editor (dist/proxy-child.js; Watch My Application, docs/proxy.md),
 * forked like the Local sandbox's (../sandbox/child.ts), so that the application's traffic never runs in the
 * extension host. The parent sends one `start` (keys and addresses over IPC, never argv); the child answers `ready`
 * or `startFailed` and pushes its log entries (masked exchanges) in batches. It exits when the parent disconnects.
 */

let handle: ProxyHandle | undefined;
let exiting = false;

const send = (msg: ProxyChildMessage): void => sendToParent(msg);
const push = exchangePusher();

async function shutdown(code: number): Promise<void> {
  if (exiting) return;
  exiting = true;
  const t = setTimeout(() => process.exit(code), 5000);
  await handle?.close().catch(() => undefined);
  clearTimeout(t);
  process.exit(code);
}

if (!process.send) {
  process.stderr.write('proxy-child: must be started by the editor with an IPC channel (child_process.fork)\n');
  process.exit(2);
}
process.on('message', (msg: ProxyParentMessage) => {
  if (msg.type !== 'start') return;
  startProxy(msg.options).then(
    (h) => {
      handle = h;
      h.log.subscribe(push);
      send({ type: 'ready', origin: h.origin, v3BaseUrl: h.v3BaseUrl });
    },
    (err: unknown) => {
      send({ type: 'startFailed', error: childErrorOf(err) });
      void shutdown(1);
    },
  );
});
process.on('disconnect', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));
