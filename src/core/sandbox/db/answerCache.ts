import type { Queryable, QueryResult, SandboxDb } from './database';

/**
 * Answers the sandbox built from stored records (the JSON text of a registration read by id, of a list page), kept
 * while nothing is written, so that a repeated read costs the token check and a Map lookup instead of a query
 * (docs/sandbox.md, Storage). Only where this process is the database's one writer: PGlite, in memory or under its
 * data directory's lock. A PostgreSQL server is shared by several sandboxes, whose writes this process never sees,
 * so there is no cache there.
 *
 * Never a stale read: every statement that may write (anything but a plain SELECT) and every transaction empties the
 * cache when it starts and again when it ends, whichever operation runs it (partner API, version 2, claims,
 * cancellations, control API reset and seed, bulk loads), unless the write says what it changes ({@link WriteScope}:
 * a version 3 create, a claim or a cancellation by id); then only that goes. An answer built while a write was
 * running, or while one started, is not kept. A clock change empties it too (control API, docs/testing-your-application.md, Clock), though
 * the answers kept carry no field derived from the clock.
 *
 * Bounded by the characters it holds ({@link ANSWER_CACHE_CHARS}); the least recently used answers go first.
 */

/** The key of an answer: the partner's (every answer is one partner's own) and what was asked. */
export function answerKey(partner: string, ...asked: readonly unknown[]): string {
  return JSON.stringify([partner, ...asked]);
}

/** The views of a registration read by id (what a record key names besides the partner and the id). */
export type RecordView = 'registration' | 'tire-protection registration';
const RECORD_VIEWS: readonly RecordView[] = ['registration', 'tire-protection registration'];

/** The key of a registration read by id in one of its views. */
export function recordKey(partner: string, view: RecordView, id: string): string {
  return answerKey(partner, view, id);
}

/**
 * What a write changes, when it knows: the list pages (totals, order) and, with `id`, that registration's reads by id.
 * Without a scope a write empties the whole cache.
 */
export interface WriteScope {
  readonly partner: string;
  readonly id?: string;
}

/**
 * Characters of answer text (and keys) the cache holds at most: 12 Mi, 12-24 MiB of memory. Warming fills three
 * quarters of it: the reads of ~11,000 sample registrations (~850 characters each); 16 Mi put the 10,000-record run of npm run
 * bench:sandbox over its 200 MiB (200-213 MiB, 187 with 12 Mi, list pages no slower: docs/sandbox.md, Memory).
 */
export const ANSWER_CACHE_CHARS = 12 * 1024 * 1024;
/**
 * An answer longer than this share of the bound is never kept: a list page of 1,000 registrations (~530 characters
 * each, ~530,000) is sent, not cached, so that an export in pages of 1,000 does not take the room warming fills with
 * reads by id (at 1/16 such pages were kept, and warming stopped after ~3,500 records).
 */
const LARGEST_SHARE = 32;
/** Characters counted for an entry's own bookkeeping (Map slot, string headers). */
const ENTRY_OVERHEAD = 64;

export class AnswerCache {
  private readonly entries = new Map<string, string>();
  /** Keys of list pages among the entries: every write of a registration drops them. */
  private readonly pageKeys = new Set<string>();
  private chars = 0;
  private generation = 0;
  private emptied = 0;
  private writing = 0;
  private readonly writeListeners: (() => void)[] = [];

  /**
   * @param maxChars characters held at most (answers, keys, bookkeeping)
   * @param largestChars characters of the longest entry kept (default: {@link LARGEST_SHARE} of `maxChars`)
   */
  constructor(
    readonly maxChars = ANSWER_CACHE_CHARS,
    private readonly largestChars = maxChars / LARGEST_SHARE,
  ) {}

  /** Calls `listener` after every write has ended (./answerWarmer.ts warms the cache again once writes pause). */
  afterWrite(listener: () => void): void {
    this.writeListeners.push(listener);
  }

  /**
   * A mark to pass to {@link offer} with answers built from what is read after taking it; undefined while a write
   * runs (nothing read then may be kept).
   */
  mark(): number | undefined {
    return this.writing === 0 ? this.generation : undefined;
  }

