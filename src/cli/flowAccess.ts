import { resolve } from 'node:path';
import type { HostPolicy } from '../core/flows/carried';
import { FlowFileAccessError, projectAccess, readScopeOf, type ProjectAccess } from '../core/flows/projectFiles';
import { UsageError } from './io';

/** What the flows of a run may read and where they may send (docs/flows.md, What a flow may do). */
export interface FlowAccess {
  readonly files: ProjectAccess;
  readonly hosts: HostPolicy;
}

/** `--allow-read` and `--allow-host`; an allowed directory that does not exist is a UsageError. */
export async function accessOf(values: { 'allow-read'?: string[]; 'allow-host'?: string[] }, cwd: string): Promise<FlowAccess> {
  const allowRead = (values['allow-read'] ?? []).map((d) => resolve(cwd, d));
  await readScopeOf(cwd, allowRead).catch((err: unknown) => {
    throw err instanceof FlowFileAccessError ? new UsageError(`--allow-read: ${err.reason}`) : err;
  });
  return { files: projectAccess(cwd, allowRead), hosts: { allowed: values['allow-host'] ?? [] } };
}

