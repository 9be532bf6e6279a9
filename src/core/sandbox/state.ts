import Fastify, { FastifyInstance, FastifyRequest } from 'fastify';
import type { EndpointDef } from '../contract';
import { VerifiedTokenCache } from './auth';
import { importPartnerKey, type PartnerKey } from '../jwt/partnerKey';
import { SandboxDb } from './db/database';
import { openStorage } from './db/open';
import { OpsContext } from './ops/common';
import { PartnerRecord, allPartners, findPartner, upsertPartner } from './ops/partners';
import { FaultInjector, RateLimiter } from './realism';
import { BASE_PREFIX } from './routes';
import { logSafe } from './replies';
import { RequestLog } from '../requestLog/requestLog';
import { DEFAULT_TERM_MONTHS } from './model';
import type { SandboxOptions } from './sandboxTypes';
import { SandboxClock } from './control/clock';
import { FaultSchedule } from './control/faults';
import { JOURNAL_LIMIT } from './control/journal';
import { controlEnabled, timeLimits } from './control/security';
import { guardServer } from './guard';
import { AnswerCache, announcingWrites } from './db/answerCache';
import { AnswerWarmer } from './answerWarmer';
import type { StartupSeed } from './control/reset';

/**
 * What one running Local sandbox holds (./server.ts starts it): its storage, clock, partners and their keys, the
 * eligibility token, the request log and the control API's schedule. The installers (./gate.ts, ./partnerRoutes.ts,
 * control/routes.ts) read and change it through this one object, never through locals they share.
 */

/** Largest request body, in bytes (413 beyond). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** A sandbox's state. Build it with {@link openSandboxState}. */
export class SandboxState {
  /** One clock for everything time-dependent; the control API moves it (control/clock.ts). */
  readonly clock: SandboxClock;
  readonly now: () => number;
  /** The waits of injected faults (SandboxOptions.sleep). */
  readonly sleep: (ms: number) => Promise<void>;
  readonly log?: (line: string) => void;
  readonly partners = new Map<string, PartnerRecord>();
  readonly keys = new Map<string, PartnerKey>();
  readonly tokenCache = new VerifiedTokenCache();
  readonly limiter?: RateLimiter;
  /** `--fault-rate` (random faults). */
  readonly injector?: FaultInjector;
  /** The control API's scheduled faults; undefined when the control API is off. */
  readonly schedule?: FaultSchedule;
  readonly requestLog?: RequestLog;
  /** What a reset goes back to (control/reset.ts): the sample data loaded before ready, and the instant it was stamped with. */
  readonly startupSeeds: StartupSeed[] = [];
  readonly app: FastifyInstance;
  readonly host: string;
  eligibilityToken?: string;
  ready: boolean;
  port: number;
  warmer?: AnswerWarmer;

  constructor(
    readonly opts: SandboxOptions,
    /** The database as opened (writes not announced to the answer cache). */
    readonly storage: SandboxDb,
    /** Answers kept between writes, only where this process is the one writer (./db/answerCache.ts). */
    readonly answers: AnswerCache | undefined,
    readonly context: OpsContext,
    clock: SandboxClock,
  ) {
    this.clock = clock;
    this.now = clock.now;
    this.sleep = opts.sleep ?? ((ms) => new Promise<void>((r) => setTimeout(r, ms).unref()));
    this.log = opts.log ? (line: string) => opts.log?.(logSafe(line)) : undefined;
    this.host = opts.host ?? '127.0.0.1';
    this.port = opts.port ?? 0;
    this.eligibilityToken = opts.eligibilityToken;
    this.ready = !opts.admin?.starting;
    this.limiter = opts.rateLimitPerSecond && opts.rateLimitPerSecond > 0 ? new RateLimiter(opts.rateLimitPerSecond) : undefined;
    this.injector = opts.faults ? new FaultInjector(opts.faults) : undefined;
    this.schedule = controlEnabled(this.host, opts.admin) ? new FaultSchedule() : undefined;
    // With the control API on, the log is also its journal: at least JOURNAL_LIMIT entries.
    const limit = this.schedule ? Math.max(opts.requestLog?.limit ?? 0, JOURNAL_LIMIT) : opts.requestLog?.limit;
    this.requestLog = opts.requestLog || this.schedule ? new RequestLog({ limit }) : undefined;
    const app = Fastify({ logger: false, bodyLimit: MAX_BODY_BYTES, forceCloseConnections: true, return503OnClosing: true, routerOptions: { maxParamLength: 8192 }, ...timeLimits(opts.requestTimeoutMs) });
    this.app = app;
    guardServer(app, this.host, () => this.port);
  }

