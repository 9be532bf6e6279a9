/**
 * What a damaged journal's `--resume` repairs, and what `tpp run --journal-check` names (docs/backfills.md, A damaged
 * journal): lines that are not journal lines, a last line cut short, a journal that lost every line, rows looked up
 * before anything is resent, and what no resume can settle (rows of unknown outcome to check by hand, conflicts).
 * Reading only: the journal is opened without following a link and never written here.
 */
import { closeSync, constants, openSync } from 'node:fs';
import { lockHolder, describeHolder } from '../lock/fileLock';
import { bootId } from '../lock/owner';
import { JournalError, linesOf, readJournalFd, type JournalContents } from './journalRead';
import type { JournalHeader, JournalLine } from './journalState';

/** Examples listed per kind of row at most. */
const MAX_LISTED = 10;

/** One sentence each on what a resume makes of a damaged journal (empty for a sound one). */
export function repairNotes(path: string, c: JournalContents): string[] {
  const notes: string[] = [];
  if (c.lostAll) notes.push(`${path} is empty or its header was cut: it lost every line, so every row is looked up before anything is sent (the duplicate check).`);
  const lines = c.damage.filter((d) => !d.reason.startsWith('cut short'));
  if (lines.length > 0) notes.push(`${path}: ${lines.length} line${lines.length === 1 ? ' is' : 's are'} not journal lines (${lines.slice(0, 5).map((d) => `line ${d.line}: ${d.reason}`).join('; ')}${lines.length > 5 ? '; …' : ''}): skipped; rows of the runs they belong to that no line names are looked up before anything is resent.`);
  const cut = c.damage.find((d) => d.reason.startsWith('cut short'));
  if (cut) notes.push(`${path}: its last line (line ${cut.line}) was cut short, so lines after it may be lost: it is cut off, and every row no line names is looked up before anything is sent.`);
  return notes;
}

/** What `--journal-check` found: lines to print and the exit code (0 sound, 1 something to repair or check by hand, 2 not usable). */
export interface JournalCheck {
  readonly lines: readonly string[];
  readonly code: 0 | 1 | 2;
}

/** Examples of rows by what is left to do with them. */
interface Listed {
  count: number;
  readonly shown: string[];
}

const list = (): Listed => ({ count: 0, shown: [] });

/** A second pass over the lines: rows whose last word is `unknown`, `conflict` or `started`, with their key and message. */
function rowsToName(path: string, c: JournalContents): { unknown: Listed; conflict: Listed; started: Listed } {
  const out = { unknown: list(), conflict: list(), started: list() };
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  try {
    for (const { text } of linesOf(fd).lines) {
      let v: JournalLine;
      try {
        v = JSON.parse(text) as JournalLine;
      } catch {
        continue;
      }
      if ((v.t !== 'started' && v.t !== 'ended') || typeof v.hash !== 'string') continue;
      const now = c.marks.lookup(v.key ?? '', v.row, v.hash).state;
      const said = v.t === 'started' ? 'started' : v.status;
      if (now !== said || (said !== 'unknown' && said !== 'conflict' && said !== 'started')) continue;
      const l = out[said];
      l.count++;
      if (l.shown.length < MAX_LISTED) l.shown.push(`row ${v.row}${v.key ? ` (${v.key})` : ''}${v.t === 'ended' && v.message ? `: ${v.message}` : ''}`);
    }
  } finally {
    closeSync(fd);
  }
  return out;
}

/**
 * Checks the journal at `path` against the flow and data file `want` names (`tpp run --journal-check`).
 * @returns lines to print and an exit code; never writes.
 */
export async function checkJournal(path: string, want: Omit<JournalHeader, 't' | 'v' | 'created'>): Promise<JournalCheck> {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { lines: [`${path}: no journal (nothing was sent with one, or it was moved away). A run starts a new one; rows stored already are found by the duplicate check.`], code: 0 };
    return { lines: [`${path}: ${code === 'ELOOP' ? 'a symbolic link: a journal is never read or written through one' : `cannot be read (${code ?? String(err)})`}.`], code: 2 };
  }
  let c: JournalContents;
  try {
    c = readJournalFd(fd, path, bootId());
  } catch (err) {
    return { lines: [err instanceof JournalError ? err.message : String(err)], code: 2 };
  } finally {
    closeSync(fd);
  }
  const out: string[] = [];
  const h = c.header;
  if (h && (h.flow !== want.flow || h.data !== want.data)) return { lines: [`${path} is the journal of ${h.flow} over ${h.data}, not of ${want.flow} over ${want.data}.`], code: 2 };
  if (h && h.flowHash !== want.flowHash) return { lines: [`${path}: ${want.flow} changed since the journal was written: undo the change to resume, or move the journal away to start over.`], code: 2 };
  out.push(`${path}: the journal of ${want.flow} over ${want.data}${h ? `, begun ${h.created}` : ''}; ${c.runs.length} run${c.runs.length === 1 ? '' : 's'}, ${c.runs.filter((r) => !r.closed).length} of them stopped before closing.`);
  const holder = lockHolder(path);
  if (holder) out.push(`In use now: ${describeHolder(holder)}.`);
  const notes = repairNotes(path, c);
  for (const n of notes) out.push(`Repaired by --resume: ${n}`);
  const named = rowsToName(path, c);
  const section = (title: string, l: Listed) => {
    if (l.count === 0) return;
    out.push(`${title}: ${l.count}`);
    for (const s of l.shown) out.push(`  ${s}`);
    if (l.count > l.shown.length) out.push(`  … ${l.count - l.shown.length} more`);
  };
  section('Started, not ended (--resume looks each up before anything is resent; one without a duplicate check ends outcome unknown)', named.started);
  section('Outcome unknown: not settled by any resume; check each by hand as its line says, then --resume --retry-unknown sends those not stored', named.unknown);
  section('Conflict (stored already with other values): correct the data or the stored record by hand', named.conflict);
  const toHand = named.unknown.count + named.conflict.count;
  if (notes.length === 0 && named.started.count === 0 && toHand === 0) out.push('Nothing in doubt: --resume continues it as it is.');
  return { lines: out, code: notes.length > 0 || toHand > 0 ? 1 : 0 };
}
