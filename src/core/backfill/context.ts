/**
 * What every row of a backfill shares (docs/backfills.md): the flow's variable scope made per row (the row's
 * `row.<column>` values added to the outside variables), body files read once, the row's hash, and the gate that a
 * 429 closes for every worker (spec: Errors, 429 with Retry-After: the whole run slows, not one worker).
 */
import { createHash } from 'node:crypto';
import { environmentVariablesOf } from '../flows/variables';
import type { FlowEnvironment, FlowFile, FlowRequest } from '../flows/types';
import type { FlowAnswer, FlowScope } from '../flows/variables';
import { rowVariables, type DataRow } from './rows';

/** A flow scope whose answers the row's sender adds to. */
export type RowScope = FlowScope & { readonly answers: Map<string, FlowAnswer> };

/** A fresh scope for one row: its own answers and resolved file variables. */
export function rowScope(flow: FlowFile, env: FlowEnvironment, variables: Readonly<Record<string, string>>, row: DataRow): RowScope {
  return {
    environment: environmentVariablesOf(env),
    fileVariables: new Map(flow.variables.map((v) => [v.name, v])),
    outside: { ...variables, ...rowVariables(row) },
    answers: new Map<string, FlowAnswer>(),
    resolved: new Map(),
    dynamic: { now: new Date(), random: Math.random },
  };
}

/** The hash of what a row sends: its values of the columns the flow reads (sha256, hex). */
export function rowHash(row: DataRow, columns: readonly string[]): string {
  return createHash('sha256').update(JSON.stringify(columns.map((c) => row.values[c] ?? null))).digest('hex');
}

/** The texts of a request that may hold `{{…}}`: URL, header values, an inline body. */
export function requestTexts(r: FlowRequest): string[] {
  return [r.url, ...r.headers.map((h) => h.value), r.body?.kind === 'inline' ? r.body.text : ''];
}

/**
 * The shared gate: closed for a while after a 429 (its Retry-After, or the client's backoff), during which no worker
 * starts a request. Waits are bounded by the client's own delay, which `maxTotalMs` caps (docs/sending.md, Limits).
 */
export class Gate {
  private openAt = 0;

  /** Closes the gate for `delayMs` from now (a later close wins; an earlier one never shortens it). */
  close(delayMs: number): void {
    this.openAt = Math.max(this.openAt, performance.now() + delayMs);
  }

  /** Resolves when the gate is open. */
  async pass(): Promise<void> {
    for (let wait = this.openAt - performance.now(); wait > 0; wait = this.openAt - performance.now()) await new Promise((r) => setTimeout(r, wait));
  }
}

/** Sha256 (hex) of a flow: its text and the body files it names, in order. */
export async function flowHash(flow: FlowFile, text: string, read: (path: string) => Promise<string>): Promise<string> {
  const h = createHash('sha256').update(text);
  for (const r of flow.requests) {
    if (r.body?.kind !== 'file') continue;
    let content = '';
    try {
      content = await read(r.body.path);
    } catch {
      // an unreadable body file is reported by the check of the flow
    }
    h.update(`\0${r.body.path}\0${content}`);
  }
  return h.digest('hex');
}
