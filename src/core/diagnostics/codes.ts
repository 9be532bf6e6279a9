import { CONTRACT_RULES, PATH_SEGMENT } from './payload';
import { RULES } from './engine';
import { SEMANTIC_RULES } from './semantic';
import type { Severity } from './types';
import { VARIABLE_RULES } from '../variables/check';

/**
 * Every diagnostic code the payload diagnostics (editor and `tpp validate`) can emit, with its severity and
 * what backs it. An **error** is a rule the spec states (type, required, length in characters,
 * format, a range or value it gives) and cites the spec section; a **warning** is a plausibility check (or a
 * spec note that never makes a request fail) and can be turned off per code. docs/diagnostics.md is the
 * readable table of the same codes; a unit test keeps the two equal.
 */

/** What backs a code: a rule of the spec, a plausibility check, or the tool itself (no payload kind). */
export type CodeBasis = 'spec' | 'plausibility' | 'tool';

export interface DiagnosticCode {
  readonly severity: Severity;
  readonly basis: CodeBasis;
}

const spec = (severity: Severity = 'error'): DiagnosticCode => ({ severity, basis: 'spec' });
const plausible: DiagnosticCode = { severity: 'warning', basis: 'plausibility' };

/** Code of the CLI's error for a file named explicitly that is not a payload file. */
export const NO_SCHEMA = 'no-schema';

/** The codes, by name. */
export const DIAGNOSTIC_CODES: Readonly<Record<string, DiagnosticCode>> = {
  [RULES.syntax]: spec(),
  [RULES.emptyFile]: spec(),
  [RULES.notObject]: spec(),
  [RULES.required]: spec(),
  [CONTRACT_RULES.empty]: spec(),
  [RULES.type]: spec(),
  [CONTRACT_RULES.maxLength]: spec(),
  [CONTRACT_RULES.int]: spec(),
  [CONTRACT_RULES.integer]: spec(),
  [CONTRACT_RULES.number]: spec(),
  [RULES.money]: spec(),
  [CONTRACT_RULES.datetime]: spec(),
  [CONTRACT_RULES.boolean]: spec(),
  [CONTRACT_RULES.email]: spec(),
  [CONTRACT_RULES.yearFormat]: spec(),
  [RULES.enum]: spec(),
  [CONTRACT_RULES.minItems]: spec(),
  [CONTRACT_RULES.separateRequests]: spec(),
  [SEMANTIC_RULES.deprecated]: spec('warning'),
  [RULES.unknownProperty]: plausible,
  [SEMANTIC_RULES.duplicateRegistration]: plausible,
  [SEMANTIC_RULES.tireDots]: plausible,
  [SEMANTIC_RULES.vehicleYear]: plausible,
  [SEMANTIC_RULES.futureDate]: plausible,
  [SEMANTIC_RULES.pastDate]: plausible,
  [SEMANTIC_RULES.emailFormat]: plausible,
  [SEMANTIC_RULES.commercialVehicleCase]: plausible,
  [SEMANTIC_RULES.sandboxTireLimit]: plausible,
  [SEMANTIC_RULES.tireCount]: plausible,
  [SEMANTIC_RULES.emptyValue]: plausible,
  [SEMANTIC_RULES.dateWithoutZone]: plausible,
  [CONTRACT_RULES.unknownKind]: { severity: 'error', basis: 'tool' },
  [NO_SCHEMA]: { severity: 'error', basis: 'tool' },
  [PATH_SEGMENT]: { severity: 'error', basis: 'tool' },
  [VARIABLE_RULES.variable]: { severity: 'error', basis: 'tool' },
  [VARIABLE_RULES.unknownVariable]: { severity: 'warning', basis: 'tool' },
};

/** Codes that can be turned off (`tpp.diagnostics.disabled`, `--ignore`): every warning. */
export function canDisable(code: string): boolean {
  return DIAGNOSTIC_CODES[code]?.severity === 'warning';
}

/**
 * Drops the problems whose code is in `disabled`, warnings only: an error (a rule the spec states) is never
 * hidden. Returns `problems` itself when nothing is dropped.
 */
export function withoutDisabled<P extends { readonly code: string; readonly severity: Severity }>(problems: readonly P[], disabled: ReadonlySet<string> | readonly string[]): readonly P[] {
  const set = disabled instanceof Set ? disabled : new Set(disabled as readonly string[]);
  if (set.size === 0) return problems;
  return problems.filter((p) => p.severity === 'error' || !set.has(p.code));
}
