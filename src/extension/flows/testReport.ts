import * as vscode from 'vscode';
import type { AssertionResult, RequestResult } from '../../core/flows/types';

/** One message of a reported request, as the Test Explorer shows it. */
export interface ReportedMessage {
  readonly message: string;
  /** The expected and actual values of a failed assertion (the Test Explorer's diff). */
  readonly expected?: string;
  readonly actual?: string;
  /** 1-based line of the `??` assertion (for an error: of the problem found before the run, else of the request). */
  readonly line?: number;
}

/** What the Test Explorer was told about one request: its outcome, duration (ms) and messages. */
export interface FlowTestReport {
  /** The test item's id: `<file URI>#<0-based index>`. */
  readonly id: string;
  readonly label: string;
  readonly outcome: RequestResult['outcome'];
  readonly durationMs: number;
  /** The answer's status, when there was one. */
  readonly status?: number;
  readonly messages: readonly ReportedMessage[];
}

/** The location of a 1-based line and column of `uri`. */
function at(uri: vscode.Uri, line: number, column = 1): vscode.Location {
  return new vscode.Location(uri, new vscode.Position(Math.max(0, line - 1), Math.max(0, column - 1)));
}

/**
 * A failed assertion as a TestMessage at its `??` line: a diff of expected and actual when the assertion compares
 * values, else its sentence. `?? contract` is always its sentence: the difference from what the contract declares may
 * be the body's schema while expected and actual are statuses, and the editor shows a diff's values, not its text.
 */
export function assertionMessage(uri: vscode.Uri, a: AssertionResult): { test: vscode.TestMessage; reported: ReportedMessage } {
  const text = a.message.includes(a.assertion.text) ? a.message : `${a.message} (?? ${a.assertion.text})`;
  const diff = a.assertion.subject.kind !== 'contract' && (a.expected !== undefined || a.actual !== undefined);
  const test = diff ? vscode.TestMessage.diff(text, a.expected ?? '', a.actual ?? '') : new vscode.TestMessage(text);
  test.location = at(uri, a.assertion.line, a.assertion.column);
  test.contextValue = 'tppFlowAssertion';
  return { test, reported: { message: text, ...(a.expected !== undefined ? { expected: a.expected } : {}), ...(a.actual !== undefined ? { actual: a.actual } : {}), line: a.assertion.line } };
}

/** One output line per request: outcome, label, status and duration, and how to open its exchange. */
function outputLine(r: RequestResult): string {
  const mark = { passed: '✓', failed: '✗', errored: '!', skipped: '-' }[r.outcome];
  const status = r.exchange?.response ? ` → ${r.exchange.response.status}` : r.exchange ? ' → no answer' : '';
  const failed = r.assertions.filter((a) => !a.passed).length;
  const detail = r.outcome === 'failed' ? ` (${failed} of ${r.assertions.length} assertions failed)` : r.message ? ` (${r.message})` : '';
  const open = r.exchange ? ' · its exchange: Show Flow Exchange (the eye on its item)' : '';
  return `${mark} ${r.request.label}${status} · ${Math.round(r.durationMs)} ms${detail}${open}\r\n`;
}

/**
 * Tells `run` how request `r` of the flow `uri` ended (item `item`): passed or failed with its duration (ms), one
 * TestMessage per failed assertion at its `??` line, errored with the reason at the request line, or skipped; and one
 * output line. Returns what was reported (tests read it).
 */
export function reportResult(run: vscode.TestRun, item: vscode.TestItem, uri: vscode.Uri, r: RequestResult): FlowTestReport {
  const duration = Math.round(r.durationMs);
  const reported: ReportedMessage[] = [];
  if (r.outcome === 'passed') run.passed(item, duration);
  else if (r.outcome === 'failed') {
    const messages = r.assertions.filter((a) => !a.passed).map((a) => assertionMessage(uri, a));
    reported.push(...messages.map((m) => m.reported));
    run.failed(item, messages.map((m) => m.test), duration);
  } else if (r.outcome === 'errored') {
    const text = r.message ?? 'The request could not be sent.';
    const message = new vscode.TestMessage(text);
    const where = r.at ?? r.request;
    message.location = at(uri, where.line, where.column);
    message.contextValue = 'tppFlowError';
    reported.push({ message: text, line: where.line });
    run.errored(item, message, duration);
  } else run.skipped(item);
  run.appendOutput(outputLine(r), at(uri, r.request.line), item);
  const status = r.exchange?.response?.status;
  return { id: item.id, label: r.request.label, outcome: r.outcome, durationMs: duration, ...(status !== undefined ? { status } : {}), messages: reported };
}
