import { findNodeAtOffset, Node as JsonNode, parseTree } from 'jsonc-parser';

/** A Unix time in seconds above this is taken to be milliseconds (1e11 s is the year 5138; 1e11 ms is 1973). */
export const MILLISECONDS_THRESHOLD = 1e11;

/**
 * Human form of a duration in seconds, rounded to two units: `45 s`, `4 min`, `4 min 10 s`, `2 h 5 min`, `3 d 1 h`.
 * Negative values are formatted by magnitude.
 */
export function formatDuration(seconds: number): string {
  let s = Math.round(Math.abs(seconds));
  if (s < 60) return `${s} s`;
  const d = Math.floor(s / 86400);
  s -= d * 86400;
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  if (d) return h ? `${d} d ${h} h` : `${d} d`;
  if (h) return m ? `${h} h ${m} min` : `${h} h`;
  return s ? `${m} min ${s} s` : `${m} min`;
}

/** `in 4 min`, `4 min ago` or `now` for a time `at` relative to `now` (both Unix seconds). */
export function relativeTime(at: number, now: number): string {
  const delta = at - now;
  if (Math.abs(delta) < 1) return 'now';
  return delta > 0 ? `in ${formatDuration(delta)}` : `${formatDuration(delta)} ago`;
}

/** ISO 8601 (UTC, whole seconds) of a Unix time in seconds; `undefined` when out of the Date range. */
export function isoFromSeconds(seconds: number): string | undefined {
  const d = new Date(seconds * 1000);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString().replace('.000Z', 'Z');
}

/** Claims whose value is a NumericDate (RFC 7519 section 2): seconds since 1970-01-01T00:00:00Z. */
export const TIME_CLAIMS = ['iat', 'exp', 'nbf'] as const;

const VERB: Record<string, [future: string, past: string]> = {
  iat: ['issued', 'issued'],
  exp: ['expires', 'expired'],
  nbf: ['valid from', 'valid since'],
};

/**
 * One-line description of a time claim: `2026-11-21T13:27:22Z (expires in 4 min)`. A value above
 * {@link MILLISECONDS_THRESHOLD} is explained as milliseconds, the integrators' classic mistake.
 * `claim` is `iat`, `exp` or `nbf`; `value` and `now` are Unix seconds.
 */
export function describeClaimTime(claim: string, value: number, now: number): string {
  if (!Number.isFinite(value)) return `${claim} is not a finite number`;
  if (Math.abs(value) >= MILLISECONDS_THRESHOLD) {
    const asSeconds = value / 1000;
    const iso = isoFromSeconds(asSeconds);
    return `${value} looks like milliseconds${iso ? ` (${iso} if divided by 1000)` : ''}: JWT times are in seconds`;
  }
  const iso = isoFromSeconds(value) ?? 'out of range';
  const [future, past] = VERB[claim] ?? ['at', 'at'];
  return `${iso} (${value > now ? future : past} ${relativeTime(value, now)})`;
}

/** A hover for a time claim in JSON text: the markdown to show and the character range of the value. */
export interface ClaimTimeHover {
  readonly claim: string;
  readonly markdown: string;
  /** The same description as plain text, without the claim name: `2026-… (expires in 4 min)`. */
  readonly text: string;
  /** Offsets in the text: [start, end) of the hovered number. */
  readonly range: readonly [number, number];
}

/**
 * If `offset` in the JSON (or JSONC) text `json` lies on the number value — or the key — of an `iat`, `exp` or `nbf`
 * property, returns its date as a hover; otherwise `undefined`. `now` is Unix seconds. Never throws.
 */
export function claimTimeHoverAt(json: string, offset: number, now: number): ClaimTimeHover | undefined {
  const root = parseTree(json);
  if (!root) return undefined;
  const node = findNodeAtOffset(root, offset, true);
  if (!node) return undefined;
  let property: JsonNode | undefined;
  if (node.type === 'number' && node.parent?.type === 'property' && node.parent.children?.[1] === node) property = node.parent;
  else if (node.type === 'string' && node.parent?.type === 'property' && node.parent.children?.[0] === node) property = node.parent;
  const key = property?.children?.[0]?.value;
  const valueNode = property?.children?.[1];
  if (typeof key !== 'string' || !(TIME_CLAIMS as readonly string[]).includes(key) || valueNode?.type !== 'number' || typeof valueNode.value !== 'number') return undefined;
  const text = describeClaimTime(key, valueNode.value, now);
  return { claim: key, markdown: `**${key}** ${text}`, text, range: [valueNode.offset, valueNode.offset + valueNode.length] };
}
