import { ENVIRONMENTS, isEnvironmentId } from '../environments';
import type { Exchange } from '../exchange/types';
import { maskSecrets } from '../log/mask';
import { contractDrift } from '../exchange/contractDrift';
import { BaseIndex } from './bases';
import { readExchange, type StoryRequest } from './requests';
import { Story } from './story';
import { RecordRefused, type RecordedFlow, type RecordOptions, type Refusal } from './types';

/**
 * Records a flow from what was sent (docs/flows.md, Recording a flow): an ordered list of exchanges (the editor's
 * Request History, the Integration Log, a sandbox's journal, a proxy's log) becomes a `.http` file that `tpp run` and
 * the Test Explorer run unchanged, again and again on the same sandbox. It writes text only; the flow parser reads
 * it like any other file.
 */

/** How an exchange reads in a message: `#3 POST /api/v3/… → 201 at <time>`. */
function labelOf(x: Exchange, index: number): string {
  let path = x.request.url;
  try {
    const u = new URL(x.request.url);
    path = `${u.pathname}${u.search}`;
  } catch {
    // the URL as recorded
  }
  return `#${index + 1} ${x.request.method.toUpperCase()} ${path} → ${x.response?.status || 'no answer'} at ${x.time}`;
}

/** The one value every exchange that names it agrees on, else undefined. */
function agreed(values: readonly (string | undefined)[]): string | undefined {
  const known = new Set(values.filter((v): v is string => !!v));
  return known.size === 1 ? [...known][0] : undefined;
}

