/**
 * What a flow may read (docs/flows.md, What a flow may do): a body file (`< file`, `<@ file`) or a data file
 * (`# @data file`) is judged after symbolic links are resolved, and must lie inside the flow's project or a directory
 * the user allowed (`tpp run --allow-read <dir>`, the machine-scoped setting `tpp.flows.allowRead`). A flow file comes
 * from someone else as often as not (a cloned repository), so nothing in it can name the user's private key, their
 * environment (`/proc/self/environ`) or any other file of theirs.
 *
 * The project of a flow on disk is the nearest folder above it holding `.git` or `tpp.json`; without one, the
 * current directory when the flow is below it, else the flow's own folder. The editor uses the workspace folder.
 */
import { constants, existsSync } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** The largest body or data file a flow reads whole, in bytes (16 MiB: far above the 1 MiB bodies the API takes). */
export const MAX_FLOW_FILE_BYTES = 16 * 1024 * 1024;

/** A file a flow may not read, or cannot: `reason` is one sentence naming the path and why. */
export class FlowFileAccessError extends Error {
  override readonly name: string = 'FlowFileAccessError';
  constructor(
    readonly reason: string,
    /** The errno code when the file system refused (`ENOENT`, `EACCES`…). */
    readonly code?: string,
  ) {
    super(reason);
  }
}

/** The directories a flow may read, links resolved: its project first, then those the user allowed. */
export interface ReadScope {
  readonly project: string;
  readonly allowed: readonly string[];
}

// Kernel and device file systems: never a body, whatever a user allowed (a FIFO or /dev/zero would never end).
const SYSTEM_DIRS = ['/proc', '/sys', '/dev'];
const SCHEME_RE = /^[a-z][a-z0-9+.-]*:/i;
const DRIVE_RE = /^[a-zA-Z]:[\\/]/;

const inside = (path: string, dir: string): boolean => {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/**
 * The project folder of the flow file `flowPath` (see the module comment), links resolved.
 * @param cwd the directory relative paths are read from (the command line's current directory).
 */
export async function projectOf(flowPath: string, cwd: string): Promise<string> {
  const dir = await realpath(dirname(resolve(cwd, flowPath)));
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, '.git')) || existsSync(join(d, 'tpp.json'))) return d;
    if (dirname(d) === d) break;
  }
  const here = await realpath(cwd).catch(() => cwd);
  return inside(dir, here) ? here : dir;
}

/**
 * A read scope of `project` and the directories the user allowed, each with its links resolved.
 * @throws FlowFileAccessError naming an allowed directory that does not exist.
 */
export async function readScopeOf(project: string, allowed: readonly string[] = []): Promise<ReadScope> {
  const real = await Promise.all(
    allowed.map((d) =>
      realpath(d).catch((err: NodeJS.ErrnoException) => {
        throw new FlowFileAccessError(`the allowed directory ${d} cannot be used (${err.code ?? err.message})`, err.code);
      }),
    ),
  );
  return { project: await realpath(project), allowed: real };
}

/**
 * Where `written` (a path as a flow writes it, relative to the flow's folder `flowDir`) is, once links are resolved.
 * @throws FlowFileAccessError for another scheme (`file://`, `http:`), a missing file, a system directory, or a file
 *   outside the project and the allowed directories (the message says how to allow it).
 */
export async function resolveInScope(written: string, flowDir: string, scope: ReadScope): Promise<string> {
  if (SCHEME_RE.test(written) && !DRIVE_RE.test(written)) throw new FlowFileAccessError(`${written} is not a file path: a flow reads files of its project, written relative to the flow file (e.g. ./body.json)`);
  let real: string;
  try {
    real = await realpath(resolve(flowDir, written));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new FlowFileAccessError(`cannot read ${written} (${code ?? (err as Error).message})`, code);
  }
  if (SYSTEM_DIRS.some((d) => inside(real, d))) throw new FlowFileAccessError(`${written} is in ${real.split(sep).slice(0, 2).join(sep)}, a system directory a flow never reads`);
  if (inside(real, scope.project) || scope.allowed.some((d) => inside(real, d))) return real;
  const via = real === resolve(flowDir, written) ? '' : ` (through a symbolic link, ${real})`;
  throw new FlowFileAccessError(
    `${written} is outside the flow's project ${scope.project}${via}: a flow reads only files of its project (docs/flows.md, What a flow may do); if you mean it, allow the folder with --allow-read <dir> or the machine setting tpp.flows.allowRead`,
  );
}

