import type { z } from 'zod';
import { ErrorBody, UnauthorizedBody } from './errors';
import type { EndpointDef } from './types';

/**
 * Answers every endpoint can give besides the ones its spec row names ("every status the sandbox can
 * give for an endpoint appears in the endpoint table"). The spec's Errors table lists them for the whole
 * interface; the Local sandbox gives each of them (docs/sandbox.md):
 * - 401 for a missing or bad token (every call is authenticated; the eligibility lookup with its own token);
 * - 405 when the endpoint's path is called with another method;
 * - 429 over the rate limit (`--rate-limit`), 500, 502, 503, 504 injected faults (`--fault-rate`);
 * - for calls with a body: 400 (invalid parameters), 413 for a body over 1 MiB, 415 for a body that is not JSON.
 * Bodies: the spec's 401 body, and the tolerant {@link ErrorBody} for everything else.
 */
export const COMMON_ANSWERS: Readonly<Record<number, z.ZodType>> = {
  401: UnauthorizedBody,
  405: ErrorBody,
  429: ErrorBody,
  500: ErrorBody,
  502: ErrorBody,
  503: ErrorBody,
  504: ErrorBody,
};

/** Answers of every call that sends a body (spec: Endpoints, "Bodies of POST and PATCH are JSON"). */
export const BODY_ANSWERS: Readonly<Record<number, z.ZodType>> = {
  400: ErrorBody,
  413: ErrorBody,
  415: ErrorBody,
};

/**
 * The responses of `def` with the common answers added (its own entries win; statuses ascending).
 * Does not change `def`.
 */
export function withCommonAnswers(def: Pick<EndpointDef, 'body' | 'responses'>): EndpointDef['responses'] {
  const all: Record<number, z.ZodType | null> = { ...COMMON_ANSWERS, ...(def.body ? BODY_ANSWERS : {}), ...def.responses };
  return Object.fromEntries(
    Object.keys(all)
      .map(Number)
      .sort((a, b) => a - b)
      .map((s) => [s, all[s] as z.ZodType | null]),
  );
}
