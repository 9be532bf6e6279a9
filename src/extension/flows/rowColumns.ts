import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import { dataDirectiveOf } from '../../core/backfill/directive';
import { RowsError } from '../../core/backfill/rows';
import { FlowFileAccessError, readScopeOf, resolveInScope } from '../../core/flows/projectFiles';
import { allowedReadDirs } from '../services/flowRuns';
import { firstRecordKeys, type DataColumns } from './rowProblems';


type Read = Pick<DataColumns, 'columns' | 'error' | 'missing'>;

/** Data files remembered by their path, modification time and size (a workspace has a few). */
const MAX_CACHED = 64;

const reasonOf = (err: unknown): string => (err instanceof RowsError ? err.message : err instanceof FlowFileAccessError ? err.reason : `cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);

/**
 * Reads the columns of the data files flows name, for the diagnostics and completion of `{{row.<column>}}`. A file is
 * read again only when its modification time or size changed.
 */
export class DataColumnsReader {
  private readonly cache = new Map<string, { readonly stamp: string; readonly read: Promise<Read> }>();

  /**
   * The data file of the flow `uri` (its text `text`) and its columns; undefined when the flow has no `# @data` line.
   * The file must lie in the flow's workspace folder or a folder of `tpp.flows.allowRead` (docs/flows.md, What a flow
   * may do), as for a run. `used`: the columns the flow reads, checked by the reader when the file has no row.
   */
  async of(uri: vscode.Uri, text: string, used: readonly string[]): Promise<DataColumns | undefined> {
    const lines = text.split(/\r\n|\r|\n/);
    const index = lines.findIndex((l) => dataDirectiveOf(l) !== undefined);
    if (index < 0) return undefined;
    const at = { written: dataDirectiveOf(lines[index] as string) as string, line: index + 1 };
    if (uri.scheme !== 'file') return at;
    let real: string;
    let stamp: string;
    try {
      const folder = vscode.workspace.getWorkspaceFolder(uri)?.uri;
      const flowDir = dirname(uri.fsPath);
      real = await resolveInScope(at.written, flowDir, await readScopeOf(folder?.scheme === 'file' ? folder.fsPath : flowDir, allowedReadDirs()));
      const info = await stat(real);
      if (!info.isFile()) return { ...at, error: `${at.written} is not a regular file` };
      stamp = `${info.mtimeMs}:${info.size}`;
    } catch (err) {
      return { ...at, error: reasonOf(err) };
    }
    let entry = this.cache.get(real);
    if (entry?.stamp !== stamp) {
      entry = { stamp, read: this.read(real) };
      this.cache.delete(real);
      if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(real, entry);
    }
    const read = await entry.read;
    if (read.columns || read.error || used.length === 0) return { ...at, ...read };
    // No row: the reader still checks the header against the columns the flow reads, as a run would.
    try {
      await firstRecordKeys(real, used);
      return at;
    } catch (err) {
      return err instanceof RowsError && err.where.column !== undefined ? { ...at, missing: { column: err.where.column, message: err.message } } : { ...at, error: reasonOf(err) };
    }
  }

  private async read(path: string): Promise<Read> {
    try {
      const keys = await firstRecordKeys(path, []);
      return keys ? { columns: keys } : {};
    } catch (err) {
      return { error: reasonOf(err) };
    }
  }
}