/**
 * Reads a file a flow names, within its scope (see {@link resolveInScope}): a regular file, opened without following
 * a link, at most `maxBytes` (default {@link MAX_FLOW_FILE_BYTES}).
 * @returns the file's bytes.
 * @throws FlowFileAccessError with the path and why.
 */
export async function readBytesInScope(written: string, flowDir: string, scope: ReadScope, maxBytes = MAX_FLOW_FILE_BYTES): Promise<Buffer> {
  const real = await resolveInScope(written, flowDir, scope);
  // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below as not a regular file.
  const flags = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
  let handle;
  try {
    handle = await open(real, flags);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new FlowFileAccessError(`cannot read ${written} (${code === 'ELOOP' ? 'it was replaced by a symbolic link' : (code ?? (err as Error).message)})`, code);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new FlowFileAccessError(`${written} is not a regular file`);
    if (info.size > maxBytes) throw new FlowFileAccessError(`${written} has ${info.size} bytes, more than the ${maxBytes} a flow reads from one file`);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** {@link readBytesInScope} as UTF-8 text. */
export async function readInScope(written: string, flowDir: string, scope: ReadScope, maxBytes = MAX_FLOW_FILE_BYTES): Promise<string> {
  return (await readBytesInScope(written, flowDir, scope, maxBytes)).toString('utf8');
}

/** What the flows of a command-line run may read: each flow's files, relative to that flow (see the module comment). */
export interface ProjectAccess {
  /** The text of `path` as the flow `flowFile` names it: the shape of `FlowRunOptions.readFile`. */
  read(path: string, flowFile: string): Promise<string>;
  /** Its bytes (a multipart file part): the shape of `FlowRunOptions.readBytes`. */
  readBytes(path: string, flowFile: string): Promise<Uint8Array>;
  /** Where `path` (a `# @data` file) is once links are resolved, when the flow may read it. */
  resolve(path: string, flowFile: string): Promise<string>;
}

/**
 * The files the flows of a run may read; each flow's project is found once.
 * @param cwd the directory the flow paths are relative to.
 * @param allowed directories the user allowed besides each flow's project.
 * @throws (from `read`, `resolve`) FlowFileAccessError naming the path and why.
 */
export function projectAccess(cwd: string, allowed: readonly string[] = []): ProjectAccess {
  const scopes = new Map<string, Promise<ReadScope>>();
  const scopeOf = (flowFile: string): Promise<ReadScope> => {
    let scope = scopes.get(flowFile);
    if (!scope) {
      scope = projectOf(flowFile, cwd).then((p) => readScopeOf(p, allowed));
      scopes.set(flowFile, scope);
    }
    return scope;
  };
  const dirOf = (flowFile: string) => dirname(resolve(cwd, flowFile));
  return {
    read: async (path, flowFile) => readInScope(path, dirOf(flowFile), await scopeOf(flowFile)),
    readBytes: async (path, flowFile) => readBytesInScope(path, dirOf(flowFile), await scopeOf(flowFile)),
    resolve: async (path, flowFile) => resolveInScope(path, dirOf(flowFile), await scopeOf(flowFile)),
  };
}

/**
 * A reader of body files that reads each file once (a flow names a fixed few): a run's check before sending and its
 * requests then read one text, and a backfill's rows share it.
 */
export function cachedReader(read: (path: string) => Promise<string>): (path: string) => Promise<string> {
  const cache = new Map<string, Promise<string>>();
  return (path) => {
    let p = cache.get(path);
    if (!p) {
      p = read(path);
      cache.set(path, p);
    }
    return p;
  };
}
