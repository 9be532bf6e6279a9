import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CliCommand, UsageError } from '../io';

/**
 * `tpp docs [topic]`: the toolkit's reference pages, installed with `tpp` (the packed CLI carries `docs/` beside
 * `dist/`, scripts/pack-cli.mjs), so that every `--help` and control-API message that names a page names a topic here
 * instead of a file of a repository the integrator never cloned. `tpp docs` lists the topics; `tpp docs <topic>`
 * prints its page(s) as Markdown, a link to another page given as `tpp docs <topic>`.
 */

/** One topic: its name, its pages under docs/ (printed in order) and one line for the list. */
export interface DocTopic {
  readonly topic: string;
  readonly pages: readonly string[];
  readonly summary: string;
}

/** Every topic, in the order `tpp docs` lists them; each page of docs/ belongs to at least one. */
export const DOC_TOPICS: readonly DocTopic[] = [
  { topic: 'sandbox', pages: ['sandbox.md', 'testing-your-application.md'], summary: 'The Local sandbox (tpp sandbox) and its control API: rules, limits, storage, faults, then the testing reference' },
  { topic: 'testing', pages: ['testing-your-application.md'], summary: "Your application's tests against tpp sandbox: the fixture pattern, the control API reference, faults" },
  { topic: 'proxy', pages: ['proxy.md'], summary: "tpp proxy: your application's requests to Sandbox or Production, explained" },
  { topic: 'sending', pages: ['sending.md'], summary: 'tpp send and the client: retries, time limits, duplicate-safe creates' },
  { topic: 'flows', pages: ['flows.md'], summary: 'tpp run: .http flow files as tests' },
  { topic: 'backfills', pages: ['backfills.md'], summary: 'A flow run once per data row: journal, resume, report' },
  { topic: 'contract', pages: ['contract.md'], summary: 'The contract: endpoints, fields and limits as the toolkit reads the specification' },
  { topic: 'diagnostics', pages: ['diagnostics.md'], summary: 'tpp validate and the editor: every payload diagnostic' },
  { topic: 'flows-editor', pages: ['flows-editor.md'], summary: 'Flows in the editor: Test Explorer, CodeLens, completion' },
];

/**
 * The docs directory: beside `dist/` (the packed `tpp`, and a build of the repository), or the repository's own when
 * running from source. Undefined when neither exists.
 */
export function docsDir(here = __dirname): string | undefined {
  return [join(here, '..', 'docs'), join(here, '..', '..', '..', 'docs')].find((d) => existsSync(join(d, 'sandbox.md')));
}

/** The topic a page is printed under by itself (its first, for a page several topics print). */
function topicOfPage(page: string): string | undefined {
  return (DOC_TOPICS.find((t) => t.pages.length === 1 && t.pages[0] === page) ?? DOC_TOPICS.find((t) => t.pages.includes(page)))?.topic;
}

/**
 * A page as the terminal shows it: a link to another page becomes `tpp docs <topic>` (with its section), a link into
 * the repository (`../examples/…`) its address under `repository`, when known.
 */
export function linksForTerminal(text: string, repository: string | undefined): string {
  return text.replace(/\]\(([^)\s]+)\)/g, (whole, target: string) => {
    if (/^[a-z]+:/i.test(target) || target.startsWith('#')) return whole;
    const [file = '', anchor] = target.split('#');
    const page = /^[\w-]+\.md$/.test(file) ? topicOfPage(file) : undefined;
    if (page) return `](tpp docs ${page}${anchor ? `, section #${anchor}` : ''})`;
    if (repository && file.startsWith('../')) return `](${repository}/tree/main/${file.slice(3)}${anchor ? `#${anchor}` : ''})`;
    return whole;
  });
}

/** The repository's address (package.json `repository`, beside docs/), without `.git`. */
function repositoryOf(dir: string): string | undefined {
  try {
    const pkg = JSON.parse(readFileSync(join(dir, '..', 'package.json'), 'utf8')) as { repository?: { url?: string } | string };
    const url = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
    return url?.replace(/^git\+/, '').replace(/\.git$/, '');
  } catch {
    return undefined;
  }
}

function list(): string {
  const width = Math.max(...DOC_TOPICS.map((t) => t.topic.length)) + 2;
  return `Topics (tpp docs <topic>):\n${DOC_TOPICS.map((t) => `  ${t.topic.padEnd(width)}${t.summary}`).join('\n')}\n`;
}

export const docsCommand: CliCommand = {
  name: 'docs',
  usage: 'tpp docs [topic]   (no topic: the list; e.g. tpp docs sandbox)',
  help: `Prints the toolkit's reference pages, which are installed with tpp. Without a topic, lists them.\n\n${list()}`,
  async run(args, io) {
    if (args.length > 1) throw new UsageError(`give one topic, not ${args.length}`);
    const [name] = args;
    if (name === undefined) {
      io.stdout.write(list());
      return 0;
    }
    const topic = DOC_TOPICS.find((t) => t.topic === name);
    if (!topic) throw new UsageError(`no topic '${name}'. ${list()}`);
    const dir = docsDir();
    if (!dir) {
      io.stderr.write('tpp docs: this installation has no docs/ directory beside dist/ (reinstall tpp from its package)\n');
      return 2;
    }
    const repository = repositoryOf(dir);
    const pages = topic.pages.map((p) => linksForTerminal(readFileSync(join(dir, p), 'utf8'), repository));
    io.stdout.write(pages.map((p) => p.trimEnd()).join('\n\n---\n\n') + '\n');
    return 0;
  },
};
