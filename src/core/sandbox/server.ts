import type { FastifyReply, FastifyRequest } from 'fastify';
import { installErrorReplies } from './replies';
import type { PartnerRecord } from './ops/partners';
import { loadSampleData } from './seed';
import { installJsonBodies, installRequestLog } from './requestLogHooks';
import { select } from './ops/registrations';
import type { SandboxHandle, SandboxOptions } from './sandboxTypes';
import { installControl, installHealth } from './control/routes';
import { callableOrigin, sandboxAddresses } from './addresses';
import { installGate } from './gate';
import { installPartnerRoutes } from './partnerRoutes';
import { openSandboxState, SandboxState } from './state';

export { BASE_PREFIX } from './routes';
export { MAX_RESPONSE_BYTES, logSafe } from './replies';
export { zodIssues } from './routes';
export { writePgliteTemplate } from './db/pglite';
export { MAX_BODY_BYTES } from './state';
export type { PartnerSpec, SandboxHandle, SandboxOptions } from './sandboxTypes';

/**
 * The Local sandbox HTTP server (spec: Endpoints; Authentication; Errors). Routes come from the contract's endpoint
 * table; records live in a real database (PGlite in memory or under a data directory, or a PostgreSQL server).
 * Every request is authenticated before its body is read; every write is one transaction; a storage failure answers
 * 503 with Retry-After and stores nothing. Its state is one object (./state.ts); installers add the request log,
 * the partner gate and routes (./gate.ts, ./partnerRoutes.ts) and the control API (control/routes.ts).
 */

/** Installs the request log's hooks: returns the recorder of a request that gets no answer. */
function installLog(s: SandboxState): ((req: FastifyRequest, reply: FastifyReply) => void) | undefined {
  if (!s.requestLog) return void installJsonBodies(s.app, false);
  return installRequestLog(s.app, s.requestLog, {
    now: s.now,
    arrivedAt: (ms) => s.clock.ago(ms),
    audienceOf: (req, group) => s.audienceOf(req, group),
    keyOf: (iss) => s.keys.get(iss)?.key,
    partnerIds: () => [...s.keys.keys()],
    findRegistration: async (partner, invoiceNumber, storeNumber) => (await select(s.context, partner, { invoiceNumber, storeNumber }))._id,
  });
}

/** The control API (with its journal and schedule) when on; else health alone, unless `--no-admin`. */
function installControlApi(s: SandboxState): void {
  const version = s.opts.version ?? 'dev';
  if (s.schedule && s.requestLog) {
    installControl(s.app, {
      context: s.context, storage: s.storage, clock: s.clock, faults: s.schedule, journal: s.requestLog, version, adminToken: s.opts.admin?.token, tokenHelp: s.opts.admin?.tokenHelp, port: () => s.port,
      isReady: () => s.ready, partner: s.partnerOf, partnerIds: () => [...s.keys.keys()], registerPartner: s.registerPartner,
      forgetPartners: () => (s.partners.clear(), s.keys.clear()), reloadPartners: s.reloadPartners, startup: () => ({ partners: s.opts.partners ?? [], seeds: s.startupSeeds }),
    });
  } else if (s.opts.admin?.enabled !== false) installHealth(s.app, { context: s.context, version, isReady: () => s.ready });
}

/** The handle of a listening sandbox. */
function handleOf(s: SandboxState): SandboxHandle {
  let closed = false;
  return {
    ...sandboxAddresses(callableOrigin(s.host, s.port)),
    context: s.context,
    requestLog: s.requestLog,
    registerPartner: s.registerPartner,
    setReady: () => {
      s.ready = true;
    },
    setEligibilityToken: (token) => {
      s.eligibilityToken = token || undefined;
    },
    loadSampleData: async (partnerId, count) => {
      const partner = await s.partnerOf(partnerId);
      if (!partner) throw new Error(`Unknown partner ${partnerId}`);
      if (s.ready) return loadSampleData(s.context, partner, count);
      // Sample data of the start: a reset loads it again as it was, stamped with the instant it was loaded at.
      const atMs = s.now();
      s.startupSeeds.push({ partner: partnerId, count, atMs });
      return loadSampleData(s.context.at(atMs), partner, count);
    },
    async close() {
      if (closed) return;
      closed = true;
      await s.close();
    },
  };
}

/**
 * Starts the Local sandbox. Resolves once it listens; rejects when the port is taken, the data directory is in use
 * (Error named 'DataDirInUse'), corrupt or of an unknown schema version ('SandboxDataError'), the database server is
 * unreachable, or a partner key is invalid. The caller must `close()` it.
 */
export async function startSandbox(opts: SandboxOptions = {}): Promise<SandboxHandle> {
  const s = await openSandboxState(opts);
  try {
    for (const p of opts.seedCount && opts.seedCount > 0 ? (opts.partners ?? []) : []) {
      const atMs = s.now();
      await loadSampleData(s.context.at(atMs), s.partners.get(p.id) as PartnerRecord, opts.seedCount);
      s.startupSeeds.push({ partner: p.id, count: opts.seedCount, atMs });
    }
    // No JSON body is taken as text: a text/plain body answers 415 (docs/sandbox.md).
    s.app.removeContentTypeParser('text/plain');
    installErrorReplies(s.app, s.log);
    const gate = installGate(s, installLog(s));
    installControlApi(s);
    installPartnerRoutes(s, gate);
    await s.app.listen({ host: s.host, port: s.port });
  } catch (err) {
    await s.close().catch(() => undefined);
    throw err;
  }
  const address = s.app.server.address();
  s.port = typeof address === 'object' && address ? address.port : s.port;
  s.warmer?.schedule();
  return handleOf(s);
}
