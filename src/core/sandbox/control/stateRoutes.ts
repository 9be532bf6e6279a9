import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { PartnerRecord } from '../ops/partners';
import { seedSample } from './data';
import { parseFixtures, seedFixtures } from './fixtures';
import { bad } from './input';
import { CONTROL_PREFIX, MAX_SEED_BODY_BYTES } from './limits';
import { readRecords } from './records';
import { resetToStart } from './reset';
import { noQuery, parseControl, recordsQuery, resetBody, resetQuery, seedCountBody, seedQuery, snapshotBody, snapshotName } from './schemas';
import { deleteSnapshot, listSnapshots, restoreSnapshot, takeSnapshot } from './snapshots';
import type { ControlDeps } from './deps';

/**
 * The control API's calls on the stored records (docs/testing-your-application.md, Reset, Seed, Snapshots, Records):
 * reset, seed, named snapshots and their restore, and reading stored rows without signing a partner request.
 */

const elapsed = (t0: number) => Math.round((performance.now() - t0) * 10) / 10;

/** The snapshot name of a path. @throws ApiError 400 naming `name`. */
const nameOf = (req: FastifyRequest) => parseControl(snapshotName, (req.params as { name?: string }).name, 'name');

/** Reset and seed. */
function installResetAndSeed(scope: FastifyInstance, deps: ControlDeps): void {
  /** The partner a seed is for: `?partner=`, else the only registered one. */
  const seedPartner = async (req: FastifyRequest): Promise<PartnerRecord> => {
    const id = parseControl(seedQuery, req.query, 'query.').partner ?? (deps.partnerIds().length === 1 ? deps.partnerIds()[0] : undefined);
    if (id === undefined) throw bad('query.partner', `name the partner to seed for (registered: ${deps.partnerIds().join(', ') || 'none'})`);
    const p = await deps.partner(id);
    if (!p) throw bad('query.partner', `no partner '${id}' is registered (POST ${CONTROL_PREFIX}/partners registers one)`);
    return p;
  };
  scope.post(`${CONTROL_PREFIX}/reset`, async (req) => {
    const q = parseControl(resetQuery, req.query, 'query.');
    const body = req.body === undefined || req.body === null ? {} : parseControl(resetBody, req.body);
    const fromQuery = (v: 'true' | 'false' | undefined) => (v === undefined ? undefined : v === 'true');
    const t0 = performance.now();
    // The clock first: nothing the reset stores is stamped with a moved or frozen time.
    deps.clock.reset();
    deps.journal.clear();
    deps.faults.reset();
    const result = await resetToStart(deps, {
      keepPartners: body.keepPartners ?? fromQuery(q.keepPartners),
      keepStartupPartners: body.keepStartupPartners ?? fromQuery(q.keepStartupPartners),
      reloadSeed: body.reloadSeed ?? fromQuery(q.reloadSeed),
    });
    return { reset: true, ...result, ms: elapsed(t0) };
  });
  scope.post(`${CONTROL_PREFIX}/seed`, { bodyLimit: MAX_SEED_BODY_BYTES }, async (req, reply) => {
    const partner = await seedPartner(req);
    if (req.body !== null && typeof req.body === 'object' && !Array.isArray(req.body)) {
      const { count } = parseControl(seedCountBody, req.body);
      return reply.code(201).send({ partner: partner.id, sample: await seedSample(deps.context, partner, count) });
    }
    const fixtures = parseFixtures(req.body);
    return reply.code(201).send({ partner: partner.id, ...(await seedFixtures(deps.context, partner, fixtures)) });
  });
}

/** Snapshots and records. */
export function installStateRoutes(scope: FastifyInstance, deps: ControlDeps): void {
  installResetAndSeed(scope, deps);
  const none = (req: FastifyRequest) => parseControl(noQuery, req.query, 'query.');
  const db = deps.context.db;
  scope.get(`${CONTROL_PREFIX}/snapshots`, async (req) => (none(req), { snapshots: await listSnapshots(db) }));
  scope.post(`${CONTROL_PREFIX}/snapshots`, async (req, reply) => {
    none(req);
    const { name } = parseControl(snapshotBody, req.body);
    const t0 = performance.now();
    const taken = await takeSnapshot(db, name, deps.clock.now(), deps.storage);
    return reply.code(201).send({ ...taken, ms: elapsed(t0) });
  });
  scope.post(`${CONTROL_PREFIX}/snapshots/:name/restore`, async (req) => {
    none(req);
    const name = nameOf(req);
    const t0 = performance.now();
    const restored = await restoreSnapshot(db, name, deps.storage);
    // The partners table came back as it was: the keys held in memory follow it, and the partners the sandbox was
    // started with keep the keys they were started with (as after a reset; a snapshot may come from an earlier run).
    await deps.reloadPartners();
    for (const p of deps.startup().partners) await deps.registerPartner(p.id, p.spkiPem, p.name);
    return { restored: true, ...restored, ms: elapsed(t0) };
  });
  scope.delete(`${CONTROL_PREFIX}/snapshots/:name`, async (req) => {
    none(req);
    const name = nameOf(req);
    await deleteSnapshot(db, name, deps.storage);
    return { deleted: name };
  });
  scope.get(`${CONTROL_PREFIX}/records`, async (req) => readRecords(db, parseControl(recordsQuery, req.query, 'query.')));
}
