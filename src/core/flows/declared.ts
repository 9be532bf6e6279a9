/**
 * Names a flow file declares as given from outside it (docs/flows.md, Format): a comment line `# @var company` (or
 * `// @var company`, anywhere in the file, optionally followed by words saying what it is) says that `{{company}}`
 * comes from `tpp run --var company=…` or, in the editor, the `tpp.variables` setting. A declared name is not an
 * unknown variable; a run that is not given it refuses before sending anything, naming the flag. A declaration takes
 * no value: a value written in the file is a file variable (`@company = …`), and a file variable wins over `--var`, so
 * a name both declared and defined is refused rather than silently ignoring what was given.
 */
import type { DeclaredVariable, FlowFile, FlowProblem } from './types';

const DECLARATION_RE = /^(\s*(?:#|\/\/)\s*)@var(?=\s|$)(.*)$/;
const NAME_RE = /^[A-Za-z_][\w-]*$/;

/**
 * The `# @var` lines of a flow file's lines, in order (a name declared twice counts once), and the problems of the
 * malformed ones: no name, a name that is not a variable name, a value after the name.
 * @param lines the file's lines (no line endings); `file` is the name problems carry.
 */
export function declaredVariables(lines: readonly string[], file: string): { declared: DeclaredVariable[]; problems: FlowProblem[] } {
  const declared: DeclaredVariable[] = [];
  const problems: FlowProblem[] = [];
  lines.forEach((text, i) => {
    const m = DECLARATION_RE.exec(text);
    if (!m) return;
    const at = { line: i + 1, column: (m[1] as string).length + 1 };
    const rest = (m[2] as string).trim();
    const [name = '', ...words] = rest.split(/\s+/);
    const problem = (message: string) => problems.push({ file, ...at, end: { line: at.line, column: text.length + 1 }, severity: 'error', code: 'flow-declared-variable', message });
    const bare = name.replace(/=.*$/, '');
    if (bare === '') return problem('@var needs the name of a variable given from outside the file, e.g. # @var company (then tpp run --var company=…).');
    if (/^[^\s=]+\s*=/.test(rest)) return problem(`# @var ${bare} takes no value: it says ${bare} is given from outside the file (tpp run --var ${bare}=…, the editor's tpp.variables); a value written in the file is @${bare} = ….`);
    if (!NAME_RE.test(name)) return problem(`'${name}' is not a variable name (letters, digits, _ and -, starting with a letter)${name.startsWith('row.') ? '; a row. value comes from the data file named by # @data' : ''}.`);
    if (declared.some((d) => d.name === name)) return;
    declared.push({ name, ...at, ...(words.length ? { description: words.join(' ') } : {}) });
  });
  return { declared, problems };
}

/**
 * What a run refuses about the declared names: one that `given` (the names from outside the file) lacks, and one the
 * file also defines with `@name = …`.
 * @returns errors at the `# @var` lines, code `flow-declared-variable`; none when nothing is declared.
 */
export function declaredProblems(file: FlowFile, given: ReadonlySet<string>): FlowProblem[] {
  const out: FlowProblem[] = [];
  for (const d of file.declared ?? []) {
    const defined = file.variables.find((v) => v.name === d.name);
    const message = defined
      ? `${d.name} is declared with # @var (given from outside the file) and defined with @${d.name} = … on line ${defined.line}; the file's value would win over --var ${d.name}=…: keep one.`
      : !given.has(d.name)
        ? `${d.name} is declared with # @var but not given: pass --var ${d.name}=… (in the editor, set ${d.name} in tpp.variables for the environment).`
        : undefined;
    if (message) out.push({ file: file.file, line: d.line, column: d.column, severity: 'error', code: 'flow-declared-variable', message });
  }
  return out;
}
