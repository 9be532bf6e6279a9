/**
 * Writes a parsed flow file back as text (docs/flows.md, Format): file variables first, then each request after a
 * `###` line, its `# @` lines, request line, headers, body and assertions. `parseFlow(printFlow(f))` gives back the
 * same variables and requests (positions aside): the round trip the parser's tests check.
 */
import { printAssertion } from './assertGrammar';
import type { FlowFile, FlowRequest } from './types';

function printRequest(r: FlowRequest): string[] {
  const out = [r.title ? `### ${r.title}` : '###'];
  if (r.name !== undefined) out.push(`# @name ${r.name}`);
  if (r.disabled) out.push('# @disabled');
  if (r.noRedirect) out.push('# @no-redirect');
  if (r.noCookieJar) out.push('# @no-cookie-jar');
  for (const p of r.prompts ?? []) out.push(`# @prompt ${p.name}${p.description ? ` ${p.description}` : ''}`);
  out.push(`${r.graphqlMethod ? 'GRAPHQL' : r.method} ${r.url}`);
  for (const h of r.headers) out.push(`${h.name}: ${h.value}`);
  if (r.body) {
    out.push('');
    out.push(r.body.kind === 'inline' ? r.body.text : `${r.body.resolveVariables ? '<@' : '<'} ${r.body.path}`);
  }
  if (r.assertions.length > 0) {
    out.push('');
    for (const a of r.assertions) out.push(printAssertion(a));
  }
  out.push('');
  return out;
}

/**
 * Prints a flow file as `.http` text.
 * @param file a parsed (or built) flow file; its problems are not printed.
 * @returns the text, lines ending in `\n`.
 */
export function printFlow(file: FlowFile): string {
  const lines: string[] = file.variables.map((v) => `@${v.name} = ${v.value}`);
  if (lines.length > 0) lines.push('');
  for (const r of file.requests) lines.push(...printRequest(r));
  return lines.join('\n');
}
