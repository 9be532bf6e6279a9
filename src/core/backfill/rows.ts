/**
 * The rows of a data-driven flow (docs/backfills.md, Data files): `# @data ./sales-2025.csv` in the flow (or `tpp run
 * --data`) names a CSV file with a header row, a `.json` array of objects or an `.ndjson` file (one object a line);
 * requests read a row's values as `{{row.<column>}}`. Files are streamed: a row is read, used and dropped, so a 1 GB
 * file keeps memory flat. A byte order mark is skipped; quoted CSV fields may hold line breaks. Every problem names
 * the row (1-based, the header not counted), the line and the column.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { parse } from 'csv-parse';
import { flowRefs } from '../flows/refs';
import { jsonArrayElements, JsonRowsError, MAX_ROW_CHARS } from './jsonRows';

/** One row: its 1-based number, the 1-based line it starts on, and its values by column. */
export interface DataRow {
  readonly number: number;
  readonly line: number;
  readonly values: Readonly<Record<string, string>>;
}

/** A data file that cannot be used; `row`/`line`/`column` say where, when known. */
export class RowsError extends Error {
  override readonly name = 'RowsError';
  constructor(
    readonly file: string,
    readonly reason: string,
    readonly where: { readonly row?: number; readonly line?: number; readonly column?: string } = {},
  ) {
    const at = [where.row !== undefined && `row ${where.row}`, where.line !== undefined && `line ${where.line}`, where.column !== undefined && `column ${where.column}`].filter(Boolean).join(', ');
    super(`${file}${at ? ` (${at})` : ''}: ${reason}`);
  }
}

const ROW_PREFIX = 'row.';

export { dataDirectiveOf } from './directive';

/** The columns `{{row.<column>}}` references in `texts` read, in first-use order. */
export function columnsUsed(texts: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const t of texts) for (const r of flowRefs(t)) if (r.ref.kind === 'name' && r.ref.name.startsWith(ROW_PREFIX)) out.add(r.ref.name.slice(ROW_PREFIX.length));
  return [...out];
}

/** The variables of a row as the flow reads them: `row.<column>` → value. */
export function rowVariables(row: DataRow): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(row.values)) out[`${ROW_PREFIX}${k}`] = v;
  return out;
}

type Format = 'csv' | 'json' | 'ndjson';

/** The format of a data file by its extension. @throws RowsError for another extension. */
export function formatOf(file: string): Format {
  const ext = /\.([^./\\]+)$/.exec(file)?.[1]?.toLowerCase();
  if (ext === 'csv' || ext === 'json' || ext === 'ndjson') return ext;
  if (ext === 'jsonl') return 'ndjson';
  throw new RowsError(file, 'a data file is .csv (with a header row), .json (an array of objects) or .ndjson (one object a line)');
}

const text = (v: unknown): string => (typeof v === 'string' ? v : v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

/** A parsed JSON row: an object whose values become strings. */
function objectRow(file: string, json: string, number: number, line: number, columns: readonly string[]): DataRow {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (err) {
    throw new RowsError(file, `not JSON: ${(err as Error).message}`, { row: number, line });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new RowsError(file, 'a row must be a JSON object of column: value', { row: number, line });
  const values: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) values[k] = text(v);
  const missing = columns.find((c) => !Object.hasOwn(values, c));
  if (missing !== undefined) throw new RowsError(file, `the row has no ${missing}, which the flow reads as {{row.${missing}}}`, { row: number, line, column: missing });
  return { number, line, values };
}

async function* csvRows(file: string, columns: readonly string[]): AsyncGenerator<DataRow> {
  const parser = createReadStream(file).pipe(parse({ bom: true, relax_column_count: true, info: true, skip_empty_lines: true, max_record_size: MAX_ROW_CHARS }));
  let header: string[] | undefined;
  let number = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      if (!header) {
        header = record.map((h) => h.trim());
        const missing = columns.find((c) => !header?.includes(c));
        if (missing !== undefined) throw new RowsError(file, `the header has no column ${missing}, which the flow reads as {{row.${missing}}} (columns: ${header.join(', ')})`, { line: 1, column: missing });
        continue;
      }
      number++;
      if (record.length !== header.length) throw new RowsError(file, `the row has ${record.length} field${record.length === 1 ? '' : 's'}, the header ${header.length}: a comma too many or too few, or a quote not closed`, { row: number, line: info.lines, column: header[Math.min(record.length, header.length - 1)] });
      const values: Record<string, string> = {};
      header.forEach((h, i) => (values[h] = record[i] as string));
      yield { number, line: info.lines, values };
    }
  } catch (err) {
    if (err instanceof RowsError) throw err;
    const e = err as Error & { lines?: number; code?: string };
    throw new RowsError(file, `not CSV: ${e.message}`, { row: number + 1, ...(e.lines !== undefined ? { line: e.lines } : {}) });
  } finally {
    parser.destroy();
  }
  if (!header) throw new RowsError(file, 'the data file is empty: a CSV file starts with a header row naming the columns');
}

async function* jsonRows(file: string, columns: readonly string[]): AsyncGenerator<DataRow> {
  let number = 0;
  try {
    for await (const el of jsonArrayElements(createReadStream(file, 'utf8'))) yield objectRow(file, el.text, ++number, el.line, columns);
  } catch (err) {
    if (err instanceof JsonRowsError) throw new RowsError(file, err.reason, { line: err.line });
    throw err;
  }
}

async function* ndjsonRows(file: string, columns: readonly string[]): AsyncGenerator<DataRow> {
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let number = 0;
  let line = 0;
  try {
    for await (const l of lines) {
      line++;
      const t = (line === 1 ? l.replace(/^\uFEFF/, '') : l).trim();
      if (t === '') continue;
      if (t.length > MAX_ROW_CHARS) throw new RowsError(file, `a row is longer than ${MAX_ROW_CHARS} characters`, { row: number + 1, line });
      yield objectRow(file, t, ++number, line, columns);
    }
  } finally {
    lines.close();
  }
  if (line === 0) throw new RowsError(file, 'the data file is empty');
}

/**
 * The rows of `file`, streamed, in file order.
 * @param columns the columns the flow reads: a CSV header without one is refused before any row, a JSON row without one is refused at that row.
 * @throws RowsError (from the iteration) naming the row, line and column: an empty file, a ragged CSV row, a column
 *   missing, a row that is not an object, a row over 1 MiB; the file system's errors (ENOENT…) as they are.
 */
export function readRows(file: string, columns: readonly string[]): AsyncGenerator<DataRow> {
  const format = formatOf(file);
  return format === 'csv' ? csvRows(file, columns) : format === 'json' ? jsonRows(file, columns) : ndjsonRows(file, columns);
}
