/**
 * The `# @data <path>` line of a data-driven flow (docs/backfills.md, Data files), in a module of its own: `tpp`'s
 * entry reads it to tell a backfill from another run (cli/runnerProcess.ts) without loading the rows reader.
 */
const DATA_RE = /^\s*(?:#|\/\/)\s*@data\s+(\S.*?)\s*$/m;

/** The data file a flow names with `# @data <path>` (relative to the flow file), if any. */
export function dataDirectiveOf(flowText: string): string | undefined {
  return DATA_RE.exec(flowText)?.[1];
}