  /**
   * Keeps `text` under `key` when nothing was written since `mark` was taken; returns false (keeping nothing) when
   * something was.
   */
  offer(key: string, text: string, mark: number | undefined, page = false): boolean {
    if (mark === undefined || mark !== this.generation || this.writing > 0) return false;
    this.keep(key, text, page);
    return true;
  }

  /** Answers kept now. */
  get size(): number {
    return this.entries.size;
  }

  /** Counts the times the cache was emptied whole (./answerWarmer.ts starts again from the first record then). */
  get epoch(): number {
    return this.emptied;
  }

  /** Characters held now (answers, keys and overhead). */
  get heldChars(): number {
    return this.chars;
  }

  /**
   * The answer kept under `key`, else the one `build` makes (kept when no write ran or started meanwhile); `page`
   * for a list page. Rejects with what `build` rejects with (a 404, a storage failure: nothing is kept).
   */
  async through(key: string, build: () => Promise<string>, page = false): Promise<string> {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      // most recently used last: eviction takes the Map's first entries
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const mark = this.mark();
    const text = await build();
    this.offer(key, text, mark, page);
    return text;
  }

  /**
   * A write starts: what it may change is dropped (everything without `scope`), and no answer is kept until it has
   * ended.
   */
  beginWrite(scope?: WriteScope): void {
    this.writing++;
    this.drop(scope);
  }

  /** A write has ended (committed, rolled back or failed): what was read during it is not kept. */
  endWrite(scope?: WriteScope): void {
    this.writing--;
    this.drop(scope);
    for (const l of this.writeListeners) l();
  }

  /** Drops every answer and every answer being built. */
  clear(): void {
    this.drop(undefined);
  }

  private drop(scope: WriteScope | undefined): void {
    this.generation++;
    if (!scope) {
      this.emptied++;
      this.entries.clear();
      this.pageKeys.clear();
      this.chars = 0;
      return;
    }
    for (const k of this.pageKeys) this.remove(k);
    if (scope.id !== undefined) for (const view of RECORD_VIEWS) this.remove(recordKey(scope.partner, view, scope.id));
  }

  private remove(key: string): void {
    const text = this.entries.get(key);
    this.pageKeys.delete(key);
    if (text === undefined) return;
    this.entries.delete(key);
    this.chars -= key.length + text.length + ENTRY_OVERHEAD;
  }

  private keep(key: string, text: string, page: boolean): void {
    const cost = key.length + text.length + ENTRY_OVERHEAD;
    if (cost > this.largestChars) return;
    this.remove(key);
    this.entries.set(key, text);
    if (page) this.pageKeys.add(key);
    this.chars += cost;
    for (const k of this.entries.keys()) {
      if (this.chars <= this.maxChars) break;
      this.remove(k);
    }
  }
}

/** Whether `sql` only reads: a plain SELECT, without sequence calls, locks or advisory locks. */
export function readsOnly(sql: string): boolean {
  return /^\s*SELECT\b/i.test(sql) && !/\b(?:nextval|setval|pg_advisory\w*|FOR\s+UPDATE|FOR\s+SHARE)\b/i.test(sql);
}

/**
 * `db` with every write announced to `cache` (see {@link AnswerCache}): a statement that may write, or a transaction,
 * drops what `scope` says it changes (everything without one) when it starts and when it ends.
 */
export function announcingWrites(db: SandboxDb, cache: AnswerCache, scope?: WriteScope): SandboxDb {
  const writing = async <T>(run: () => Promise<T>): Promise<T> => {
    cache.beginWrite(scope);
    try {
      return await run();
    } finally {
      cache.endWrite(scope);
    }
  };
  return {
    kind: db.kind,
    where: db.where,
    query<T>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>> {
      return readsOnly(sql) ? db.query<T>(sql, params) : writing(() => db.query<T>(sql, params));
    },
    transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      return writing(() => db.transaction(fn));
    },
    close: () => db.close(),
  };
}
