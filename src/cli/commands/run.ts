import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { expandGlob, isGlob } from '../../core/diagnostics/glob';
import { deriveBaseUrls, isEnvironmentId, ENVIRONMENT_IDS } from '../../core/environments';
import { checkFlowForRun, replacedEnvironmentNames } from '../../core/flows/check';
import { parseFlow } from '../../core/flows/parse';
import { runFlows } from '../../core/flows/run';
import { environmentVariablesOf } from '../../core/flows/variables';
import type { FlowEnvironment, FlowFile, FlowProblem, RequestResult } from '../../core/flows/types';
import { importPrivateKeyPem } from '../../core/jwt/keys';
import { TokenMinter } from '../../core/jwt/mint';
import { accessOf, type FlowAccess } from '../flowAccess';
import { CliCommand, CliIo, UsageError } from '../io';
import { PARTNER_OPTIONS, partnerFlags, varsOf } from '../partnerFlags';
import { jsonReport, junitReport, prettyResult, prettySummary, summarize } from './runReport';
import { BACKFILL_HELP, BACKFILL_OPTIONS, runBackfillIfData } from './backfill';

const USAGE =
  'tpp run <file|dir|glob>... [--env local|sandbox|production] [--reporter pretty|junit|json] [--out <file>] [--bail] [--var name=value]... [--allow-read <dir>]... [--allow-host <host>]... --base-url <v3 base> --iss <partner-id> --key <pkcs8.pem> [--v2-base-url <url>] [--eligibility-base-url <url>] [--eligibility-token <t>] [--data <file>] [--dry-run] [--skip-invalid] [--jobs <n>] [--resume] [--retry-unknown] [--journal <file>] [--journal-check] [--no-journal]';

const HELP = `Runs .http flow files as tests (tpp docs flows): each file's requests in order, each checked by its ?? lines.
Requests to the contract's endpoints get a fresh JWT per attempt, retries and duplicate-safe creates (tpp docs sending).

  <file|dir|glob>             .http files; a directory means every .http file below it
  --env <environment>         local, sandbox or production: the name results carry (default local)
  --base-url <url>            version 3 base address ending in /api/v3, {{baseUrl}}; env TPP_BASE_URL
  --iss <partner-id>          the Partner ID (JWT iss), {{partnerId}}; env TPP_PARTNER_ID
  --key <pkcs8.pem>           the partner's private key; env TPP_PRIVATE_KEY_FILE
  --v2-base-url <url>         version 2 host, {{v2BaseUrl}} (default: the origin of --base-url); env TPP_V2_BASE_URL
  --eligibility-base-url <u>  {{eligibilityBaseUrl}} (default: origin + /api/v1)
  --eligibility-token <t>     the provider-issued token of the eligibility lookup; env TPP_ELIGIBILITY_TOKEN
  --var name=value            a variable for the files ({{name}}), also the value of a # @prompt name line;
                              repeatable; a file's @name = value wins
  --reporter <r>              pretty (default), junit (JUnit XML) or json
  --out <file>                write the report to a file instead of stdout
  --bail                      stop the whole run at the first failed request
  --allow-read <dir>          also read body and data files in <dir> (repeatable); a flow reads only files of its
                              project otherwise: the nearest folder above it holding .git or tpp.json
  --allow-host <host>         let requests carry your values (body files, the Partner ID, --var values, data rows,
                              answers of signed requests) to <host> or <host:port> (repeatable); otherwise they go
                              only to the environment's addresses (tpp docs flows: What a flow may do)
  -h, --help                  this help

A failed request skips the rest of its own file; # @disabled requests are skipped. Redirects are followed and
cookies kept per file, as REST Client and httpyac do (# @no-redirect, # @no-cookie-jar). A file's own @baseUrl
(and the other environment names) is replaced by the environment's, and a note says so. Nothing is sent when a
file has an error (syntax, an unknown variable, an unreadable body file, a construct of REST Client, httpyac or
JetBrains that tpp does not run as they do: scripts, for one, are not run).
Exit 0 every request passed; 1 an assertion failed; 2 a file could not be parsed or an option is wrong;
3 a request could not be completed (no answer, outcome unknown, a variable that could not be resolved).${BACKFILL_HELP}`;

