import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { PAYLOAD_KINDS } from '../../core/contract/kinds';
import { DIAGNOSTIC_CODES, NO_SCHEMA, canDisable, withoutDisabled } from '../../core/diagnostics/codes';
import { expandGlob, isGlob } from '../../core/diagnostics/glob';
import { diagnosePayload } from '../../core/diagnostics/payload';
import { SYNTAX_MESSAGES } from '../../core/diagnostics/edits';
import { RULES } from '../../core/diagnostics/engine';
import { LineIndex } from '../../core/diagnostics/lineIndex';
import type { Problem } from '../../core/diagnostics/types';
import { parseStrictJson } from '../../core/json/strictJson';
import { CliCommand, UsageError } from '../io';

/** One problem as printed by `--format json` (1-based lines and columns; end is exclusive). */
export interface ValidateJsonProblem {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: 'error' | 'warning';
  message: string;
  code: string;
  /** Heading of the spec section that states the rule (every error of a payload kind has one). */
  section?: string;
}

/**
 * `tpp validate <file|glob>... [--format text|json] [--ignore <code>]...`: the editor's payload diagnostics,
 * headless. Text: `path:line:col: error|warning: message [code] (spec: Section)` (1-based); JSON: an array
 * of {@link ValidateJsonProblem}. `--ignore <code>` (repeatable) drops the warnings of that code, like the
 * editor's `tpp.diagnostics.disabled` setting; an error code cannot be ignored (usage error). A file named
 * explicitly must be a payload file (a `tpp://schemas/` `$schema` or a `*.<kind>.tpp.json` name); files matched
 * only by a glob without one are skipped. docs/diagnostics.md lists every code.
 * Exit 0 without errors (warnings allowed), 1 with errors, 2 on usage or read errors.
 */
/**
 * The first JSON syntax error of `text` as a problem at its line and column (payload files are strict JSON:
 * ../shared/spec/partner-interface.md, Conventions), or undefined when the text is JSON.
 */
function notJson(text: string): Problem | undefined {
  const json = parseStrictJson(text);
  if (json.ok) return undefined;
  const lines = new LineIndex(text);
  const end = Math.min(json.offset + 1, text.length);
  return { severity: 'error', code: RULES.syntax, message: `not JSON: ${SYNTAX_MESSAGES[json.code] ?? json.code}`, start: json.offset, end, path: [], range: { start: lines.positionAt(json.offset), end: lines.positionAt(end) } };
}

export const validateCommand: CliCommand = {
  name: 'validate',
  usage: 'tpp validate <file|glob>... [--format text|json] [--ignore <warning code>]...',
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: { format: { type: 'string', default: 'text' }, ignore: { type: 'string', multiple: true, default: [] } },
      allowPositionals: true,
      strict: true,
    });
    const format = values.format;
    if (format !== 'text' && format !== 'json') throw new UsageError(`--format must be text or json, got '${format}'`);
    if (positionals.length === 0) throw new UsageError('give at least one file or glob');
    const ignored = new Set(values.ignore);
    for (const code of ignored) {
      if (!DIAGNOSTIC_CODES[code]) throw new UsageError(`--ignore: unknown code '${code}' (warning codes: ${Object.keys(DIAGNOSTIC_CODES).filter(canDisable).join(', ')})`);
      if (!canDisable(code)) throw new UsageError(`--ignore: '${code}' is an error (a rule the spec states) and cannot be ignored`);
    }

    let readErrors = 0;
    const files: { path: string; explicit: boolean }[] = [];
    const seen = new Set<string>();
    for (const p of positionals) {
      if (isGlob(p)) {
        const matched = expandGlob(p, process.cwd());
        if (matched.length === 0) {
          io.stderr.write(`tpp validate: no file matches ${p}\n`);
          readErrors++;
        }
        for (const m of matched) {
          if (seen.has(m)) continue;
          seen.add(m);
          files.push({ path: m, explicit: false });
        }
      } else if (!seen.has(p)) {
        seen.add(p);
        files.push({ path: p, explicit: true });
      }
    }

    const out: ValidateJsonProblem[] = [];
    let errors = 0;
    let warnings = 0;
    let checked = 0;
    let skipped = 0;
    for (const f of files) {
      let text: string;
      try {
        // Read synchronously: one file after the other either way, and node:fs/promises costs ~2 ms to load.
        text = readFileSync(f.path, 'utf8').replace(/^\uFEFF/, '');
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : code === 'EACCES' ? 'permission denied' : (err as Error).message;
        io.stderr.write(`${f.path}: cannot read: ${why}\n`);
        readErrors++;
        continue;
      }
      const diagnosis = diagnosePayload(text, { fileName: f.path });
      let problems: readonly Problem[];
      if (!diagnosis) {
        if (!f.explicit) {
          skipped++;
          continue;
        }
        // A file that is not JSON at all: its syntax error and where, not a missing $schema it could not hold.
        problems = [notJson(text) ?? { severity: 'error', code: NO_SCHEMA, message: `not a payload file: add "$schema": "tpp://schemas/<kind>.json" (kinds: ${Object.keys(PAYLOAD_KINDS).join(', ')})`, start: 0, end: 0, path: [], range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } }];
      } else problems = withoutDisabled(diagnosis.problems, ignored);
      checked++;
      for (const p of problems) {
        if (p.severity === 'error') errors++;
        else warnings++;
        out.push({ file: f.path, line: p.range.start.line + 1, column: p.range.start.character + 1, endLine: p.range.end.line + 1, endColumn: p.range.end.character + 1, severity: p.severity, message: p.message, code: p.code, ...(p.section ? { section: p.section } : {}) });
      }
    }

    if (format === 'json') io.stdout.write(JSON.stringify(out, null, 2) + '\n');
    else for (const p of out) io.stdout.write(`${p.file}:${p.line}:${p.column}: ${p.severity}: ${p.message} [${p.code}]${p.section ? ` (spec: ${p.section})` : ''}\n`);
    const skippedNote = skipped ? `, ${skipped} skipped (no tpp $schema)` : '';
    io.stderr.write(`${checked} file${checked === 1 ? '' : 's'} checked: ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}${skippedNote}\n`);
    return readErrors > 0 ? 2 : errors > 0 ? 1 : 0;
  },
};
