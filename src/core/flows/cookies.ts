/**
 * The cookie jar of one file's run (docs/flows.md, Format: cookies): the `Set-Cookie` lines of every answer are kept
 * and sent with the later requests they apply to, as REST Client and httpyac keep them (both with tough-cookie through
 * got), unless a request says `# @no-cookie-jar`. A cookie that an answer of the environment set is a value of the
 * user's side (carried.ts): it goes to no host outside the environment unless the user allowed that host.
 */
import type { CookieJar, Cookie } from 'tough-cookie';
import type { CookieJarLike } from '../client/types';
import { PolicyError } from '../client/errors';
import type { EnvironmentAddresses } from '../environments';
import { atEnvironment, hostRefusal } from './carried';
import type { HostPolicy } from './types';

const keyOf = (c: Cookie): string => `${c.domain ?? ''};${c.path ?? ''};${c.key}`;

/** A run's cookies (see the module comment); tough-cookie is loaded with the first cookie kept. */
export class FlowCookieJar implements CookieJarLike {
  private jar: CookieJar | undefined;
  /** The cookies an answer of the environment set, by domain, path and name. */
  private readonly fromEnvironment = new Set<string>();

  constructor(
    private readonly environment: EnvironmentAddresses,
    private readonly hosts: HostPolicy | undefined,
  ) {}

  async cookieHeader(url: URL): Promise<string | undefined> {
    if (!this.jar) return undefined;
    const cookies = await this.jar.getCookies(url.href);
    if (cookies.length === 0) return undefined;
    const theirs = atEnvironment(url, this.environment) ? [] : cookies.filter((c) => this.fromEnvironment.has(keyOf(c)));
    if (theirs.length > 0) {
      const why = await hostRefusal(url.href, theirs.map((c) => ({ kind: 'cookie', name: c.key })), this.environment, this.hosts);
      if (why) throw new PolicyError({ reason: 'cookies-refused', method: 'request', url: url.href, message: `Not sent: ${why}` });
    }
    return this.jar.getCookieString(url.href);
  }

  async store(url: URL, setCookie: readonly string[]): Promise<void> {
    if (!this.jar) {
      const { CookieJar: Jar } = require('tough-cookie') as typeof import('tough-cookie');
      this.jar = new Jar();
    }
    const mine = atEnvironment(url, this.environment);
    for (const line of setCookie) {
      // A cookie the jar cannot keep (another domain, a bad line) is left out, as got leaves it out of later requests.
      const kept = await this.jar.setCookie(line, url.href, { ignoreError: true });
      if (!kept) continue;
      if (mine) this.fromEnvironment.add(keyOf(kept));
      else this.fromEnvironment.delete(keyOf(kept));
    }
  }
}
