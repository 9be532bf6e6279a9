import type { OpsContext } from '../ops/common';
import type { PartnerRecord } from '../ops/partners';
import type { PartnerSpec } from '../sandboxTypes';
import { resetRecords, seedSample } from './data';

/**
 * `POST /__tpp/reset` (docs/testing-your-application.md, Reset): back to the state the sandbox started in. Records,
 * then the partners it started with (`--partner`, their keys as given then) and the sample data it loaded at start
 * (`--seed`, `--seed-count`: the same sample, stamped with the instant it was first loaded at) come back; partners
 * registered since are kept unless `keepPartners` is false. Dropping the startup partners or the startup seed is an
 * explicit choice. The caller brings the clock back to real time first (./stateRoutes.ts).
 */

/** Sample data loaded before the sandbox was ready: partner, count (absent: the default sample), and the instant it was stamped with. */
export interface StartupSeed {
  readonly partner: string;
  readonly count?: number;
  /** The sandbox clock when it was loaded (ms since epoch): its records' creation times and ids. */
  readonly atMs: number;
}

/** What the sandbox was started with. */
export interface StartupState {
  readonly partners: readonly PartnerSpec[];
  readonly seeds: readonly StartupSeed[];
}

/** What a reset acts on (the control API's dependencies, control/routes.ts). */
export interface ResetDeps {
  readonly context: OpsContext;
  startup(): StartupState;
  partner(id: string): Promise<PartnerRecord | undefined>;
  partnerIds(): readonly string[];
  registerPartner(id: string, spkiPem: string, name?: string): Promise<void>;
  forgetPartners(): void;
}

/** The choices of a reset; each defaults to true. */
export interface ResetChoices {
  readonly keepPartners?: boolean;
  readonly keepStartupPartners?: boolean;
  readonly reloadSeed?: boolean;
}

/** What a reset left: the partners registered after it and the sample data loaded again. */
export interface ResetResult {
  readonly keptPartners: string[];
  readonly reloaded: { readonly partner: string; readonly registrations: number }[];
}

/**
 * Resets the records and partners as {@link ResetChoices} say, then loads the startup seed again.
 * @throws what the database throws (a storage failure answers 503).
 */
export async function resetToStart(deps: ResetDeps, choices: ResetChoices): Promise<ResetResult> {
  const keepRuntime = choices.keepPartners ?? true;
  const keepStartup = choices.keepStartupPartners ?? true;
  const startup = deps.startup();
  const startupIds = new Set(startup.partners.map((p) => p.id));
  if (keepRuntime && keepStartup) {
    await resetRecords(deps.context.db, true);
  } else {
    // Kept partners as they are now (a runtime partner) or as started (a startup partner, below).
    const runtime: PartnerRecord[] = [];
    if (keepRuntime) for (const id of deps.partnerIds()) if (!startupIds.has(id)) runtime.push((await deps.partner(id)) as PartnerRecord);
    await resetRecords(deps.context.db, false);
    deps.forgetPartners();
    for (const p of runtime.filter(Boolean)) await deps.registerPartner(p.id, p.spkiPem, p.name);
  }
  // The startup partners with the keys they were started with, even when a control call replaced one since.
  if (keepStartup) for (const p of startup.partners) await deps.registerPartner(p.id, p.spkiPem, p.name);
  const reloaded: ResetResult['reloaded'][number][] = [];
  if (choices.reloadSeed ?? true) {
    for (const s of startup.seeds) {
      const partner = await deps.partner(s.partner);
      // As it was loaded at start, stamped with that instant: a reset leaves no record newer than the start, so the
      // clock may go back (not before the start) right after it (docs/testing-your-application.md, Time and tokens).
      if (partner && deps.partnerIds().includes(s.partner)) reloaded.push({ partner: s.partner, registrations: (await seedSample(deps.context.at(s.atMs), partner, s.count)).registrations });
    }
  }
  return { keptPartners: [...deps.partnerIds()], reloaded };
}
