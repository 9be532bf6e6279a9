import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { kindFromSchemaUri, type PayloadKind } from '../../../src/core/contract';
import { captureFromResponse, resolvePayloadVariables, type Captures } from '../../../src/core/variables';

/** examples/ of the repository. */
export const EXAMPLES_DIR = join(__dirname, '..', '..', '..', 'examples');

/** What the Local sandbox answers to each create of the examples (the ids are realistic, not real). */
const ANSWERS: [PayloadKind, unknown][] = [
  ['tire-protection-registration', { id: '6614f2c9a8b3e21d4c0f9a17' }],
  ['motor-club-registration', { id: '6615a0d2b7c4f83e9a1d2b44' }],
  ['shop', undefined],
  ['v2-registrations', { Registrations: [{ status: 'created', statusCode: 201, RegistrationID: 48213 }] }],
];

let captures: Captures | undefined;

/** The captures after sending the examples that create records, in the order examples/README.md gives. */
export function exampleCaptures(): Captures {
  if (captures) return captures;
  let c: Captures = {};
  for (const [kind, answer] of ANSWERS) {
    const file = JSON.parse(readFileSync(join(EXAMPLES_DIR, `${kind}.json`), 'utf8')) as unknown;
    c = captureFromResponse(kind, resolvePayloadVariables(file, kind, { captured: c }), answer, c);
  }
  return (captures = c);
}

/** An example file's JSON with its variables resolved as a send after those creates resolves them. */
export function resolvedExample(json: Record<string, unknown>): Record<string, unknown> {
  const kind = kindFromSchemaUri(String(json.$schema));
  return resolvePayloadVariables(json, kind, { captured: exampleCaptures() }) as Record<string, unknown>;
}
