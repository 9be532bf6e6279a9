import { CheckResult, JwtInspection } from './inspect';
import { shortFingerprint } from './keys';
import { describeClaimTime, isoFromSeconds, TIME_CLAIMS } from './time';

const MARK: Record<CheckResult['status'], string> = { pass: '✔ pass', fail: '✘ FAIL', skip: '– skip' };

/** Counts of the checklist: how many passed, failed, were skipped. */
export function summarize(inspection: JwtInspection): { pass: number; fail: number; skip: number; text: string } {
  const n = { pass: 0, fail: 0, skip: 0 };
  for (const c of inspection.checks) n[c.status]++;
  const text = n.fail ? `${n.fail} of ${inspection.checks.length} checks fail` : `All ${n.pass} checks pass${n.skip ? ` (${n.skip} not checked)` : ''}`;
  return { ...n, text };
}

/** The checklist as plain text lines: `✘ FAIL  aud is the environment's base address — aud is "…": remove the trailing slash.` */
export function renderChecklistText(inspection: JwtInspection): string {
  return inspection.checks.map((c) => `${MARK[c.status]}  ${c.rule} — ${c.detail}`).join('\n');
}

/** Each time claim present in the token as `iat  1763731642  2026-11-21T13:27:22Z (issued 3 s ago)` lines. */
export function renderTimesText(inspection: JwtInspection): string[] {
  const claims = inspection.claims ?? {};
  return TIME_CLAIMS.filter((c) => typeof claims[c] === 'number').map((c) => `${c.padEnd(4)} ${String(claims[c]).padEnd(14)} ${describeClaimTime(c, claims[c] as number, inspection.now)}`);
}

/**
 * The whole report as plain text (the CLI's `--format text`): decoded header and claims as JSON, the
 * times as dates, then the checklist and a summary line. The token itself is never included.
 */
export function renderInspectionText(inspection: JwtInspection): string {
  const out: string[] = [];
  out.push(`Header: ${inspection.header ? JSON.stringify(inspection.header) : '(not decodable)'}`);
  out.push(`Claims: ${inspection.claims ? JSON.stringify(inspection.claims, null, 2) : '(not decodable)'}`);
  const times = renderTimesText(inspection);
  if (times.length) out.push('', ...times);
  if (inspection.key) out.push('', `Public key: ${inspection.key.curve}, ${shortFingerprint(inspection.key.fingerprint)}`);
  out.push('', renderChecklistText(inspection), '', `${summarize(inspection).text}.`);
  return out.join('\n') + '\n';
}

/** A fenced code block whose fence is longer than any backtick run in `body`, so no content can close it. */
function fenced(lang: string, body: string): string {
  const longest = Math.max(0, ...(body.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${body}\n${fence}`;
}

/** What the preview checked against, shown above the checklist (values are settings, rendered as text). */
export interface PreviewContext {
  /** Environment label, e.g. "Sandbox". */
  readonly environment?: string;
  /** Where the token came from: "selection", "clipboard", "minted for Sandbox"… */
  readonly source: string;
  readonly iss?: string;
  readonly aud?: string;
  /** The token, used only for its masked form and length. */
  readonly token: string;
  /** Extra note shown first (e.g. "The server answered 401 to this token"). */
  readonly note?: string;
}

/**
 * The JWT preview as Markdown. Everything that comes from the token or the settings sits inside fenced code
 * blocks, so a claim such as `<img src=x onerror=alert(1)>` shows as those characters in the raw document and
 * in a rendered Markdown preview alike. The token appears only masked.
 */
export function renderInspectionMarkdown(inspection: JwtInspection, ctx: PreviewContext): string {
  const s = summarize(inspection);
  const about = [
    `Token:       ${ctx.token.trim().slice(0, 10)}…[masked] (${ctx.token.trim().length} characters, from ${ctx.source})`,
    `Checked at:  ${isoFromSeconds(inspection.now) ?? inspection.now}`,
    `Environment: ${ctx.environment ?? '(none)'}`,
    `Partner ID:  ${ctx.iss ?? '(not known)'}`,
    `Base address: ${ctx.aud ?? '(not known)'}`,
    `Public key:  ${inspection.key ? `${inspection.key.curve}, ${shortFingerprint(inspection.key.fingerprint)}` : '(none)'}`,
  ].join('\n');
  const parts = [`# JWT preview${ctx.environment ? ` (${ctx.environment})` : ''}`, ''];
  if (ctx.note) parts.push(`> ${ctx.note.replace(/[<>&`*_[\]\\]/g, '')}`, '');
  parts.push(`**${s.fail ? '✘' : '✔'} ${s.text}.**`, '', fenced('text', about), '', '## Checklist (spec: Authentication)', '', fenced('text', renderChecklistText(inspection)), '');
  parts.push('## Header', '', inspection.header ? fenced('json', JSON.stringify(inspection.header, null, 2)) : '_Not decodable._', '');
  parts.push('## Claims', '', inspection.claims ? fenced('json', JSON.stringify(inspection.claims, null, 2)) : '_Not decodable._', '');
  const times = renderTimesText(inspection);
  if (times.length) parts.push('## Times', '', fenced('text', times.join('\n')), '');
  return parts.join('\n');
}
