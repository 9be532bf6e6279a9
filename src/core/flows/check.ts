/**
 * Checks of a flow file before it runs (docs/flows.md, Running): what parsing alone cannot know. A `{{name}}` that
 * no environment address, file variable or outside variable defines, a name declared with `# @var` and not given
 * (declared.ts), a `# @prompt` without its `--var`, a `{{$processEnv}}` or `{{$dotenv}}` that is not set, and a
 * `< file` that cannot be read, are errors, so `tpp run` exits 2 having sent nothing rather than stopping half-way
 * through a flow.
 */
import { atEnvironment, bodyFilesOf, carriedBy, hostRefusal, promptedIn, promptsOf, reachedRefs, type HostPolicy } from './carried';
import { declaredProblems } from './declared';
import { readDotenv } from './dotenv';
import { flowDynamicProblem, USER_SIDE_DYNAMICS } from './flowDynamic';
import { readBodyFile, FlowBodyFileError } from './prepare';
import { flowRefs, positionIn } from './refs';
import { textsOf } from './parseChecks';
import type { FlowEnvironment, FlowFile, FlowPosition, FlowProblem } from './types';
import { resolveText, type FlowScope } from './variables';

/** What a run will know. */
export interface FlowCheckOptions {
  /** Names defined outside the file: the environment's addresses and the outside variables. */
  readonly names: ReadonlySet<string>;
  /** Reads a body file (as the run would); absent: body files are not checked. */
  readonly readFile?: (path: string) => Promise<string>;
  /**
   * The run's environment, outside variables and host policy: a request whose URL is known before the run and would
   * carry the user's values to another host is an error (carried.ts), unless the host is allowed or the policy's
   * `confirm` (the editor's dialog) says yes: asked here, before anything is sent, and only of a flow nothing else
   * refuses. Absent: hosts are checked only as requests go.
   */
  readonly hosts?: { readonly environment: FlowEnvironment; readonly variables: Readonly<Record<string, string>>; readonly policy?: HostPolicy };
  /**
   * Where `# @prompt` values come from: `asked` (the default: the editor asks when the request runs) or
   * `from-variables` (`tpp run`, and every backfill, which asks nothing: `names`, given with `--var` or the editor's
   * `tpp.variables`; a prompt without one is an error).
   */
  readonly prompts?: 'asked' | 'from-variables';
  /** The process environment `{{$processEnv NAME}}` will read; absent: not checked. */
  readonly processEnv?: Readonly<Record<string, string | undefined>>;
  /**
   * The run's environment id, for `.env.<id>`: a `{{$dotenv NAME}}` the run will not find is an error (dotenv.ts,
   * read with `readFile`). Absent: `$dotenv` is not checked (the editor's Problems, which know no environment).
   */
  readonly environmentId?: string;
  /** True for a backfill: `{{row.<column>}}` is given by its data file, whose rows reader checks it against the columns. */
  readonly rows?: boolean;
}

/** `# @prompt` lines whose value the run will not have: `tpp run` asks nothing, the value comes from --var. */
function promptProblems(file: FlowFile, options: FlowCheckOptions): FlowProblem[] {
  if (options.prompts !== 'from-variables') return [];
  return file.requests.flatMap((r) =>
    (r.prompts ?? [])
      .filter((p) => !options.names.has(p.name))
      .map((p): FlowProblem => ({ file: file.file, line: p.line, column: p.column, severity: 'error', code: 'flow-prompt', message: `# @prompt ${p.name} asks for the value of {{${p.name}}} when the request is sent; ${options.rows ? 'a backfill' : 'tpp run'} asks nothing: give it with --var ${p.name}=<value> (tpp run) or the setting tpp.variables (the editor).` })),
  );
}

