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
 * cancellations, control API reset and seed, bulk loads). An answer built while a write was running, or while one
 * started, is not kept. A clock change empties it too (control API, docs/testing-your-application.md, Clock), though
 * the answers kept carry no field derived from the clock.
 *
 * Bounded by the characters it holds ({@link ANSWER_CACHE_CHARS}); the least recently used answers go first.
 */

/** The key of an answer: the partner's (every answer is one partner's own) and what was asked. */
export function answerKey(partner: string, ...asked: readonly unknown[]): string {
  return JSON.stringify([partner, ...asked]);
}

/** Characters of answer text (and keys) the cache holds at most: 16 Mi, 16–32 MiB of memory. */
export const ANSWER_CACHE_CHARS = 16 * 1024 * 1024;
/** An answer longer than this share of the bound is never kept (a page of 1,000 records is sent, not cached). */
const LARGEST_SHARE = 16;
/** Characters counted for an entry's own bookkeeping (Map slot, string headers). */
const ENTRY_OVERHEAD = 64;

export class AnswerCache {
  private readonly entries = new Map<string, string>();
  private chars = 0;
  private generation = 0;
  private writing = 0;
  private readonly writeListeners: (() => void)[] = [];

  constructor(readonly maxChars = ANSWER_CACHE_CHARS) {}

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
  offer(key: string, text: string, mark: number | undefined): boolean {
    if (mark === undefined || mark !== this.generation || this.writing > 0) return false;
    this.keep(key, text);
    return true;
  }

  /** Answers kept now. */
  get size(): number {
    return this.entries.size;
  }

  /** Characters held now (answers, keys and overhead). */
  get heldChars(): number {
    return this.chars;
  }

  /**
   * The answer kept under `key`, else the one `build` makes (kept when no write ran or started meanwhile).
   * Rejects with what `build` rejects with (a 404, a storage failure: nothing is kept).
   */
  async through(key: string, build: () => Promise<string>): Promise<string> {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      // most recently used last: eviction takes the Map's first entries
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const mark = this.mark();
    const text = await build();
    this.offer(key, text, mark);
    return text;
  }

  /** A write starts: everything kept is dropped, and no answer is kept until it has ended. */
  beginWrite(): void {
    this.writing++;
    this.clear();
  }

  /** A write has ended (committed, rolled back or failed): what was read during it is not kept. */
  endWrite(): void {
    this.writing--;
    this.clear();
    for (const l of this.writeListeners) l();
  }

  /** Drops every answer and every answer being built. */
  clear(): void {
    this.generation++;
    if (this.entries.size === 0) return;
    this.entries.clear();
    this.chars = 0;
  }

  private keep(key: string, text: string): void {
    const cost = key.length + text.length + ENTRY_OVERHEAD;
    if (cost > this.maxChars / LARGEST_SHARE) return;
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      this.chars -= key.length + old.length + ENTRY_OVERHEAD;
    }
    this.entries.set(key, text);
    this.chars += cost;
    for (const [k, v] of this.entries) {
      if (this.chars <= this.maxChars) break;
      this.entries.delete(k);
      this.chars -= k.length + v.length + ENTRY_OVERHEAD;
    }
  }
}

/** Whether `sql` only reads: a plain SELECT, without sequence calls, locks or advisory locks. */
export function readsOnly(sql: string): boolean {
  return /^\s*SELECT\b/i.test(sql) && !/\b(?:nextval|setval|pg_advisory\w*|FOR\s+UPDATE|FOR\s+SHARE)\b/i.test(sql);
}

/**
 * `db` with every write announced to `cache` (see {@link AnswerCache}): a statement that may write, or a transaction,
 * empties it when it starts and when it ends.
 */
export function announcingWrites(db: SandboxDb, cache: AnswerCache): SandboxDb {
  const writing = async <T>(run: () => Promise<T>): Promise<T> => {
    cache.beginWrite();
    try {
      return await run();
    } finally {
      cache.endWrite();
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
