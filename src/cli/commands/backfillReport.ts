/**
 * The reports of a backfill (docs/backfills.md, Report), written row by row as rows end so that a run of a million
 * rows never holds its results: `pretty` (a line per row, a progress line on a terminal), `json` (`{"rows": [...],
 * "summary": {...}}`) and `junit` (one testcase per row; the summary line in the suite's closing system-out, since counts
 * are known only at the end, and JUnit readers count the testcases). Messages are the client's, secrets already masked.
 */
import type { BackfillProgress, BackfillSummary, RowProblem, RowResult, RowStatus } from '../../core/backfill/types';
import { xmlText } from './runReport';

/** A streaming report. */
export interface BackfillReporter {
  begin(): string;
  row(r: RowResult): string;
  /** `stoppedBy`: the signal that stopped the run, when one did. */
  end(s: BackfillSummary, stoppedBy?: string): string;
}

const MARKS: Readonly<Record<RowStatus, string>> = { created: '✔', recovered: '✔', refused: '✘', failed: '✘', skipped: '-', unknown: '?', changed: '!', cancelled: '-', conflict: '✘' };

/** One bad row of the check pass. */
export function problemLines(file: string, problems: readonly RowProblem[]): string {
  return problems.map((p) => `${file}:${p.line}: row ${p.row}${p.column !== undefined ? `, column ${p.column}` : ''}: ${p.rule}: ${p.message} (${p.request})\n`).join('');
}

/** One row as a line. */
export function prettyRow(r: RowResult): string {
  const what = r.status === 'created' || r.status === 'recovered' ? `${r.status}${r.id !== undefined ? ` ${r.id}` : ''}` : `${r.status}${r.http !== undefined ? ` ${r.http}` : ''}`;
  const key = r.key !== undefined && !r.key.startsWith('values ') ? `, ${r.key}` : '';
  return `${MARKS[r.status]} row ${r.row} (line ${r.line}${key}) ${what}${r.resumed ? ' (resumed)' : ''}${r.message && r.status !== 'created' ? `: ${r.message}` : ''}\n`;
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

/** The summary line; `stoppedBy` names the signal that stopped the run, when one did. */
export function summaryLine(s: BackfillSummary, stoppedBy?: string): string {
  const stop = s.stopped ? `Stopped${stoppedBy ? ` (${stoppedBy})` : ''}: ` : '';
  if (s.notSent && s.stopped) return `${stop}nothing was sent (${s.rows} rows checked before the stop, ${seconds(s.durationMs)})\n`;
  if (s.notSent) return `${s.rows} rows checked, ${s.invalid} invalid: nothing was sent${s.invalid > 0 ? ' (fix them, or send the others with --skip-invalid)' : ''} (${seconds(s.durationMs)})\n`;
  const parts = [`${s.created} created`, s.recovered && `${s.recovered} recovered`, s.done && `${s.done} already done`, s.refused && `${s.refused} refused`, s.conflict && `${s.conflict} conflict (stored with other values)`, s.failed && `${s.failed} failed`, s.skipped && `${s.skipped} skipped (invalid)`, s.unknown && `${s.unknown} outcome unknown`, s.changed && `${s.changed} changed since the journal`, s.cancelled && `${s.cancelled} cancelled mid-row`].filter(Boolean);
  const left = s.stopped ? `; ${s.unsent} of ${s.rows} rows were not sent${s.cancelled ? ` and ${s.cancelled} stopped mid-row` : ''}: continue with --resume` : '';
  return `${stop}${parts.join(', ')} (${s.rows} rows in ${seconds(s.durationMs)})${left}\n`;
}

/** The progress line of a terminal: rows done/total, rate, ETA, failures. */
export function progressLine(p: BackfillProgress): string {
  const eta = p.etaMs !== undefined ? `, ${Math.ceil(p.etaMs / 1000)} s left` : '';
  return `\r\x1b[2K${p.done}/${p.total} rows, ${p.rate.toFixed(1)} rows/s${eta}${p.failed ? `, ${p.failed} not done` : ''}`;
}

const rowJson = (r: RowResult) => JSON.stringify(r);

/** A reporter by name. `flow` and `timestamp` label the JUnit suite. */
export function backfillReporter(kind: 'pretty' | 'json' | 'junit', flow: string, timestamp: string): BackfillReporter {
  if (kind === 'pretty') return { begin: () => '', row: prettyRow, end: summaryLine };
  if (kind === 'json') {
    let first = true;
    return {
      begin: () => '{\n  "rows": [',
      row: (r) => {
        const out = `${first ? '' : ','}\n    ${rowJson(r)}`;
        first = false;
        return out;
      },
      end: (s, stoppedBy) => `\n  ],\n  "summary": ${JSON.stringify(stoppedBy ? { ...s, stoppedBy } : s)}\n}\n`,
    };
  }
  return {
    begin: () => `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="tpp run --data">\n  <testsuite name="${xmlText(flow)}" timestamp="${timestamp}">\n`,
    row: (r) => {
      const attrs = `name="row ${r.row}" classname="${xmlText(flow)}" line="${r.line}" time="${(r.durationMs / 1000).toFixed(3)}"`;
      const msg = xmlText(`${r.status}${r.http !== undefined ? ` ${r.http}` : ''}${r.message ? `: ${r.message}` : ''}`);
      if (r.status === 'created' || r.status === 'recovered') return `    <testcase ${attrs}><system-out>${xmlText(`${r.status}${r.id !== undefined ? ` ${r.id}` : ''}`)}</system-out></testcase>\n`;
      if (r.status === 'skipped' || r.status === 'cancelled') return `    <testcase ${attrs}><skipped message="${msg}"/></testcase>\n`;
      if (r.status === 'refused' || r.status === 'conflict') return `    <testcase ${attrs}><failure type="${r.status}" message="${msg}">${msg}</failure></testcase>\n`;
      return `    <testcase ${attrs}><error type="${r.status}" message="${msg}">${msg}</error></testcase>\n`;
    },
    end: (s, stoppedBy) => `    <system-out>${xmlText(summaryLine(s, stoppedBy))}</system-out>\n  </testsuite>\n</testsuites>\n`,
  };
}
