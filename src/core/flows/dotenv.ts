/**
 * The `.env` file `{{$dotenv NAME}}` reads (docs/flows.md, Variables), found as REST Client finds it: in the flow's
 * folder, then each folder above it, `.env.<environment>` before `.env` — here only within the files the flow may
 * read (its project, projectFiles.ts). Parsed by Node's own dotenv parser (`util.parseEnv`).
 */
import * as util from 'node:util';
import { flowRefs } from './refs';
import { textsOf } from './parseChecks';
import type { FlowFile } from './types';
import type { FlowScope } from './variables';

/** The deepest folder above a flow that is searched. */
const MAX_UP = 32;

/** True when the file reads `{{$dotenv …}}` anywhere (its requests or its file variables). */
export function readsDotenv(file: FlowFile): boolean {
  const texts = [...file.requests.flatMap((r) => textsOf(r).map((t) => t.text)), ...file.variables.map((v) => v.value)];
  return texts.some((t) => t.includes('$dotenv') && flowRefs(t).some((r) => r.ref.kind === 'dynamic' && r.ref.name === '$dotenv'));
}

/**
 * Finds and parses the `.env` file of a flow.
 * @param readFile reads a path relative to the flow file, within what the flow may read.
 * @param environment the run's environment id (`.env.local` is read before `.env` on Local).
 * @returns its values and path, or why there is none (never throws).
 */
export async function readDotenv(readFile: (path: string) => Promise<string>, environment: string | undefined): Promise<NonNullable<FlowScope['dotenv']>> {
  const parseEnv = (util as { parseEnv?: (text: string) => Record<string, string> }).parseEnv;
  if (!parseEnv) return { error: `{{$dotenv}} needs Node 20.12 or later (this is ${process.version})` };
  for (let up = 0; up <= MAX_UP; up++) {
    for (const name of [...(environment ? [`.env.${environment}`] : []), '.env']) {
      const path = `${up === 0 ? './' : '../'.repeat(up)}${name}`;
      let text: string;
      try {
        text = await readFile(path);
      } catch (err) {
        const code = (err as { code?: unknown }).code;
        // A file that is not there: look further up. A folder the flow may not read: stop.
        if (typeof code === 'string' && code !== '') continue;
        return { error: `no .env file in the flow's folder or above it within its project (${(err as Error).message})` };
      }
      return { values: parseEnv(text), file: path };
    }
  }
  return { error: `no .env file in the flow's folder or above it` };
}
