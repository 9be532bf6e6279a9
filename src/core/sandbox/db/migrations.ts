import { MAX_TIRE_COUNT } from '../../contract/limits';
import { Queryable, SandboxDataError } from './database';

/**
 * The sandbox schema as versioned SQL migrations (spec: Resources and their fields; Business rules). Every table
 * lives in the `tpp` schema. A migration is applied once, in one transaction with the version bump; a database of
 * a newer version than {@link LATEST_VERSION} is refused, never rewritten.
 *
 * The spec's rules are constraints here, not JavaScript checks over arrays:
 * - registrations are unique by partner + invoice number + store number (v3: a duplicate is 409; v2: a resend of
 *   the same ShopID + InvoiceNumber updates the record); a missing invoice number is NULL and never collides;
 * - a registration is cancelled at most once (one `cancellations` row per registration);
 * - claimed plus cancelled tires never exceed the tires covered (CHECK), so no claim is filed without tires left;
 * - counts that expand into one object per tire are at most MAX_TIRE_COUNT;
 * - shops are unique by uniqueId; motor-club registrations by invoice number.
 * `position` numbers each partner's registrations 1, 2, 3… in creation order, so that a list page is an index
 * range whatever the table's size.
 */

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'initial schema',
    sql: `
CREATE TABLE tpp.meta (key text PRIMARY KEY, value text NOT NULL);

CREATE TABLE tpp.partners (
  id text PRIMARY KEY,
  name text NOT NULL,
  num integer NOT NULL UNIQUE,
  spki_pem text NOT NULL,
  registration_count bigint NOT NULL DEFAULT 0,
  motor_club_count bigint NOT NULL DEFAULT 0
);
CREATE SEQUENCE tpp.partner_num_seq START 1001;
CREATE SEQUENCE tpp.registration_number_seq;
CREATE SEQUENCE tpp.claim_id_seq;
CREATE SEQUENCE tpp.plain_id_seq;

CREATE TABLE tpp.registrations (
  partner text NOT NULL REFERENCES tpp.partners(id),
  id text NOT NULL,
  position bigint NOT NULL,
  registration_id integer NOT NULL UNIQUE DEFAULT nextval('tpp.registration_number_seq'),
  source text NOT NULL CHECK (source IN ('v2', 'registrations', 'tire-protection')),
  invoice_number text,
  store_number text NOT NULL DEFAULT '',
  org_id text NOT NULL DEFAULT '',
  enroll_date text NOT NULL,
  created_date text NOT NULL,
  status_date text NOT NULL,
  tires_covered integer NOT NULL CONSTRAINT tires_covered_limit CHECK (tires_covered BETWEEN 0 AND ${MAX_TIRE_COUNT}),
  tire_claim_count integer NOT NULL DEFAULT 0 CHECK (tire_claim_count >= 0),
  tire_cancel_count integer NOT NULL DEFAULT 0 CHECK (tire_cancel_count >= 0),
  cancelled_on text,
  body json NOT NULL,
  PRIMARY KEY (partner, id),
  CONSTRAINT registrations_position UNIQUE (partner, position),
  CONSTRAINT registrations_invoice UNIQUE (partner, invoice_number, store_number),
  CONSTRAINT tires_left CHECK (tire_claim_count + tire_cancel_count <= tires_covered)
);
CREATE INDEX registrations_by_store ON tpp.registrations (partner, store_number, position);

CREATE TABLE tpp.claims (
  id integer PRIMARY KEY DEFAULT nextval('tpp.claim_id_seq'),
  partner text NOT NULL,
  registration text NOT NULL,
  source text NOT NULL CHECK (source IN ('v2', 'v3')),
  created_date text NOT NULL,
  tire_count integer NOT NULL CHECK (tire_count BETWEEN 1 AND ${MAX_TIRE_COUNT}),
  v2_key text,
  body json NOT NULL,
  FOREIGN KEY (partner, registration) REFERENCES tpp.registrations(partner, id),
  CONSTRAINT claims_v2_identity UNIQUE (partner, registration, v2_key)
);
CREATE INDEX claims_by_registration ON tpp.claims (partner, registration, id);

CREATE TABLE tpp.cancellations (
  partner text NOT NULL,
  registration text NOT NULL,
  source text NOT NULL CHECK (source IN ('v2', 'v3')),
  created_date text NOT NULL,
  cancelled_on text NOT NULL,
  tire_count integer NOT NULL CHECK (tire_count BETWEEN 0 AND ${MAX_TIRE_COUNT}),
  v2_key text,
  body json NOT NULL,
  CONSTRAINT cancelled_once PRIMARY KEY (partner, registration),
  FOREIGN KEY (partner, registration) REFERENCES tpp.registrations(partner, id)
);

CREATE TABLE tpp.motor_club (
  partner text NOT NULL REFERENCES tpp.partners(id),
  id text NOT NULL,
  position bigint NOT NULL,
  invoice_number text,
  created_date text NOT NULL,
  cancelled_on text,
  body json NOT NULL,
  PRIMARY KEY (partner, id),
  CONSTRAINT motor_club_position UNIQUE (partner, position),
  CONSTRAINT motor_club_invoice UNIQUE (partner, invoice_number)
);

CREATE TABLE tpp.shops (
  partner text NOT NULL REFERENCES tpp.partners(id),
  unique_id text NOT NULL,
  created_date text NOT NULL,
  body json NOT NULL,
  CONSTRAINT shops_unique_id PRIMARY KEY (partner, unique_id)
);
CREATE TABLE tpp.parts (
  seq bigserial PRIMARY KEY,
  partner text NOT NULL,
  unique_id text NOT NULL,
  body json NOT NULL,
  FOREIGN KEY (partner, unique_id) REFERENCES tpp.shops(partner, unique_id)
);
CREATE INDEX parts_by_shop ON tpp.parts (partner, unique_id, seq);

CREATE TABLE tpp.sales (
  partner text NOT NULL REFERENCES tpp.partners(id),
  id integer NOT NULL DEFAULT nextval('tpp.plain_id_seq'),
  shop_id text NOT NULL,
  invoice_number text NOT NULL,
  created_date text NOT NULL,
  body json NOT NULL,
  PRIMARY KEY (partner, id),
  CONSTRAINT sales_identity UNIQUE (partner, invoice_number, shop_id)
);
CREATE TABLE tpp.transactions (
  partner text NOT NULL REFERENCES tpp.partners(id),
  id integer NOT NULL DEFAULT nextval('tpp.plain_id_seq'),
  created_date text NOT NULL,
  body json NOT NULL,
  PRIMARY KEY (partner, id)
);
`,
  },
];