/** `{{$processEnv NAME}}` and `{{$dotenv NAME}}` whose value the run will not find. */
async function userSideProblems(file: FlowFile, texts: readonly { text: string; at: { line: number; column: number } }[], options: FlowCheckOptions): Promise<FlowProblem[]> {
  const out: FlowProblem[] = [];
  let dotenv: Awaited<ReturnType<typeof readDotenv>> | undefined;
  for (const t of texts) {
    for (const r of flowRefs(t.text)) {
      if (r.ref.kind !== 'dynamic' || !USER_SIDE_DYNAMICS.has(r.ref.name) || flowDynamicProblem(r.ref.name, r.ref.args)) continue;
      const name = r.ref.args[0] as string;
      let why: string | undefined;
      if (r.ref.name === '$processEnv') {
        if (options.processEnv && options.processEnv[name] === undefined) why = `the environment variable ${name} is not set (REST Client and httpyac would send an empty text)`;
      } else if (options.readFile && options.environmentId !== undefined) {
        dotenv ??= await readDotenv(options.readFile, options.environmentId);
        if ('error' in dotenv) why = dotenv.error;
        else if (dotenv.values[name] === undefined) why = `${dotenv.file} has no ${name}`;
      }
      if (why) out.push({ file: file.file, ...positionIn(t.text, r.start, t.at), severity: 'error', code: 'flow-unknown-variable', message: `${r.raw}: ${why}.` });
    }
  }
  return out;
}

/**
 * The `# @prompt` names whose answers the run will use (carried.ts, promptsOf): none for `tpp run`, which asks nothing
 * (a `--var` is a variable given from outside, and a file variable of its name wins over it).
 */
const answeredPrompts = (file: FlowFile, options: FlowCheckOptions): Map<string, number> => (options.prompts === 'from-variables' ? new Map() : promptsOf(file));

/** The URL of each request when it is known before the run (no answer or unknown variable in it), by index. */
function staticUrls(file: FlowFile, hosts: NonNullable<FlowCheckOptions['hosts']>, prompts: ReadonlyMap<string, number>): Map<number, string> {
  const env = hosts.environment;
  const scope: FlowScope = {
    environment: { baseUrl: env.baseUrl, v2BaseUrl: env.v2BaseUrl, eligibilityBaseUrl: env.eligibilityBaseUrl, partnerId: env.partnerId },
    fileVariables: new Map(file.variables.map((v) => [v.name, v])),
    outside: hosts.variables,
    answers: new Map(),
    resolved: new Map(),
    dynamic: { now: new Date(), random: Math.random },
  };
  const out = new Map<number, string>();
  for (const r of file.requests) {
    // A URL reaching a # @prompt answer is known only when the user answers: judged when the request is sent.
    if (reachedRefs([r.url], scope.fileVariables).some((x) => x.kind === 'name' && promptedIn(r, prompts)(x.name))) continue;
    try {
      out.set(r.index, resolveText(r.url, r, scope).trim());
    } catch {
      // an answer or an unknown name in the URL: judged when the request is sent
    }
  }
  return out;
}

/**
 * Requests known before the run to carry the user's values to a host the user did not allow (carried.ts).
 * @param ask whether the policy's `confirm` may be asked; otherwise only its allowed hosts pass.
 */
async function hostProblems(file: FlowFile, hosts: NonNullable<FlowCheckOptions['hosts']>, prompts: ReadonlyMap<string, number>, ask: boolean): Promise<FlowProblem[]> {
  const urls = staticUrls(file, hosts, prompts);
  const byName = new Map(file.requests.flatMap((r) => (r.name !== undefined ? [[r.name, r.index] as const] : [])));
  const vars = new Map(file.variables.map((v) => [v.name, v]));
  const signed = (name: string) => {
    const url = urls.get(byName.get(name) ?? -1);
    if (url === undefined) return false;
    try {
      return atEnvironment(new URL(url), hosts.environment);
    } catch {
      return false;
    }
  };
  const out: FlowProblem[] = [];
  for (const r of file.requests) {
    const url = urls.get(r.index);
    if (url === undefined) continue;
    const why = await hostRefusal(url, carriedBy(r, vars, signed, prompts), hosts.environment, ask ? hosts.policy : { allowed: hosts.policy?.allowed ?? [], ...(hosts.policy?.howToAllow ? { howToAllow: hosts.policy.howToAllow } : {}) });
    if (why) out.push({ file: file.file, line: r.line, column: r.urlColumn ?? r.column, severity: 'error', code: 'flow-foreign-host', message: `${r.method} ${r.url}: not sent: ${why}.` });
  }
  return out;
}