/** One line of a comment, safe in a flow: masked, on one line, without `{{`, at most `max` characters. */
function commentText(text: string, max = 220): string {
  const line = maskSecrets(text).replace(/\s+/g, ' ').replace(/\{\{/g, '{ {').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * The `###` title of a request (its test's name): its place, the endpoint's summary in the spec's words (else its method
 * and path), and the refusal it expects.
 */
function titleOf(r: StoryRequest): string {
  const summary = r.group[0]?.summary.replace(/[:.].*$/s, '').trim();
  return `${r.index + 1}. ${summary || `${r.method} ${r.at.path || '/'}`}${r.status >= 400 ? `, refused with ${r.status}` : ''}`;
}

/** One request block: title, name, request line, header, body, then what the answer must be. */
function requestBlock(r: StoryRequest, story: Story, url: string, body: string | undefined): { text: string; contract: boolean } {
  const lines = [`### ${titleOf(r)}`];
  const name = story.nameOf(r.index);
  if (name) lines.push(`# @name ${name}`);
  const finding = r.status >= 400 ? r.exchange.diagnosis?.find((d) => d.message) : undefined;
  if (finding) lines.push(`# Recorded answer ${r.status}: ${commentText(finding.message)}`);
  lines.push(`${r.method} ${url}`);
  if (body !== undefined) lines.push('Content-Type: application/json', '', body);
  lines.push('', `?? status == ${r.status}`);
  let contract = false;
  if (r.group.length === 0) lines.push("# Not one of the contract's endpoints: its status alone is checked.");
  else {
    const drift = contractDrift(r.group, r.status, r.answerText);
    if (drift.length === 0) {
      lines.push('?? contract');
      contract = true;
    } else lines.push(`# ?? contract is left out: the recorded answer already differed from the contract (${commentText(drift[0]?.message ?? '')})`);
  }
  return { text: lines.join('\n'), contract };
}

/** The header comment: where the flow came from, how to run it, what is new on each run. */
function header(options: RecordOptions, env: string | undefined, count: number, from: string, to: string, leftOut: readonly Refusal[]): string[] {
  const label = env && isEnvironmentId(env) ? ENVIRONMENTS[env].label : env;
  const file = options.fileName ?? '<this file>';
  const lines = [
    `# Recorded by ${options.recordedBy} from ${commentText(options.source, 400)}${label ? ` (${label})` : ''}:`,
    `# ${count} request${count === 1 ? '' : 's'} sent from ${from} to ${to}.`,
    `# Run it: tpp run ${file}${env && isEnvironmentId(env) ? ` --env ${env}` : ''} (with the TPP_* settings of tpp connect loaded), or Run Flow in the editor.`,
    '# The runner signs each request with a fresh token: no token or key is written here. Invoice numbers and other',
    '# identities a create defines are new on each run (@run), dates are relative to the day of the run, and ids are',
    '# read from the answers that gave them, so the flow passes again on the same sandbox.',
  ];
  if (leftOut.length) lines.push(`# Left out, ${leftOut.length} exchange${leftOut.length === 1 ? '' : 's'} a flow cannot send again:`, ...leftOut.map((l) => `#   ${commentText(`${l.label}: ${l.reason}`, 400)}`));
  return lines;
}

/**
 * The `.http` flow of `exchanges`, in their order: one request per exchange under `{{baseUrl}}`, `{{v2BaseUrl}}` or
 * `{{eligibilityBaseUrl}}`; `# @name` on each whose answer a later one reads; an identifier an earlier answer gave
 * (`id`, `_id`, an invoice number, a `Location`) read from it by reference, found by value; what a create defines
 * (invoice numbers, service invoice numbers, a shop's uniqueId) and the requests' own dates as file variables new on
 * each run; `?? status == <recorded>` and `?? contract` where the contract declares the endpoint and the recorded
 * answer matched it; no `Authorization` header (the runner signs), the Partner ID as `{{partnerId}}`; top-level `$`
 * properties of bodies dropped.
 * @throws RecordRefused when `exchanges` is empty, or when one cannot be sent again by a flow (an answer that never
 *   came, an injected fault, a 401, a server failure, an address under no base, a body that is not whole JSON, a
 *   masked value…) and `options.skipRefused` is not set; its `refusals` name each.
 */
export function recordFlow(exchanges: readonly Exchange[], options: RecordOptions): RecordedFlow {
  if (exchanges.length === 0) throw new RecordRefused('Nothing to record: there is no exchange in what was given.', []);
  const bases = new BaseIndex();
  for (const b of options.bases ?? []) bases.add(b);
  for (const x of exchanges) bases.learn(x);
  const requests: StoryRequest[] = [];
  const refusals: Refusal[] = [];
  exchanges.forEach((x, i) => {
    const read = readExchange(x, i, { bases, ...(options.missingBodyHint ? { missingBodyHint: options.missingBodyHint } : {}) });
    if ('refused' in read) refusals.push({ index: i, label: labelOf(x, i), reason: read.refused });
    else requests.push(read);
  });
  if (refusals.length && !options.skipRefused) {
    const n = refusals.length;
    throw new RecordRefused(`${n} exchange${n === 1 ? '' : 's'} cannot be sent again by a flow:\n${refusals.map((r) => `  ${r.label}: ${r.reason}`).join('\n')}`, refusals);
  }
  if (requests.length === 0) throw new RecordRefused('Nothing to record: no exchange can be sent again by a flow.', refusals);
  const partnerId = options.partnerId ?? agreed(exchanges.map((x) => x.partner));
  const story = new Story(requests, partnerId);
  // URLs and bodies first: they name the requests whose answers are read, which the blocks then carry.
  const templated = requests.map((r) => ({ r, url: story.templateUrl(r), body: story.templateBody(r) }));
  const blocks = templated.map(({ r, url, body }) => requestBlock(r, story, url, body));
  const times = requests.map((r) => r.exchange.time).sort();
  const from = times[0] as string;
  const to = times[times.length - 1] as string;
  const env = options.env ?? agreed(exchanges.map((x) => x.env));
  const variables = story.fileVariables();
  const text = [...header(options, env, requests.length, from, to, refusals), '', ...variables.map((v) => `@${v.name} = ${v.value}`), ...(variables.length ? [''] : []), blocks.map((b) => b.text).join('\n\n'), ''].join('\n');
  return {
    text,
    requests: requests.length,
    named: requests.filter((r) => story.nameOf(r.index)).length,
    references: story.references,
    variables: variables.map((v) => v.name),
    contractChecks: blocks.filter((b) => b.contract).length,
    leftOut: refusals,
    from,
    to,
  };
}
