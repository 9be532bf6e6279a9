import type { EndpointDef } from '../contract';
import type { DiagnosisItem } from './types';

/**
 * Contract drift (spec: Endpoints; Errors): an answer the spec does not describe for the endpoint that was called.
 * Either its status is not in the endpoint's table (the row's statuses plus the answers every call can give, see
 * contract/answers.ts, and the redirects of spec: Errors), or its JSON body does not match the response schema of
 * that status. Such an answer says "the server changed", not "your code is wrong", so it is its own kind of entry.
 */

/** Redirect statuses the spec allows for every call ("Redirect codes: 301 Moved Permanently and 302 Found"). */
const REDIRECTS = new Set([301, 302]);

/** Issues of a zod parse, as short text: `tires[0].size: Invalid input`. */
function issuesText(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 3)
    .map((i) => `${i.path.length ? `${i.path.map(String).join('.')}: ` : ''}${i.message}`)
    .join('; ');
}

/**
 * The differences between an answer and the endpoints it may come from (several share a route: the motor-club
 * PATCH forms); empty when one of them describes it. `body` is the answer's text, undefined when it was too large
 * to keep (then only the status is checked).
 */
export function contractDrift(group: readonly EndpointDef[], status: number, body: string | undefined): DiagnosisItem[] {
  if (group.length === 0 || REDIRECTS.has(status)) return [];
  const name = group.map((e) => e.id).join(' / ');
  const first = group[0] as EndpointDef;
  const where = `${first.method} ${first.path} (${name})`;
  const withStatus = group.filter((e) => Object.prototype.hasOwnProperty.call(e.responses, status));
  if (withStatus.length === 0) {
    const known = [...new Set(group.flatMap((e) => Object.keys(e.responses)))].join(', ');
    return [{ rule: 'contract-drift', message: `${where} answered ${status}, a status its table does not have (${known}): the server's behaviour differs from the spec, not your request.` }];
  }
  if (body === undefined) return [];
  let problem = '';
  for (const e of withStatus) {
    const schema = e.responses[status];
    if (schema === null || schema === undefined) {
      if (body.trim() === '') return [];
      problem ||= `a body where the spec gives none (${status} has no content)`;
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      problem ||= body.trim() === '' ? 'no body where the spec gives one' : 'a body that is not JSON';
      continue;
    }
    const parsed = schema.safeParse(value);
    if (parsed.success) return [];
    problem ||= `a body that does not match its response schema (${issuesText(parsed.error.issues)})`;
  }
  if (!problem) return [];
  return [{ rule: 'contract-drift', message: `${where} answered ${status} with ${problem}: the server's answer differs from the spec, not your request.` }];
}

/** Answers remembered by {@link contractDriftOf}, and the longest body remembered (characters). */
const REMEMBERED = 256;
const REMEMBERED_BODY = 4096;
const remembered = new Map<string, DiagnosisItem[]>();

/**
 * {@link contractDrift}, remembered for small answers: an application that polls gets the same answer (same
 * endpoints, status and body) many times, and the proxy parses and checks it once. At most {@link REMEMBERED}
 * answers of at most {@link REMEMBERED_BODY} characters are kept, then the memory starts afresh.
 */
export function contractDriftOf(group: readonly EndpointDef[], status: number, body: string | undefined): DiagnosisItem[] {
  if (group.length === 0 || body === undefined || body.length > REMEMBERED_BODY) return contractDrift(group, status, body);
  const key = `${group.length === 1 ? (group[0] as EndpointDef).id : group.map((e) => e.id).join(' ')}\n${status}\n${body}`;
  let drift = remembered.get(key);
  if (!drift) {
    drift = contractDrift(group, status, body);
    if (remembered.size >= REMEMBERED) remembered.clear();
    remembered.set(key, drift);
  }
  return drift;
}
