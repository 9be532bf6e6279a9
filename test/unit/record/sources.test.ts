/**
 * What `tpp record` reads (src/core/record/sources.ts, docs/flows.md "Recording a flow"): a journal page, JSON Lines
 * of journal entries, exchanges or bare `--log json` lines; a body the journal cut at its cap is known as cut.
 */
import * as assert from 'node:assert/strict';
import { parseFlow } from '../../../src/core/flows/parse';
import { exchangesOfLog, oneOriginBases, recordFlow, RecordRefused } from '../../../src/core/record';

const ORIGIN = 'http://127.0.0.1:43117';
const OPTIONS = { source: 'a journal', recordedBy: 'the test', bases: [oneOriginBases(ORIGIN)] };

/** One journal entry as `GET /__tpp/requests` answers it. */
function entry(method: string, path: string, status: number, body?: string, answer?: string) {
  return {
    id: `e-${path}`,
    time: '2025-06-10T12:00:00.000Z',
    method,
    path,
    status,
    ms: 3,
    partner: 'P-1',
    diagnosis: [],
    request: { url: `${ORIGIN}${path}`, headers: { authorization: 'Bearer [masked]' }, ...(body !== undefined ? { body } : {}) },
    response: { status, headers: {}, ...(answer !== undefined ? { body: answer } : {}) },
  };
}

describe('record: the journal and logs it reads', () => {
  it('reads a journal page; an answer cut at the journal\'s 16 KB is checked by its status, not called a drift', () => {
    const cut = `{"results":[${'{"_id":"x"},'.repeat(2000)}`.slice(0, 16 * 1024);
    const page = JSON.stringify({ total: 1, entries: [entry('GET', '/api/v3/tire-protection/registrations?pageSize=1000', 200, undefined, cut)] });
    const { exchanges, bare } = exchangesOfLog(page, 'page.json');
    assert.equal(bare, false);
    assert.equal(exchanges[0]?.response?.truncated, true);
    const flow = recordFlow(exchanges, OPTIONS);
    assert.match(flow.text, /\?\? status == 200\n\?\? contract\n$/);
    assert.doesNotMatch(flow.text, /differed/);
  });

  it('refuses a request body the journal cut at 32 KB, and records a request sent without a body as it was', () => {
    const big = `{"invoiceNumber":"${'x'.repeat(40_000)}`.slice(0, 32 * 1024);
    const lines = [entry('POST', '/api/v3/tire-protection/registrations', 400, undefined, '{"error":"bad_request","statusCode":400,"message":"body: expected an object"}'), entry('POST', '/api/v3/tire-protection/registrations', 413, big)].map((e) => JSON.stringify(e)).join('\n');
    const { exchanges } = exchangesOfLog(lines, 'j.jsonl');
    assert.throws(() => recordFlow(exchanges, OPTIONS), (err: unknown) => err instanceof RecordRefused && err.refusals.length === 1 && err.refusals[0]!.index === 1 && /its body is not in the record whole/.test(err.refusals[0]!.reason));
    const flow = recordFlow(exchanges.slice(0, 1), OPTIONS);
    const file = parseFlow(flow.text, 'x.http');
    assert.deepEqual(file.problems, []);
    assert.equal(file.requests[0]!.body, undefined, 'no body, as sent');
    assert.deepEqual(file.requests[0]!.assertions.map((a) => a.text), ['status == 400', 'contract']);
  });

  it('reads JSON Lines of whole exchanges (the Integration Log file) and names a line that is no record', () => {
    const x = { id: 'a', env: 'sandbox', source: 'proxy-log', time: '2025-06-10T12:00:00.000Z', request: { method: 'GET', url: 'https://sandbox.example.com/api/v3/verify-token' }, response: { status: 200, body: '{"partner_id":"P","name":"n"}' }, durationMs: 1, attempts: 1 };
    const { exchanges } = exchangesOfLog(`${JSON.stringify(x)}\n`, 'log.jsonl');
    assert.equal(exchanges[0]?.env, 'sandbox');
    const flow = recordFlow(exchanges, { source: 'a log', recordedBy: 'the test' });
    assert.match(flow.text, /^GET \{\{baseUrl\}\}\/verify-token$/m, 'the base learned from the endpoint the URL ends with');
    assert.match(flow.text, /--env sandbox/);
    assert.throws(() => exchangesOfLog(`${JSON.stringify(x)}\n{"hello":1}\n`, 'log.jsonl'), /log\.jsonl:2: not a journal entry, an exchange or a --log json line/);
  });
});