/** Body files (`< file`, `<@ file`, multipart `< file` parts) that the run's reader refuses or cannot read. */
async function bodyFileProblems(file: FlowFile, readFile: (path: string) => Promise<string>): Promise<FlowProblem[]> {
  const out: FlowProblem[] = [];
  for (const r of file.requests) {
    for (const f of bodyFilesOf(r)) {
      if (f.path === '') continue;
      try {
        await readBodyFile(f.path, f, readFile);
      } catch (err) {
        if (err instanceof FlowBodyFileError) out.push({ file: file.file, ...err.position, severity: 'error', code: 'flow-body-file', message: `${err.reason[0]?.toUpperCase() ?? ''}${err.reason.slice(1)}.` });
      }
    }
  }
  return out;
}

/**
 * Finds what refuses a parsed file before anything is sent (`tpp run`, and the editor before its first request):
 * unknown variables, declared names (`# @var`) not given, prompts without their value, `$processEnv`/`$dotenv` not
 * set, body files refused or unreadable, and requests known to carry the user's values to a host not allowed.
 * @returns problems with severity `error` and code `flow-unknown-variable`, `flow-declared-variable`, `flow-prompt`,
 *   `flow-body-file` or `flow-foreign-host`; never throws (a `confirm` of the host policy that throws rejects).
 */
export async function checkFlowForRun(file: FlowFile, options: FlowCheckOptions): Promise<FlowProblem[]> {
  // A name declared with # @var is judged once, at its declaration (declared.ts), not at each use.
  const own = new Set([...file.variables.map((v) => v.name), ...(file.declared ?? []).map((d) => d.name)]);
  const out: FlowProblem[] = [];
  const prompted = promptsOf(file);
  const texts = [
    ...file.requests.flatMap((r) => textsOf(r)),
    ...file.variables.map((v) => ({ text: v.value, at: { line: v.line, column: v.column } })),
  ];
  for (const t of texts) {
    for (const r of flowRefs(t.text)) {
      if (r.ref.kind !== 'name' || own.has(r.ref.name) || options.names.has(r.ref.name) || (options.rows && r.ref.name.startsWith('row.'))) continue;
      // A # @prompt value: the editor asks for it; for tpp run, promptProblems names it once, at its # @prompt line.
      if (prompted.has(r.ref.name)) continue;
      const at = positionIn(t.text, r.start, t.at);
      out.push({ file: file.file, ...at, severity: 'error', code: 'flow-unknown-variable', message: `${r.raw}: unknown variable ${r.ref.name}: define it with @${r.ref.name} = … in the file or pass --var ${r.ref.name}=… (the environment gives baseUrl, v2BaseUrl, eligibilityBaseUrl and partnerId).` });
    }
  }
  out.push(...declaredProblems(file, options.names));
  out.push(...promptProblems(file, options), ...(await userSideProblems(file, texts, options)));
  if (options.readFile) out.push(...(await bodyFileProblems(file, options.readFile)));
  // Last: a flow refused for another reason is not worth a question about a host.
  if (options.hosts) out.push(...(await hostProblems(file, options.hosts, answeredPrompts(file, options), !out.some((p) => p.severity === 'error'))));
  return out.sort((a, b) => a.line - b.line || a.column - b.column);
}

/**
 * The file variables that the run's environment replaces (docs/flows.md, Variables): a file's own `@baseUrl`,
 * `@v2BaseUrl`, `@eligibilityBaseUrl` or `@partnerId`, written for REST Client, whose value is not the environment's.
 * @returns one sentence naming them and where requests go instead, with the position of the first; undefined when none.
 */
export function replacedEnvironmentNames(file: FlowFile, environment: Readonly<Record<string, string | undefined>>): (FlowPosition & { readonly message: string }) | undefined {
  const replaced = file.variables.filter((v) => environment[v.name] !== undefined && environment[v.name] !== v.value);
  const first = replaced[0];
  if (!first) return undefined;
  const names = [...new Set(replaced.map((v) => v.name))];
  const what = names.map((n) => `{{${n}}} is ${environment[n]}`).join(', ');
  return { line: first.line, column: first.column, message: `${names.map((n) => `@${n}`).join(', ')} of this file ${names.length === 1 ? 'is' : 'are'} replaced by the environment's: ${what} (tpp run sends to the environment it runs on and signs for it).` };
}
