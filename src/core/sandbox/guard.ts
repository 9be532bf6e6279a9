import type { FastifyInstance } from 'fastify';
import { isLoopbackHost } from '../client/urlPolicy';
import { errorBody } from './replies';
import { foreignHostMessage, hostIsLoopback, MAX_CONNECTIONS } from '../serverGuards/guards';

/**
 * The first check of every request to the Local sandbox (docs/testing-your-application.md, Security): connections are
 * capped, and on a loopback bind a request whose Host is not a loopback name at the sandbox's port answers 421 before
 * anything else sees it (not journalled, no body read): a web page whose own host name was made to resolve to
 * 127.0.0.1 (DNS rebinding) still sends that name. Off a loopback bind (a container's `--host 0.0.0.0`) clients call
 * it by any name, and the admin token guards the control API instead.
 */

/** Host header values found good, kept so that a client's every request is not parsed again (a few: 127.0.0.1, localhost, [::1]). */
const KEPT_HOSTS = 8;

/** Installs the guard on `app`, before every other hook. `portOf` is the port it listens on (known once it does). */
export function guardServer(app: FastifyInstance, bindHost: string, portOf: () => number): void {
  app.server.maxConnections = MAX_CONNECTIONS;
  if (!isLoopbackHost(bindHost)) return;
  // The values a client sends are few and the same on each request: a hit costs a lookup, not a URL parse. Only
  // values found good are kept, at most KEPT_HOSTS, so no caller makes it grow.
  const good = new Set<string>();
  // fastify's callback form: no promise per request.
  app.addHook('onRequest', (req, reply, done) => {
    const host = req.headers.host;
    if (host !== undefined && good.has(host)) return done();
    if (hostIsLoopback(host, portOf())) {
      if (good.size < KEPT_HOSTS && host !== undefined) good.add(host);
      return done();
    }
    void reply.code(421).send(errorBody(421, foreignHostMessage('This sandbox', host, portOf())));
  });
}
