import type { DiagnosisItem, Exchange } from '../exchange/types';
import { RotatingJsonLines } from '../log/jsonLines';
import { maskSecrets } from '../log/mask';
// The same masking as when the entry was made; idempotent, and a value that only ends in "[masked]" is masked again.
import { maskHeaders } from '../log/mask';
import { DEFAULT_REQUEST_LOG_LIMIT } from './requestLog';

/**
 * The editor's copy of the Local sandbox's request log on disk ("survives a reload of the
 * window"): JSON Lines, one masked exchange per line, appended as entries arrive; when the current file holds
 * `limit` lines it becomes the rotated file (replacing the previous one) and a new one starts, so a write never
 * rewrites the list and reading both gives at least the newest `limit` entries. Every string is masked again
 * before it is written (a full token or private key is never stored). No editor here: the caller gives the
 * directory (the extension's global storage).
 */

/** The file that takes new entries. */
export const LOG_FILE = 'integration-log.jsonl';
/** The previous `limit` entries. */
export const ROTATED_LOG_FILE = 'integration-log.1.jsonl';

/** `x` with every string that may carry a secret masked (idempotent on an already masked exchange). */
export function maskExchange(x: Exchange): Exchange {
  const m = (s: string | undefined) => (s === undefined ? undefined : maskSecrets(s));
  const diagnosis = x.diagnosis?.map((d): DiagnosisItem => ({ ...d, message: maskSecrets(d.message) }));
  return {
    ...x,
    request: { ...x.request, url: maskSecrets(x.request.url), headers: x.request.headers && maskHeaders(x.request.headers), body: m(x.request.body) },
    ...(x.response ? { response: { ...x.response, headers: x.response.headers && maskHeaders(x.response.headers), body: m(x.response.body) } } : {}),
    ...(x.problem !== undefined ? { problem: maskSecrets(x.problem) } : {}),
    ...(diagnosis ? { diagnosis } : {}),
  };
}

function isExchange(v: unknown): v is Exchange {
  const x = v as Exchange;
  return !!x && typeof x === 'object' && typeof x.id === 'string' && typeof x.time === 'string' && !!x.request && typeof x.request.method === 'string' && typeof x.request.url === 'string';
}

/**
 * The newest `limit` exchanges in memory (oldest first) and on disk.
 *
 * @example
 *   const file = RequestLogFile.open(join(globalStorage, 'integration-log'), 1000);
 *   file.append(records); await file.flushed();
 */
export class RequestLogFile {
  private constructor(
    private readonly file: RotatingJsonLines,
    readonly limit: number,
    private entries: Exchange[],
  ) {}

  /**
   * Reads the log of `dir` (creating the directory); damaged lines are skipped, every string masked again.
   * @throws RangeError for a limit that is not a positive integer; the file system's error when `dir` cannot be created.
   */
  static open(dir: string, limit = DEFAULT_REQUEST_LOG_LIMIT): RequestLogFile {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`The integration log limit must be a positive integer, not ${limit}`);
    const { log, values } = RotatingJsonLines.open(dir, { current: LOG_FILE, rotated: ROTATED_LOG_FILE }, limit);
    // damaged or foreign lines skipped, every string masked again
    return new RequestLogFile(log, limit, values.filter(isExchange).slice(-limit).map(maskExchange));
  }

  /** Exchanges kept, oldest first. */
  list(): readonly Exchange[] {
    return this.entries;
  }

  /** Keeps `records` (masked) and appends them to disk; rotates when the current file reaches the limit. */
  append(records: readonly Exchange[]): readonly Exchange[] {
    const masked = records.map(maskExchange);
    this.entries = [...this.entries, ...masked].slice(-this.limit);
    this.file.append(masked);
    return masked;
  }

  /** Removes every entry from memory and disk. */
  clear(): void {
    this.entries = [];
    this.file.replace([]);
  }

  /** Resolves when every queued write is on disk; rejects with the first write error since the last call. */
  flushed(): Promise<void> {
    return this.file.flushed();
  }
}
