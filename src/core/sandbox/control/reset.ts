import type { OpsContext } from '../ops/common';
import type { PartnerRecord } from '../ops/partners';
import type { PartnerSpec } from '../sandboxTypes';
import { resetRecords, seedSample } from './data';

/**
 * `POST /__tpp/reset` (docs/testing-your-application.md, Reset): back to the state the sandbox started in. Records,
 * then the partners it started with (`--partner`, their keys as given then) and the sample data it loaded at start
 * (`--seed`, `--seed-count`: a fresh batch of the same size) come back; partners registered since are kept unless
 * `keepPartners` is false. Dropping the startup partners or the startup seed is an explicit choice.
 */

/** What the sandbox was started with. */
export interface StartupState {
  readonly partners: readonly PartnerSpec[];
  /** Sample data loaded before the sandbox was ready: partner and count (absent: the default sample). */
  readonly seeds: readonly { readonly partner: string; readonly count?: number }[];
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
      if (partner && deps.partnerIds().includes(s.partner)) reloaded.push({ partner: s.partner, registrations: (await seedSample(deps.context, partner, s.count)).registrations });
    }
  }
  return { keptPartners: [...deps.partnerIds()], reloaded };
}
