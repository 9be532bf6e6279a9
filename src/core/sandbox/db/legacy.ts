import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_TIRE_COUNT } from '../../contract/limits';
import { SandboxDataError, SandboxDb } from './database';

/**
 * One-time import of a data directory written by the journal format of earlier versions (`snapshot.json` plus
 * `journal-<generation>.jsonl`, one upsert event per line). The files are read, never changed; after the import is
 * committed they are moved, as they are, into `legacy-backup/`. A torn last journal line (a write that was never
 * acknowledged) is skipped; a bad line elsewhere refuses the import with a message naming the file.
 */

type Rec = Record<string, unknown>;
interface Event {
  t: 'partner' | 'reg' | 'mc' | 'shop' | 'sale' | 'txn';
  p?: string;
  key?: string;
  r: Rec;
}

/** The legacy files in `dir` (empty when there are none). */
export function legacyFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((n) => n === 'snapshot.json' || n === 'snapshot.json.tmp' || /^journal-\d+\.jsonl$/.test(n));
}

function readEvents(dir: string): Event[] {
  const snapPath = join(dir, 'snapshot.json');
  let generation = 0;
  const events: Event[] = [];
  if (existsSync(snapPath)) {
    let parsed: { format?: number; generation?: number; state?: unknown };
    try {
      parsed = JSON.parse(readFileSync(snapPath, 'utf8')) as typeof parsed;
    } catch (err) {
      throw new SandboxDataError(`The old-format snapshot ${snapPath} is unreadable (${(err as Error).message}); nothing was imported or changed.`);
    }
    generation = Number(parsed.generation ?? 0);
    if (Array.isArray(parsed.state)) events.push(...(parsed.state as Event[]));
  }
  const journal = join(dir, `journal-${generation}.jsonl`);
  if (existsSync(journal)) {
    const lines = readFileSync(journal, 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (line === '') return;
      try {
        events.push(JSON.parse(line) as Event);
      } catch {
        if (i < lines.length - 1) throw new SandboxDataError(`The old-format journal ${journal} is corrupt at line ${i + 1}; nothing was imported or changed. Repair or remove that line and start again.`);
      }
    });
  }
  return events;
}

const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const json = (v: unknown) => JSON.stringify(v ?? {});
const arr = (v: unknown): Rec[] => (Array.isArray(v) ? (v as Rec[]) : []);