  /** The database: writes announced to the answer cache when there is one. */
  get db(): SandboxDb {
    return this.context.db;
  }

  /** Registers (or replaces) a partner's key; see SandboxHandle.registerPartner. */
  readonly registerPartner = async (id: string, spkiPem: string, name?: string): Promise<void> => {
    if (!id || /[\s/]/.test(id)) throw new Error(`Invalid Partner ID '${id}': no spaces or slashes`);
    const key = await importPartnerKey(spkiPem);
    const existing = this.partners.get(id);
    const segment = name ?? existing?.name ?? id;
    if (!existing || existing.spkiPem !== spkiPem || existing.name !== segment) this.partners.set(id, await upsertPartner(this.context, id, spkiPem, segment));
    this.keys.set(id, key);
  };

  /** Forgets the partners held in memory and reads them (with their keys) from the records again. */
  readonly reloadPartners = async (): Promise<void> => {
    const stored = await allPartners(this.context);
    this.partners.clear();
    this.keys.clear();
    for (const p of stored) {
      this.partners.set(p.id, p);
      const key = await importPartnerKey(p.spkiPem).catch(() => undefined);
      // a key stored by an earlier run that no longer imports: that partner must register again
      if (key) this.keys.set(p.id, key);
    }
  };

  /** The partner of a verified token; a partner registered by another sandbox on a shared server is read on first use. */
  readonly partnerOf = async (id: string): Promise<PartnerRecord | undefined> => {
    const known = this.partners.get(id);
    if (known) return known;
    const p = await findPartner(this.context, id);
    if (p) this.partners.set(id, p);
    return p;
  };

  /** The origin a request called (its Host), which a token's `aud` must name. */
  origin(req: FastifyRequest): string {
    return `http://${req.headers.host ?? `${this.host}:${this.port}`}`;
  }

  /** The `aud` a token must carry on a route of `group` (spec: Authentication; v3 base or the v2 origin). */
  audienceOf(req: FastifyRequest, group: readonly EndpointDef[]): string {
    return group[0]?.base === 'v3' ? `${this.origin(req)}${BASE_PREFIX.v3}` : this.origin(req);
  }

  /** Stops the warmer and closes the server and the database. */
  async close(): Promise<void> {
    this.warmer?.stop();
    try {
      await this.app.close();
    } finally {
      await this.db.close();
    }
  }
}

/**
 * Opens the storage and builds the state, with the partners stored by an earlier run (a key that no longer imports is
 * skipped: that partner must register again) and those of `opts.partners`, then the startup sample data.
 * @throws what opening the storage throws, or an invalid partner key; nothing stays open then.
 */
export async function openSandboxState(opts: SandboxOptions): Promise<SandboxState> {
  const clock = new SandboxClock(opts.now ?? Date.now);
  const log = opts.log ? (line: string) => opts.log?.(logSafe(line)) : undefined;
  const storage = await openStorage({ dataDir: opts.dataDir, database: opts.database, log });
  const answers = storage.kind === 'pglite' ? new AnswerCache() : undefined;
  const context = new OpsContext(answers ? announcingWrites(storage, answers) : storage, clock.now, opts.termMonths ?? DEFAULT_TERM_MONTHS);
  const s = new SandboxState(opts, storage, answers, context, clock);
  if (answers) {
    const warmer = new AnswerWarmer(context, answers, () => s.partners.keys());
    s.warmer = warmer;
    answers.afterWrite(() => warmer.schedule());
    clock.onChange(() => (answers.clear(), warmer.schedule()));
  }
  try {
    await s.reloadPartners();
    for (const p of opts.partners ?? []) await s.registerPartner(p.id, p.spkiPem, p.name);
  } catch (err) {
    await s.close().catch(() => undefined);
    throw err;
  }
  return s;
}
