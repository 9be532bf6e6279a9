/**
 * Turning a raw exchange into a typed answer or a typed error (spec: Errors): the status's row of the spec's
 * table, the endpoint's response schema for a success, unknown properties tolerated.
 */
import type { z } from 'zod';
import type { EndpointDef } from '../contract/types';
import type { ApiResponse, RawExchange } from './types';
import { MalformedResponseError, apiErrorFor } from './errors';
import { describeStatus } from './status';

/** Reads the JSON of a body; `undefined` for an empty body; `{ text }` when it is not JSON. */
function readJson(raw: string): { json?: unknown; notJson?: true } {
  if (raw.trim() === '') return {};
  try {
    return { json: JSON.parse(raw) as unknown };
  } catch {
    return { notJson: true };
  }
}

/** The schema for a success status: its own row, else (when a body came) the first success row with a schema. */
function successSchema(def: EndpointDef, status: number, hasBody: boolean): z.ZodType | null | undefined {
  if (Object.hasOwn(def.responses, status)) return def.responses[status];
  if (!hasBody) return null;
  for (const [code, schema] of Object.entries(def.responses)) {
    if (Number(code) >= 200 && Number(code) < 300 && schema) return schema;
  }
  return undefined;
}

/**
 * Turns a raw exchange into an ApiResponse or a typed error (spec: Errors).
 * Unknown properties are tolerated: a body whose only schema issues are `unrecognized_keys` is accepted as received.
 */
export function interpret<T = unknown>(def: EndpointDef, ex: RawExchange): ApiResponse<T> {
  const info = describeStatus(ex.status);
  const call = { method: ex.method, url: ex.url, attempts: ex.attempts, durationMs: ex.durationMs };
  const parsed = readJson(ex.rawBody);
  if (info.kind !== 'success') {
    throw apiErrorFor({
      ...call,
      status: ex.status,
      body: parsed.notJson ? ex.rawBody : parsed.json,
      rawBody: ex.rawBody,
      retriesExhausted: ex.retriesExhausted,
      outcomeUnknown: ex.outcomeUnknown,
      howToCheck: ex.howToCheck,
      headers: ex.headers,
    });
  }
  const hasBody = ex.rawBody.trim() !== '';
  const schema = successSchema(def, ex.status, hasBody);
  let body: unknown;
  if (schema === null) {
    body = parsed.json;
  } else if (parsed.notJson || (schema && !hasBody)) {
    throw new MalformedResponseError({ ...call, status: ex.status, rawBody: ex.rawBody, issues: [], notJson: true });
  } else if (schema === undefined) {
    body = parsed.json;
  } else {
    const result = schema.safeParse(parsed.json);
    if (result.success) body = result.data;
    else {
      const issues = result.error.issues.filter((i) => i.code !== 'unrecognized_keys');
      if (issues.length > 0) throw new MalformedResponseError({ ...call, status: ex.status, rawBody: ex.rawBody, issues, notJson: false });
      body = parsed.json;
    }
  }
  return {
    endpointId: def.id,
    method: ex.method,
    url: ex.url,
    status: ex.status,
    statusName: info.name,
    meaning: info.meaning,
    headers: ex.headers,
    body: body as T,
    rawBody: ex.rawBody,
    durationMs: ex.durationMs,
    attempts: ex.attempts,
    ...(ex.recovered ? { recovered: { checkUrl: ex.recovered.checkUrl, record: ex.recovered.record } } : {}),
  };
}