/** Imports the legacy files of `dir` into `db` in one transaction, then moves them into `legacy-backup/`. Returns the number of events read. */
export async function importLegacy(db: SandboxDb, dir: string): Promise<number> {
  const events = readEvents(dir);
  const last = new Map<string, Event>();
  for (const e of events) last.set(`${e.t}\u0000${e.p ?? ''}\u0000${e.t === 'sale' ? e.key : str(e.r._id ?? e.r.uniqueId ?? e.r.id)}`, e);
  await db.transaction(async (tx) => {
    const done = await tx.query('SELECT 1 FROM tpp.meta WHERE key = $1', ['legacy_import']);
    if (done.rows.length > 0) return;
    const positions = new Map<string, number>();
    const next = (k: string) => {
      const n = (positions.get(k) ?? 0) + 1;
      positions.set(k, n);
      return n;
    };
    for (const e of [...last.values()].filter((x) => x.t === 'partner')) {
      await tx.query('INSERT INTO tpp.partners (id, name, num, spki_pem) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING', [str(e.r.id), str(e.r.name), Number(e.r.num), str(e.r.spkiPem)]);
    }
    for (const e of last.values()) {
      const p = e.p ?? '';
      const r = e.r;
      if (e.t === 'reg') {
        const claims = arr(r.claims);
        const cancel = arr(r.cancellations).at(-1);
        const covered = Math.min(MAX_TIRE_COUNT, Number(r.tiresCovered ?? 0));
        const claimed = Math.min(covered, claims.reduce((n, c) => n + Number(c.tireCount ?? 0), 0));
        const cancelled = Math.min(covered - claimed, Number(cancel?.tireCount ?? 0));
        await tx.query(
          `INSERT INTO tpp.registrations (partner, id, position, registration_id, source, invoice_number, store_number, org_id, enroll_date, created_date, status_date, tires_covered, tire_claim_count, tire_cancel_count, cancelled_on, body)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16::json)`,
          [p, str(r._id), next(`r${p}`), Number(r.registrationId), str(r.source), str(r.invoiceNumber) || null, str(r.storeNumber), str(r.orgId), str(r.enrollDate), str(r.createdDate), str(r.statusDate), covered, claimed, cancelled, cancel ? str(cancel.cancelledOn) : null, json(r.body)],
        );
        for (const c of claims) {
          const b = (c.body ?? {}) as Rec;
          await tx.query(`INSERT INTO tpp.claims (id, partner, registration, source, created_date, tire_count, v2_key, body) VALUES ($1, $2, $3, $4, $5, $6, $7, $8::json)`, [
            Number(c.id), p, str(r._id), str(c.source), str(c.createdDate), Math.max(1, Math.min(MAX_TIRE_COUNT, Number(c.tireCount ?? 1))),
            c.source === 'v2' ? `${str(b.RepairShopID)}\u001f${str(b.RepairInvoiceNumber)}` : null, json(b),
          ]);
        }
        if (cancel) {
          const b = (cancel.body ?? {}) as Rec;
          await tx.query(`INSERT INTO tpp.cancellations (partner, registration, source, created_date, cancelled_on, tire_count, v2_key, body) VALUES ($1, $2, $3, $4, $5, $6, $7, $8::json)`, [
            p, str(r._id), str(cancel.source), str(cancel.createdDate), str(cancel.cancelledOn), cancelled,
            cancel.source === 'v2' ? [b.OrgID, b.ShopID, b.InvoiceNumber, b.CancelShopID, b.CancelInvoiceNumber].map(str).join('\u001f') : null, json(b),
          ]);
        }
      } else if (e.t === 'mc') {
        await tx.query('INSERT INTO tpp.motor_club (partner, id, position, invoice_number, created_date, cancelled_on, body) VALUES ($1, $2, $3, $4, $5, $6, $7::json)', [
          p, str(r._id), next(`m${p}`), str(r.invoiceNumber) || null, str(r.createdDate), r.cancelledOn === undefined ? null : str(r.cancelledOn), json(r.body),
        ]);
      } else if (e.t === 'shop') {
        await tx.query('INSERT INTO tpp.shops (partner, unique_id, created_date, body) VALUES ($1, $2, $3, $4::json)', [p, str(r.uniqueId), str(r.createdDate), json(r.body)]);
        for (const part of arr(r.parts)) await tx.query('INSERT INTO tpp.parts (partner, unique_id, body) VALUES ($1, $2, $3::json)', [p, str(r.uniqueId), json(part)]);
      } else if (e.t === 'sale' || e.t === 'txn') {
        const b = (r.body ?? {}) as Rec;
        if (e.t === 'sale') await tx.query('INSERT INTO tpp.sales (partner, id, shop_id, invoice_number, created_date, body) VALUES ($1, $2, $3, $4, $5, $6::json)', [p, Number(r.id), str(b.ShopID), str(b.InvoiceNumber), str(r.createdDate), json(b)]);
        else await tx.query('INSERT INTO tpp.transactions (partner, id, created_date, body) VALUES ($1, $2, $3, $4::json)', [p, Number(r.id), str(r.createdDate), json(b)]);
      }
    }
    for (const [k, n] of positions) await tx.query(`UPDATE tpp.partners SET ${k[0] === 'r' ? 'registration_count' : 'motor_club_count'} = $2 WHERE id = $1`, [k.slice(1), n]);
    await tx.query(`SELECT setval('tpp.registration_number_seq', GREATEST(1, (SELECT COALESCE(max(registration_id), 0) FROM tpp.registrations)))`, []);
    await tx.query(`SELECT setval('tpp.claim_id_seq', GREATEST(1, (SELECT COALESCE(max(id), 0) FROM tpp.claims)))`, []);
    await tx.query(`SELECT setval('tpp.plain_id_seq', GREATEST(1, (SELECT COALESCE(max(id), 0) FROM (SELECT id FROM tpp.sales UNION ALL SELECT id FROM tpp.transactions) x)))`, []);
    await tx.query(`SELECT setval('tpp.partner_num_seq', GREATEST(1001, (SELECT COALESCE(max(num), 0) + 1 FROM tpp.partners)), false)`, []);
    await tx.query('INSERT INTO tpp.meta (key, value) VALUES ($1, $2)', ['legacy_import', new Date().toISOString()]);
  });
  const backup = join(dir, 'legacy-backup');
  mkdirSync(backup, { recursive: true });
  for (const name of legacyFiles(dir)) renameSync(join(dir, name), join(backup, name));
  return events.length;
}
