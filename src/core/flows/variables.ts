/**
 * Values of `{{…}}` in flow files at run time (docs/flows.md, Variables). A name is, in this order: an address of
 * the environment the run uses (`baseUrl`, `v2BaseUrl`, `eligibilityBaseUrl`, `partnerId`: so a file's own
 * `@baseUrl = …` line, written for REST Client, never sends a `tpp run --env sandbox` elsewhere), a file variable
 * (`@name = value`; a value given for a `# @prompt` of the request comes first), then a variable given from outside
 * (`--var`, the editor's settings). `$` names are the dynamic values of core/variables (REST Client's) and REST
 * Client's `$processEnv` and `$dotenv` (flowDynamic.ts); `reg.response.body.<JSONPath>` and `reg.response.headers.<Name>` read the
 * answer of an earlier request named `reg`. Expansion is bounded in depth and in length, so a file cannot make it
 * hang or grow without end. Nothing here runs code from the file (JSONPath filters use jsonpath-plus's safe
 * evaluator, not `eval`).
 */
import { JSONPath } from 'jsonpath-plus';
import type { z } from 'zod';
import { schemaAt } from '../contract/schemaWalk';
import { dynamicVariable, type DynamicContext } from '../variables/dynamic';
import { asFieldType } from '../variables/resolve';
import { flowDynamicProblem, USER_SIDE_DYNAMICS } from './flowDynamic';
import { flowRefs, positionIn, type ParsedRef } from './refs';
import type { BaseKind } from '../contract/types';
import { environmentBases } from '../environments';
import type { FlowEnvironment, FlowPosition } from './types';

/** How deep variables may refer to other variables (`@a = {{b}}`) before the chain is refused as a circle. */
export const MAX_VARIABLE_DEPTH = 8;
/** The longest text a resolution may produce, in UTF-16 code units (1 MiB): expansion stops with an error beyond it. */
export const MAX_RESOLVED_LENGTH = 1 << 20;
/** The most references one resolution expands (variables inside variables count too): empty variables used many times stay bounded. */
export const MAX_EXPANSIONS = 10_000;

/** What is left of a resolution's expansions. */
interface Budget {
  left: number;
}

/** The answer of a request, as later requests and assertions read it. */
export interface FlowAnswer {
  readonly status: number;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly durationMs: number;
  /**
   * False when the answer came from a host other than the environment's: its values are then not the partner's and may
   * go anywhere (carried.ts). Absent means the environment's.
   */
  readonly fromEnvironment?: boolean;
}

/** Where values come from while one file runs. */
export interface FlowScope {
  /** Environment addresses: baseUrl, v2BaseUrl, eligibilityBaseUrl, partnerId (absent ones are not defined). */
  readonly environment: Readonly<Record<string, string | undefined>>;
  /** File variables by name (the last definition wins), with where they are written. */
  readonly fileVariables: ReadonlyMap<string, { readonly value: string } & FlowPosition>;
  readonly outside: Readonly<Record<string, string>>;
  /** Answers of the named requests run so far. */
  readonly answers: ReadonlyMap<string, FlowAnswer>;
  /**
   * File variables already resolved in this run of the file: a file variable keeps the value it had when first used
   * (`@invoice = INV-{{$timestamp}}` is one invoice in every request of the run).
   */
  readonly resolved: Map<string, string>;
  readonly dynamic: DynamicContext;
  /** Values the user gave for this request's `# @prompt` lines (the editor's input box); they win over file variables. */
  readonly prompted?: ReadonlyMap<string, string>;
  /** The names the file's `# @prompt` lines ask for, each with the index of the first request asking (carried.ts). */
  readonly prompts?: ReadonlyMap<string, number>;
  /** The process environment `{{$processEnv NAME}}` reads; absent: it is refused. */
  readonly processEnv?: Readonly<Record<string, string | undefined>>;
  /** The `.env` file `{{$dotenv NAME}}` reads (read before the file runs: dotenv.ts), or why there is none. */
  readonly dotenv?: { readonly values: Readonly<Record<string, string>>; readonly file: string } | { readonly error: string };
}

/** A request that cannot be made ready to send; `position` points at the cause in the flow file. */
export class FlowPositionError extends Error {
  override readonly name: string = 'FlowPositionError';
  constructor(
    /** Why, one sentence without the position. */
    readonly reason: string,
    readonly position: FlowPosition,
  ) {
    super(`line ${position.line}, column ${position.column}: ${reason}`);
  }
}

