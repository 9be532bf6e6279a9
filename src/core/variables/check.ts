import type { z } from 'zod';
import { fieldName } from '../contract/paths';
import { schemaAt } from '../contract/schemaWalk';
import { isCaptureName, isCaptureRoot } from './captures';
import { dynamicVariable } from './dynamic';
import { wantsOf } from './wants';
import { DYNAMIC_NAME_RE, NAME_RE, forEachVariableString, parseRefs, wholeRef } from './syntax';

/**
 * What the diagnostics make of variables, so the editor and `tpp validate` agree: a string that
 * is one variable is valid where the contract wants a string, int or number (its value is only known at send time),
 * one embedded in a longer string is valid where free text (a string without a pattern) is wanted; a variable's own arguments are checked.
 */

/** A problem with a variable, before the engine places it. */
export interface VariableFinding {
  readonly path: (string | number)[];
  readonly severity: 'error' | 'warning';
  /** `variable` (malformed: an error), `unknown-variable` (a warning), `type` (a dynamic value of the wrong type). */
  readonly code: 'variable' | 'unknown-variable' | 'type';
  readonly message: string;
}

/** The result of {@link checkVariables}. */
export interface VariableCheck {
  /** JSON paths (as `JSON.stringify(path)`) whose contract and plausibility checks are skipped: their value is known at send time only. */
  readonly skip: ReadonlySet<string>;
  readonly findings: readonly VariableFinding[];
}

/** Rule codes of variable findings. */
export const VARIABLE_RULES = { variable: 'variable', unknownVariable: 'unknown-variable' } as const;

/**
 * Checks the variables of a parsed payload.
 *
 * @param root the parsed file (meta properties included).
 * @param schema the kind's contract schema.
 * @param environmentNames names defined in the `tpp.variables` setting for the active environment (undefined: none,
 *   as in `tpp validate`); a name not there, not a capture and not a dynamic value is an `unknown-variable` warning.
 */
export function checkVariables(root: unknown, schema: z.ZodType, environmentNames?: ReadonlySet<string>): VariableCheck {
  const skip = new Set<string>();
  const findings: VariableFinding[] = [];
  forEachVariableString(root, (s, path) => {
    const isMeta = path.length === 1 && typeof path[0] === 'string' && path[0].startsWith('$');
    const fieldSchema = isMeta ? undefined : schemaAt(schema, path);
    const w = wantsOf(fieldSchema);
    const field = fieldName(path);
    for (const ref of parseRefs(s)) {
      const at = (severity: VariableFinding['severity'], code: VariableFinding['code'], reason: string) => findings.push({ path, severity, code, message: `${field}: ${ref.raw}: ${reason}` });
      if (ref.name.startsWith('$')) {
        const dyn = DYNAMIC_NAME_RE.test(ref.name) ? dynamicVariable(ref.name) : undefined;
        if (!dyn) at('error', 'variable', `unknown dynamic value ${ref.name} (known: $guid, $timestamp, $datetime, $randomInt, $date)`);
        else {
          const bad = dyn.check(ref.args);
          if (bad) at('error', 'variable', bad);
          else if (fieldSchema && dyn.type === 'string' && !w.string && w.number && s === ref.raw) at('error', 'type', `${ref.name} gives text, but ${field} is a number`);
        }
      } else if (!NAME_RE.test(ref.name)) at('error', 'variable', ref.name ? `'${ref.name}' is not a variable name (letters, digits, _ and -, in parts separated by dots)` : 'empty variable: write a name between the braces');
      else if (ref.args.length) at('error', 'variable', 'only dynamic values ($…) take arguments');
      else if (isCaptureRoot(ref.name)) {
        if (!isCaptureName(ref.name)) at('warning', 'unknown-variable', `${ref.name.split('.')[0]} has no field ${ref.name.split('.').slice(1).join('.')}`);
      } else if (!environmentNames?.has(ref.name) && !environmentNames?.has(ref.name.split('.')[0]!)) {
        at('warning', 'unknown-variable', 'unknown variable: not a dynamic value, a capture, nor defined in the tpp.variables setting for this environment');
      }
    }
    // One variable alone: valid wherever a string or a number goes. Embedded in text: valid where free text goes.
    if (wholeRef(s) ? w.string || w.number || !fieldSchema : w.text || !fieldSchema) skip.add(JSON.stringify(path));
  });
  return { skip, findings };
}