/** Schema version this build writes and reads. */
export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

/**
 * Brings the database at `where` to {@link LATEST_VERSION} in one transaction, under an advisory lock (two
 * sandboxes sharing a PostgreSQL server never migrate at once): creates the schema on an empty database and applies
 * the missing migrations of an older one. Throws {@link SandboxDataError}, changing nothing, when the database holds
 * a newer or unknown version. Returns the version found (0 for a new database).
 */
export async function migrate(db: { transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> }, where: string): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(72430001)', []);
    await tx.query('CREATE SCHEMA IF NOT EXISTS tpp', []);
    await tx.query('CREATE TABLE IF NOT EXISTS tpp.schema_version (version integer NOT NULL, applied text NOT NULL)', []);
    const { rows } = await tx.query<{ version: number | null }>('SELECT max(version) AS version FROM tpp.schema_version', []);
    const current = Number(rows[0]?.version ?? 0);
    if (current > LATEST_VERSION || (current > 0 && !MIGRATIONS.some((m) => m.version === current))) {
      throw new SandboxDataError(
        `The sandbox database ${where} has schema version ${current}, which this toolkit does not know (it knows up to ${LATEST_VERSION}). ` +
          'It was left untouched: use a newer toolkit, or another data directory.',
      );
    }
    for (const m of MIGRATIONS.filter((x) => x.version > current)) {
      await tx.query(m.sql);
      await tx.query('INSERT INTO tpp.schema_version (version, applied) VALUES ($1, $2)', [m.version, new Date().toISOString()]);
    }
    return current;
  });
}