/** A reference that cannot be resolved; `position` points at it in the flow file. */
export class FlowVariableError extends FlowPositionError {
  override readonly name: string = 'FlowVariableError';
}

/** The JSON of a body, or undefined when it is not JSON (empty included). */
export function jsonOf(text: string): { json: unknown } | undefined {
  if (text.trim() === '') return undefined;
  try {
    return { json: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/**
 * Evaluates a JSONPath over a JSON value with jsonpath-plus's safe evaluator (no code runs).
 * @returns every match, in document order (empty when none).
 * @throws Error when the path cannot be read.
 */
export function jsonPathAll(path: string, json: unknown): unknown[] {
  if (json === null || typeof json !== 'object') return path === '$' ? [json] : [];
  return JSONPath({ path, json: json as object, wrap: true, eval: 'safe' }) as unknown[];
}

const text = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v) ?? String(v));

/** The value of a request reference. */
function responseValue(ref: Extract<ParsedRef, { kind: 'response' }>, scope: FlowScope): unknown {
  const answer = scope.answers.get(ref.request);
  if (!answer) throw new Error(`request ${ref.request} has not run in this run (it failed, was skipped or was left out), so it has no answer to read`);
  if (ref.part === 'headers') {
    const value = answer.headers[ref.path.toLowerCase()];
    if (value === undefined) throw new Error(`the answer of ${ref.request} (status ${answer.status}) has no header ${ref.path}`);
    return value;
  }
  if (ref.path === '*') return answer.body;
  const parsed = jsonOf(answer.body);
  if (!parsed) throw new Error(`the answer of ${ref.request} (status ${answer.status}) is not JSON, so ${ref.path} cannot be read from it`);
  let matches: unknown[];
  try {
    matches = jsonPathAll(ref.path, parsed.json);
  } catch (err) {
    throw new Error(`${ref.path} is not a JSONPath this tool can read (${(err as Error).message})`);
  }
  if (matches.length === 0) throw new Error(`the answer of ${ref.request} (status ${answer.status}) has nothing at ${ref.path}`);
  return matches.length === 1 ? matches[0] : matches;
}

/** The value of one reference, any JSON type; throws Error with the reason. */
function refValue(ref: ParsedRef, scope: FlowScope, depth: number, budget: Budget): unknown {
  if (--budget.left < 0) throw new Error(`the variables expand more than ${MAX_EXPANSIONS} references`);
  switch (ref.kind) {
    case 'invalid':
      throw new Error(ref.reason);
    case 'dynamic': {
      const bad = flowDynamicProblem(ref.name, ref.args);
      if (bad) throw new Error(bad);
      if (USER_SIDE_DYNAMICS.has(ref.name)) return userSideValue(ref.name, ref.args[0] as string, scope);
      return (dynamicVariable(ref.name) as NonNullable<ReturnType<typeof dynamicVariable>>).generate(ref.args, scope.dynamic);
    }
    case 'response':
      return responseValue(ref, scope);
    case 'name': {
      const env = scope.environment[ref.name];
      if (env !== undefined) return env;
      const prompted = scope.prompted?.get(ref.name);
      if (prompted !== undefined) return prompted;
      const own = scope.fileVariables.get(ref.name);
      if (own) {
        const known = scope.resolved.get(ref.name);
        if (known !== undefined) return known;
        if (depth >= MAX_VARIABLE_DEPTH) throw new Error(`variables refer to each other in a circle, or more than ${MAX_VARIABLE_DEPTH} deep (at ${ref.name})`);
        const value = expand(own.value, scope, depth + 1, budget);
        scope.resolved.set(ref.name, value);
        return value;
      }
      if (Object.hasOwn(scope.outside, ref.name)) return scope.outside[ref.name];
      throw new Error(`unknown variable ${ref.name}: define it with @${ref.name} = … in the file or pass --var ${ref.name}=…`);
    }
  }
}

/**
 * `{{$processEnv NAME}}` or `{{$dotenv NAME}}`: REST Client and httpyac send an empty text for a name that is not set;
 * a flow refuses it, naming it, rather than sending a request its author did not mean.
 */
function userSideValue(kind: string, name: string, scope: FlowScope): string {
  if (kind === '$processEnv') {
    if (!scope.processEnv) throw new Error('the process environment is not read here');
    const value = scope.processEnv[name];
    if (value === undefined) throw new Error(`the environment variable ${name} is not set (REST Client and httpyac would send an empty text)`);
    return value;
  }
  const dotenv = scope.dotenv;
  if (!dotenv) throw new Error('no .env file is read here');
  if ('error' in dotenv) throw new Error(dotenv.error);
  const value = dotenv.values[name];
  if (value === undefined) throw new Error(`${dotenv.file} has no ${name}`);
  return value;
}

function expand(s: string, scope: FlowScope, depth: number, budget: Budget): string {
  const refs = flowRefs(s);
  if (refs.length === 0) return s;
  let out = '';
  let at = 0;
  for (const r of refs) {
    out += s.slice(at, r.start) + text(refValue(r.ref, scope, depth, budget));
    at = r.end;
    if (out.length > MAX_RESOLVED_LENGTH) throw new Error(`the variables expand to more than ${MAX_RESOLVED_LENGTH} characters`);
  }
  return out + s.slice(at);
}

/**
 * Resolves every reference of `s` as text (JSON values of request references are written as JSON).
 * @param at where `s` starts in the flow file (errors point at the reference).
 * @throws FlowVariableError naming the reference, its position and why (unknown, not run yet, no such path, a circle).
 */
export function resolveText(s: string, at: FlowPosition, scope: FlowScope): string {
  const refs = flowRefs(s);
  if (refs.length === 0) return s;
  let out = '';
  let last = 0;
  const budget = { left: MAX_EXPANSIONS };
  for (const r of refs) {
    try {
      out += s.slice(last, r.start) + text(refValue(r.ref, scope, 0, budget));
    } catch (err) {
      throw new FlowVariableError(`${r.raw}: ${(err as Error).message}`, positionIn(s, r.start, at));
    }
    if (out.length > MAX_RESOLVED_LENGTH) throw new FlowVariableError(`the text expands to more than ${MAX_RESOLVED_LENGTH} characters`, at);
    last = r.end;
  }
  return out + s.slice(last);
}

/**
 * Resolves the strings of a JSON body read with `<@ file` as Send Payload does (docs/variables.md): a string that is
 * one reference takes its value's type where the contract's schema (`schema`, the payload kind's) wants a number, and
 * stays text where it wants text; other strings are resolved as text.
 * @param where a name for messages (the body file) and the `<@` line's position.
 * @throws FlowVariableError for a reference that cannot be resolved.
 */
export function resolveJsonBody(value: unknown, schema: z.ZodType | undefined, where: { readonly name: string } & FlowPosition, scope: FlowScope): unknown {
  const walk = (v: unknown, path: (string | number)[], s: z.ZodType | undefined): unknown => {
    if (typeof v === 'string') return resolveString(v, path, s);
    if (Array.isArray(v)) return v.map((x, i) => walk(x, [...path, i], s ? schemaAt(s, [i]) : undefined));
    if (v === null || typeof v !== 'object') return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = walk(x, [...path, k], s && !(path.length === 0 && k.startsWith('$')) ? schemaAt(s, [k]) : undefined);
    return out;
  };
  const resolveString = (v: string, path: (string | number)[], s: z.ZodType | undefined): unknown => {
    const refs = flowRefs(v);
    if (refs.length === 0) return v;
    const fail = (reason: string) => new FlowVariableError(`${where.name}: ${path.map(String).join('.') || '(root)'}: ${reason}`, where);
    if (refs.length === 1 && refs[0]?.start === 0 && refs[0].end === v.length) {
      let got: unknown;
      try {
        got = refValue(refs[0].ref, scope, 0, { left: MAX_EXPANSIONS });
      } catch (err) {
        throw fail(`${refs[0].raw}: ${(err as Error).message}`);
      }
      return asFieldType(got, s);
    }
    try {
      return resolveText(v, where, scope);
    } catch (err) {
      throw err instanceof FlowVariableError ? fail(err.reason) : err;
    }
  };
  return walk(value, [], schema);
}

/** The environment's addresses as the variables `{{baseUrl}}`, `{{v2BaseUrl}}`, `{{eligibilityBaseUrl}}`, `{{partnerId}}`. */
export function environmentVariablesOf(env: FlowEnvironment): Record<string, string | undefined> {
  const bases = Object.fromEntries(environmentBases(env)) as Partial<Record<BaseKind, string>>;
  return { baseUrl: bases.v3, v2BaseUrl: bases.v2, eligibilityBaseUrl: bases.eligibility, partnerId: env.partnerId };
}