const REPORTERS = ['pretty', 'junit', 'json'] as const;
type Reporter = (typeof REPORTERS)[number];

/** The .http files the arguments name: files as given, directories searched, globs expanded; in order, once each. */
export function flowFilesOf(args: readonly string[], cwd: string): string[] {
  const out: string[] = [];
  for (const arg of args) {
    let found: string[];
    if (isGlob(arg)) found = expandGlob(arg, cwd);
    else {
      let isDir = false;
      try {
        isDir = statSync(resolve(cwd, arg)).isDirectory();
      } catch {
        throw new UsageError(`${arg}: no such file or directory`);
      }
      found = isDir ? expandGlob(`${arg.replace(/[\\/]+$/, '')}/**/*.http`, cwd) : [arg];
    }
    if (found.length === 0) throw new UsageError(`${arg}: no .http files there`);
    for (const f of found) if (!out.includes(f)) out.push(f);
  }
  return out;
}

/** The environment of the run from flags and TPP_* variables; throws UsageError for what is missing or wrong. */
function environmentOf(values: Record<string, string | boolean | string[] | undefined>, env: NodeJS.ProcessEnv): FlowEnvironment {
  const flag = (name: string) => values[name] as string | undefined;
  const id = flag('env') ?? 'local';
  if (!isEnvironmentId(id)) throw new UsageError(`--env must be ${ENVIRONMENT_IDS.join(', ')} (got '${id}')`);
  const { baseUrl, iss, keyFile } = partnerFlags({ baseUrl: flag('base-url'), iss: flag('iss'), key: flag('key') }, env);
  let bases: ReturnType<typeof deriveBaseUrls>;
  let key: ReturnType<typeof importPrivateKeyPem>;
  try {
    bases = deriveBaseUrls(baseUrl);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  try {
    key = importPrivateKeyPem(readFileSync(keyFile, 'utf8'));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot use the private key ${keyFile}: ${code ?? (err as Error).message}`);
  }
  const v2 = (flag('v2-base-url') ?? env.TPP_V2_BASE_URL ?? bases.v2).replace(/\/+$/, '');
  const minter = new TokenMinter();
  const eligibility = flag('eligibility-token') ?? env.TPP_ELIGIBILITY_TOKEN;
  return {
    id,
    baseUrl: bases.v3,
    v2BaseUrl: v2,
    eligibilityBaseUrl: flag('eligibility-base-url') ?? bases.eligibility,
    partnerId: iss,
    // A new JWT per request (spec: Authentication 7); aud is the base address of the version the call is for.
    token: () => minter.mint(key, { iss, aud: bases.v3 }),
    v2Token: () => minter.mint(key, { iss, aud: v2 }),
    ...(eligibility ? { eligibilityToken: () => eligibility } : {}),
  };
}

const problemLine = (p: FlowProblem) => `${p.file}:${p.line}:${p.column}: ${p.severity}: ${p.message}\n`;

/** The exit code of a run's results (see HELP). */
export function exitCodeOf(results: readonly RequestResult[]): 0 | 1 | 3 {
  if (results.some((r) => r.outcome === 'errored')) return 3;
  return results.some((r) => r.outcome === 'failed') ? 1 : 0;
}

/** Reads, parses and checks the flow files; every problem found, in file order. */
async function loadFlows(paths: readonly string[], cwd: string, o: { environment: FlowEnvironment; variables: Record<string, string>; access: FlowAccess; processEnv: NodeJS.ProcessEnv }): Promise<{ files: FlowFile[]; problems: FlowProblem[]; notes: string[] }> {
  const addresses = environmentVariablesOf(o.environment);
  const names = new Set([...Object.entries(addresses).flatMap(([k, v]) => (v !== undefined ? [k] : [])), ...Object.keys(o.variables)]);
  const files: FlowFile[] = [];
  const problems: FlowProblem[] = [];
  const notes: string[] = [];
  for (const path of paths) {
    let text: string;
    try {
      text = readFileSync(resolve(cwd, path), 'utf8');
    } catch (err) {
      problems.push({ file: path, line: 1, column: 1, severity: 'error', message: `cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? 'unreadable'})` });
      continue;
    }
    const flow = parseFlow(text, path);
    files.push(flow);
    const readFile = (p: string) => o.access.files.read(p, path);
    problems.push(...flow.problems, ...(await checkFlowForRun(flow, { names, readFile, prompts: 'from-variables', processEnv: o.processEnv, environmentId: o.environment.id, hosts: { environment: o.environment, variables: o.variables, policy: o.access.hosts } })));
    const replaced = replacedEnvironmentNames(flow, addresses);
    if (replaced) notes.push(`${path}:${replaced.line}:${replaced.column}: note: ${replaced.message}\n`);
  }
  return { files, problems, notes };
}

/** `tpp run`: see HELP. */
export async function runRunCommand(args: string[], io: CliIo, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    strict: true,
    allowPositionals: true,
    options: {
      env: { type: 'string' },
      reporter: { type: 'string', default: 'pretty' },
      out: { type: 'string' },
      bail: { type: 'boolean', default: false },
      'allow-read': { type: 'string', multiple: true },
      'allow-host': { type: 'string', multiple: true },
      ...PARTNER_OPTIONS,
      ...BACKFILL_OPTIONS,
    },
  });
  if (positionals.length === 0) throw new UsageError('give at least one .http file, directory or glob');
  const reporter = values.reporter as Reporter;
  if (!REPORTERS.includes(reporter)) throw new UsageError(`--reporter must be ${REPORTERS.join(', ')} (got '${values.reporter}')`);
  const environment = environmentOf(values, env);
  const variables = varsOf(values.var ?? []);
  const paths = flowFilesOf(positionals, cwd);
  const access = await accessOf(values, cwd);
  // Backfill hook (docs/backfills.md): a flow over a data file runs row by row in backfill.ts.
  const backfill = await runBackfillIfData(paths, values, { io, cwd, environment, variables, reporter, access, ...(values.out ? { out: values.out } : {}) });
  if (backfill !== undefined) return backfill;
  const { files, problems, notes } = await loadFlows(paths, cwd, { environment, variables, access, processEnv: env });
  for (const n of notes) io.stderr.write(n);
  for (const p of problems) io.stderr.write(problemLine(p));
  if (problems.some((p) => p.severity === 'error')) {
    io.stderr.write(`tpp run: nothing was sent: fix the errors above.\n`);
    return 2;
  }
  const tty = reporter === 'pretty' && !values.out && (io.stdout as { isTTY?: boolean }).isTTY === true;
  const total = files.reduce((n, f) => n + f.requests.length, 0);
  let done = 0;
  const started = performance.now();
  const results = await runFlows(files, {
    environment,
    variables,
    bail: values.bail ?? false,
    hosts: access.hosts,
    readFile: (p, flow) => access.files.read(p, flow),
    readBytes: (p, flow) => access.files.readBytes(p, flow),
    processEnv: env,
    listener: {
      onRequestStart: (file, r) => {
        if (tty) io.stdout.write(`\r\x1b[2K${done + 1}/${total} ${file}: ${r.label}`);
      },
      onRequestEnd: (r) => {
        done++;
        if (reporter === 'pretty' && !values.out) io.stdout.write(`${tty ? '\r\x1b[2K' : ''}${prettyResult(r)}`);
      },
    },
  });
  const summary = summarize(results, Math.round(performance.now() - started));
  const report = reporter === 'junit' ? junitReport(results, summary, new Date().toISOString().slice(0, 19)) : reporter === 'json' ? jsonReport(results, summary) : values.out ? `${results.map(prettyResult).join('')}${prettySummary(summary)}` : prettySummary(summary);
  if (values.out) {
    try {
      writeFileSync(resolve(cwd, values.out), report);
    } catch (err) {
      io.stderr.write(`tpp run: cannot write ${values.out} (${(err as NodeJS.ErrnoException).code ?? String(err)})\n`);
      return 2;
    }
    io.stdout.write(prettySummary(summary));
  } else io.stdout.write(report);
  return exitCodeOf(results);
}

/** `tpp run`: runs .http flow files as tests, for CI. */
export const runCommand: CliCommand = {
  name: 'run',
  usage: USAGE,
  help: HELP,
  run: (args, io) => runRunCommand(args, io),
};
