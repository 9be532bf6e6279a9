/**
 * The reports of `tpp run` (docs/flows.md, Reporters): `pretty` for people (a progress line on a terminal, plain lines
 * otherwise), `junit` (JUnit XML as GitHub, GitLab and Jenkins read it: a testsuite per file, a testcase per request,
 * times in seconds) and `json` (every result with its Exchange, secrets already masked).
 */
import type { RequestResult } from '../../core/flows/types';

/** Counts of a run. */
export interface RunSummary {
  readonly passed: number;
  readonly failed: number;
  readonly errored: number;
  readonly skipped: number;
  readonly files: number;
  readonly durationMs: number;
}

/** Counts the outcomes of `results`. */
export function summarize(results: readonly RequestResult[], durationMs: number): RunSummary {
  const count = (o: RequestResult['outcome']) => results.filter((r) => r.outcome === o).length;
  return { passed: count('passed'), failed: count('failed'), errored: count('errored'), skipped: count('skipped'), files: new Set(results.map((r) => r.file)).size, durationMs };
}

const MARKS: Readonly<Record<RequestResult['outcome'], string>> = { passed: '✔', failed: '✘', errored: '!', skipped: '-' };

/** One result as plain lines: a mark, where, the label, status and time; then why, indented. */
export function prettyResult(r: RequestResult): string {
  const status = r.exchange?.response ? ` → ${r.exchange.response.status}` : '';
  const time = r.outcome === 'skipped' ? '' : ` · ${r.durationMs} ms`;
  let out = `${MARKS[r.outcome]} ${r.file}:${r.request.line} ${r.request.label}${status}${time}\n`;
  if (r.outcome === 'failed') for (const a of r.assertions.filter((x) => !x.passed)) out += `    ${a.assertion.line ? `line ${a.assertion.line}: ` : ''}${a.message}\n`;
  else if (r.message && r.outcome !== 'passed') out += `    ${r.message}\n`;
  return out;
}

/** The closing line of the pretty report. */
export function prettySummary(s: RunSummary): string {
  const parts = [`${s.passed} passed`, s.failed && `${s.failed} failed`, s.errored && `${s.errored} could not be completed`, s.skipped && `${s.skipped} skipped`].filter(Boolean);
  return `${parts.join(', ')} (${s.passed + s.failed + s.errored + s.skipped} requests in ${s.files} file${s.files === 1 ? '' : 's'}, ${(s.durationMs / 1000).toFixed(2)} s)\n`;
}

/** Text that XML 1.0 can hold: control characters other than tab and line breaks removed, then escaped. */
export function xmlText(s: string): string {
  return s
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const seconds = (ms: number): string => (ms / 1000).toFixed(3);

/** One testcase element. */
function testcase(r: RequestResult): string {
  const attrs = `name="${xmlText(r.request.label)}" classname="${xmlText(r.file)}" file="${xmlText(r.file)}" line="${r.request.line}" time="${seconds(r.durationMs)}"`;
  const ex = r.exchange;
  const out = ex ? `\n      <system-out>${xmlText(`${ex.request.method} ${ex.request.url} → ${ex.response ? ex.response.status : 'no answer'} (${ex.durationMs} ms, ${ex.attempts} attempt${ex.attempts === 1 ? '' : 's'})`)}</system-out>` : '';
  if (r.outcome === 'passed') return `    <testcase ${attrs}>${out}${out ? '\n    ' : ''}</testcase>`;
  if (r.outcome === 'skipped') return `    <testcase ${attrs}>\n      <skipped message="${xmlText(r.message ?? 'not run')}"/>\n    </testcase>`;
  if (r.outcome === 'errored') return `    <testcase ${attrs}>\n      <error type="request" message="${xmlText(r.message ?? 'no answer')}">${xmlText(r.message ?? '')}</error>${out}\n    </testcase>`;
  const failed = r.assertions.filter((a) => !a.passed);
  const body = failed.map((a) => `line ${a.assertion.line}: ${a.message}${a.expected !== undefined ? `\n  expected: ${a.expected}` : ''}${a.actual !== undefined ? `\n  actual:   ${a.actual}` : ''}`).join('\n');
  return `    <testcase ${attrs}>\n      <failure type="assertion" message="${xmlText(failed.map((a) => a.message).join(' '))}">${xmlText(body)}</failure>${out}\n    </testcase>`;
}

/**
 * The JUnit XML report: `<testsuites>` with one `<testsuite>` per file (in run order) and one `<testcase>` per
 * request; `<failure>` for failed assertions, `<error>` for a request that could not be completed, `<skipped>`.
 */
export function junitReport(results: readonly RequestResult[], summary: RunSummary, timestamp: string): string {
  const files = [...new Set(results.map((r) => r.file))];
  const suites = files.map((file) => {
    const rs = results.filter((r) => r.file === file);
    const s = summarize(rs, rs.reduce((t, r) => t + r.durationMs, 0));
    return `  <testsuite name="${xmlText(file)}" tests="${rs.length}" failures="${s.failed}" errors="${s.errored}" skipped="${s.skipped}" time="${seconds(s.durationMs)}" timestamp="${timestamp}">\n${rs.map(testcase).join('\n')}\n  </testsuite>`;
  });
  const total = summary.passed + summary.failed + summary.errored + summary.skipped;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="tpp run" tests="${total}" failures="${summary.failed}" errors="${summary.errored}" skipped="${summary.skipped}" time="${seconds(summary.durationMs)}">\n${suites.join('\n')}\n</testsuites>\n`;
}

/** The JSON report: the summary and every result (request position and label, outcome, assertions, Exchange). */
export function jsonReport(results: readonly RequestResult[], summary: RunSummary): string {
  const rows = results.map((r) => ({
    file: r.file,
    line: r.request.line,
    label: r.request.label,
    ...(r.request.name !== undefined ? { name: r.request.name } : {}),
    outcome: r.outcome,
    durationMs: r.durationMs,
    ...(r.message ? { message: r.message } : {}),
    assertions: r.assertions.map((a) => ({ line: a.assertion.line, text: a.assertion.text, passed: a.passed, message: a.message, ...(a.expected !== undefined ? { expected: a.expected } : {}), ...(a.actual !== undefined ? { actual: a.actual } : {}) })),
    ...(r.exchange ? { exchange: r.exchange } : {}),
  }));
  return `${JSON.stringify({ summary, results: rows }, null, 2)}\n`;
}
