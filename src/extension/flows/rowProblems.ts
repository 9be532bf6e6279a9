import { readRows } from '../../core/backfill/rows';
import { textsOf } from '../../core/flows/parseChecks';
import { flowRefs, positionIn } from '../../core/flows/refs';
import type { FlowFile, FlowPosition, FlowProblem } from '../../core/flows/types';

/**
 * What the editor knows of a data-driven flow's rows (docs/flows-editor.md, What the editor checks as `tpp run`
 * does): the `# @data` line, and the columns of its file as core's backfill reader (src/core/backfill/rows.ts) gives
 * them — the CSV header, the keys of the first JSON or NDJSON record — read from disk, as `tpp run` reads it, only up
 * to the first record (the reader refuses a record over 1 MiB).
 */
export interface DataColumns {
  /** The path as the flow writes it, and the 1-based line of its `# @data`. */
  readonly written: string;
  readonly line: number;
  /** The columns; absent when the file has no row or was not read (a flow not saved on disk). */
  readonly columns?: readonly string[];
  /** Why `tpp run` would stop on the file (exit 2): it cannot be read, is not CSV/JSON/NDJSON, or a row is malformed. */
  readonly error?: string;
  /** A file without rows whose header lacks a column the flow reads: the reader's message, at that column's uses. */
  readonly missing?: { readonly column: string; readonly message: string };
}

const ROW_PREFIX = 'row.';

/** The first record of `path` read through the backfill's reader (its keys), or undefined when there is none. */
export async function firstRecordKeys(path: string, columns: readonly string[]): Promise<string[] | undefined> {
  const rows = readRows(path, columns);
  try {
    const first = await rows.next();
    return first.done ? undefined : Object.keys(first.value.values);
  } finally {
    await rows.return(undefined);
  }
}

/** The `{{row.<column>}}` references of a flow (URL, headers, inline bodies, expected values, file variables). */
export function rowReferences(flow: FlowFile): { column: string; raw: string; at: FlowPosition }[] {
  const texts = [...flow.requests.flatMap((r) => textsOf(r)), ...flow.variables.map((v) => ({ text: v.value, at: { line: v.line, column: v.column + v.name.length + 1 } }))];
  const out: { column: string; raw: string; at: FlowPosition }[] = [];
  for (const t of texts) {
    for (const r of flowRefs(t.text)) {
      if (r.ref.kind === 'name' && r.ref.name.startsWith(ROW_PREFIX)) out.push({ column: r.ref.name.slice(ROW_PREFIX.length), raw: r.raw, at: positionIn(t.text, r.start, t.at) });
    }
  }
  return out;
}

/**
 * The problems of a flow's row references against its data file (what `tpp run` refuses before sending, exit 2): a
 * `row.` value without `# @data`, a column the file lacks (naming those it has), a data file that cannot be used.
 * @returns the problems, and the `row.<column>` names to count as known by the check of unknown variables.
 */
export function rowProblems(flow: FlowFile, data: DataColumns | undefined): { names: string[]; problems: FlowProblem[] } {
  const refs = rowReferences(flow);
  const problems: FlowProblem[] = [];
  const problem = (at: FlowPosition, message: string, raw?: string) => problems.push({ file: flow.file, ...at, ...(raw ? { end: { line: at.line, column: at.column + raw.length } } : {}), severity: 'error', code: 'flow-row-column', message });
  if (data?.error) problem({ line: data.line, column: 1 }, `# @data ${data.written}: ${data.error}.`);
  for (const r of refs) {
    if (!data) problem(r.at, `${r.raw}: a row value comes from a data file: name it with a line # @data ./rows.csv (a CSV header, or JSON/NDJSON keys, gives the columns; docs/backfills.md).`, r.raw);
    else if (data.missing?.column === r.column) problem(r.at, `${r.raw}: ${data.missing.message}.`, r.raw);
    else if (data.columns && !data.columns.includes(r.column)) problem(r.at, `${r.raw}: ${data.written} has no column ${r.column} (its columns: ${data.columns.join(', ')}).`, r.raw);
  }
  return { names: [...new Set(refs.map((r) => `${ROW_PREFIX}${r.column}`))], problems };
}
