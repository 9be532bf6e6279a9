import type { SandboxDb } from '../db/database';
import type { OpsContext } from '../ops/common';
import type { PartnerRecord } from '../ops/partners';
import type { RequestLog } from '../../requestLog/requestLog';
import type { SandboxClock } from './clock';
import type { FaultSchedule } from './faults';
import type { StartupState } from './reset';

/** What the control API acts on: the sandbox's state, handed over by `startSandbox`. */
export interface ControlDeps {
  readonly context: OpsContext;
  /**
   * The database as opened, its writes not announced to the answer cache: for the snapshots' ready copies
   * (./snapshotReady.ts), tables no answer is built from.
   */
  readonly storage: SandboxDb;
  readonly clock: SandboxClock;
  readonly faults: FaultSchedule;
  readonly journal: RequestLog;
  readonly version: string;
  /** Bearer token required on every call but health, when set. */
  readonly adminToken?: string;
  /** What the 401 without it says (AdminOptions.tokenHelp). */
  readonly tokenHelp?: string;
  /** The port the sandbox listens on (the origin its own pages would have). */
  port(): number;
  isReady(): boolean;
  /** The registered partner `id`, or undefined. */
  partner(id: string): Promise<PartnerRecord | undefined>;
  /** Registered Partner IDs. */
  partnerIds(): readonly string[];
  registerPartner(id: string, spkiPem: string, name?: string): Promise<void>;
  /** Forgets the partners held in memory (after a reset without keepPartners). */
  forgetPartners(): void;
  /** Reads the partners and their keys again from the records (after a snapshot's restore). */
  reloadPartners(): Promise<void>;
  /** The partners and sample data the sandbox was started with (a reset goes back to them). */
  startup(): StartupState;
}
