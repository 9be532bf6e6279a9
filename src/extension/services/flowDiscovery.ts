import { parseFlow } from '../../core/flows';
import type { FlowFile } from '../../core/flows/types';

/** How many flow files discovery reads at once (the Test Explorer's first listing, docs/flows-editor.md). */
export const DISCOVERY_CONCURRENCY = 16;

/** What a flow file that could not be read parses to: no requests and one error naming the cause. */
export function unreadableFlow(file: string, err: unknown): FlowFile {
  const why = err instanceof Error ? err.message : String(err);
  return {
    file,
    variables: [],
    requests: [],
    problems: [{ file, line: 1, column: 1, severity: 'error', code: 'flow-unreadable', message: `The file could not be read: ${why}` }],
  };
}

/**
 * Reads and parses flow files the way the Test Explorer discovers them: `read` gives a file's text (the editor reads
 * open documents first, then the disk), at most `concurrency` at once, each text through core's `parseFlow`. No
 * editor API, so `npm run bench:discovery` measures this same code.
 *
 * @param files the names `read` and `parseFlow` get (URI strings in the editor, paths in the benchmark).
 * @returns one FlowFile per name, in the order given; an unreadable file is a FlowFile with one error problem.
 */
export async function parseFlowFiles(files: readonly string[], read: (file: string) => Promise<string>, concurrency = DISCOVERY_CONCURRENCY): Promise<FlowFile[]> {
  const out: FlowFile[] = new Array<FlowFile>(files.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < files.length) {
      const i = next++;
      const file = files[i]!;
      try {
        out[i] = parseFlow(await read(file), file);
      } catch (err) {
        out[i] = unreadableFlow(file, err);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, files.length)) }, worker));
  return out;
}
