import { isEnvironmentId, type EnvironmentId } from '../../core/environments';
import { envOf } from './treeArgs';

/**
 * Decoders of single command arguments, the fields of the options objects tests and other commands pass. A value of
 * another type reads as not given (`undefined`), so a command then asks as it would without it. Plain Node: no editor.
 */
export type Fields = Readonly<Record<string, unknown>>;

/** The fields of an options argument; `{}` for anything that is not an object. */
export function fieldsArg(v: unknown): Fields {
  return v !== null && typeof v === 'object' ? (v as Fields) : {};
}

/** A non-empty string, else `undefined`. */
export function textArg(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** A string, the empty one included, else `undefined`. */
export function stringArg(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** A boolean, else `undefined`. */
export function flagArg(v: unknown): boolean | undefined {
  return typeof v === 'boolean' ? v : undefined;
}

/** A number, else `undefined` (range checks are the command's: it says what is wrong). */
export function numberArg(v: unknown): number | undefined {
  return typeof v === 'number' ? v : undefined;
}

/** One of `values`, else `undefined`. */
export function oneOfArg<T extends string>(v: unknown, values: readonly T[]): T | undefined {
  return typeof v === 'string' && (values as readonly string[]).includes(v) ? (v as T) : undefined;
}

/**
 * The environment a command argument asks for: the one it names (an environment id or a row of one); `'ask'` when an
 * argument was given that names none (the user picks); `undefined` when none was given (the active one).
 */
export type EnvTarget = EnvironmentId | 'ask' | undefined;

/** The {@link EnvTarget} of a command argument. */
export function envTargetOf(v: unknown): EnvTarget {
  return v === undefined || v === null ? undefined : (envOf(v) ?? 'ask');
}

/** Whether the caller already asked the user (`{ confirmed: true }`, the destructive key commands). */
export function confirmedArg(v: unknown): boolean {
  return fieldsArg(v).confirmed === true;
}

/**
 * The environment argument of the send and run commands: an environment id, `'pick'` to ask, else (`undefined`,
 * anything else) the active one.
 */
export type EnvChoice = EnvironmentId | 'pick' | undefined;

/** The {@link EnvChoice} of a command argument. */
export function envChoiceOf(v: unknown): EnvChoice {
  return isEnvironmentId(v) || v === 'pick' ? v : undefined;
}
