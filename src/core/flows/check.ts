/**
 * Checks of a flow file before it runs (docs/flows.md, Running): what parsing alone cannot know. A `{{name}}` that
 * no environment address, file variable or outside variable defines, and a `< file` that cannot be read, are
 * errors, so `tpp run` exits 2 having sent nothing rather than stopping half-way through a flow.
 */
import { readBodyFile, FlowBodyFileError } from './prepare';
import { flowRefs, positionIn } from './refs';
import { textsOf } from './parseChecks';
import type { FlowFile, FlowProblem } from './types';

/** What a run will know. */
export interface FlowCheckOptions {
  /** Names defined outside the file: the environment's addresses and the outside variables. */
  readonly names: ReadonlySet<string>;
  /** Reads a body file (as the run would); absent: body files are not checked. */
  readonly readFile?: (path: string) => Promise<string>;
}

/**
 * Finds unknown variables and unreadable body files of a parsed file.
 * @returns problems with severity `error` and code `flow-unknown-variable` or `flow-body-file`; never throws.
 */
export async function checkFlowForRun(file: FlowFile, options: FlowCheckOptions): Promise<FlowProblem[]> {
  const own = new Set(file.variables.map((v) => v.name));
  const out: FlowProblem[] = [];
  const texts = [
    ...file.requests.flatMap((r) => textsOf(r)),
    ...file.variables.map((v) => ({ text: v.value, at: { line: v.line, column: v.column } })),
  ];
  for (const t of texts) {
    for (const r of flowRefs(t.text)) {
      if (r.ref.kind !== 'name' || own.has(r.ref.name) || options.names.has(r.ref.name)) continue;
      const at = positionIn(t.text, r.start, t.at);
      out.push({ file: file.file, ...at, severity: 'error', code: 'flow-unknown-variable', message: `${r.raw}: unknown variable ${r.ref.name}: define it with @${r.ref.name} = … in the file or pass --var ${r.ref.name}=… (the environment gives baseUrl, v2BaseUrl, eligibilityBaseUrl and partnerId).` });
    }
  }
  const readFile = options.readFile;
  if (readFile) {
    for (const r of file.requests) {
      if (r.body?.kind !== 'file' || r.body.path === '') continue;
      try {
        await readBodyFile(r.body.path, r.body, readFile);
      } catch (err) {
        if (err instanceof FlowBodyFileError) out.push({ file: file.file, ...err.position, severity: 'error', code: 'flow-body-file', message: `${err.reason[0]?.toUpperCase() ?? ''}${err.reason.slice(1)}.` });
      }
    }
  }
  return out.sort((a, b) => a.line - b.line || a.column - b.column);
}
