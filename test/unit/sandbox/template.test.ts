import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { openPglite } from '../../../src/core/sandbox/db/pglite';
import { LATEST_VERSION } from '../../../src/core/sandbox/db/migrations';
import { readTemplate, templateCacheDir, templateFile, templateFileName, templateKey, UNPACK_SCRIPT, unpackTemplate, unpackTemplateFile } from '../../../src/core/sandbox/db/template';

/**
 * New embedded clusters are made from a migrated template instead of initdb (docs/sandbox.md, Storage). From source
 * there is no shipped template: the per-machine cache ($XDG_CACHE_HOME/tpp here, a temporary directory) holds it.
 */

const pgliteDir = dirname(require.resolve('@electric-sql/pglite'));

describe('Local sandbox: template of new clusters', () => {
  let cache: string;
  let saved: string | undefined;
  beforeEach(() => {
    cache = mkdtempSync(join(tmpdir(), 'tpp-template-'));
    saved = process.env.XDG_CACHE_HOME;
    process.env.XDG_CACHE_HOME = cache;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.XDG_CACHE_HOME;
    else process.env.XDG_CACHE_HOME = saved;
    rmSync(cache, { recursive: true, force: true });
  });

  it('is named by the migrations and the PGlite build, and cached in $XDG_CACHE_HOME/tpp', () => {
    assert.match(templateKey(pgliteDir), /^[0-9a-f]{12}$/);
    assert.equal(templateFileName(pgliteDir), `pglite-template-${templateKey(pgliteDir)}.tar.gz`);
    assert.equal(templateCacheDir(), join(cache, 'tpp'));
  });

  it('a first start without a template makes one; a damaged template is dropped and the start still succeeds', async function () {
    this.timeout(120_000); // initdb twice, as on a first start without a template
    const file = join(templateCacheDir(), templateFileName(pgliteDir));
    const first = await openPglite();
    await first.close();
    assert.ok(existsSync(file), 'the migrated cluster was kept as the template of the next ones');
    assert.equal(readFileSync(file).subarray(0, 2).toString('hex'), '1f8b', 'a gzip tarball');

    writeFileSync(file, 'not a tarball');
    const dir = mkdtempSync(join(tmpdir(), 'tpp-template-dir-'));
    try {
      const db = await openPglite(join(dir, 'data'));
      try {
        const { rows } = await db.query<{ v: number }>('SELECT max(version) AS v FROM tpp.schema_version', []);
        assert.equal(Number(rows[0]?.v), LATEST_VERSION);
        assert.deepEqual((await db.query('SELECT 1 FROM tpp.registrations', [])).rows, []);
      } finally {
        await db.close();
      }
      assert.notEqual(readFileSync(file, 'utf8'), 'not a tarball', 'the damaged template was replaced');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a new data directory made from the template holds the migrated schema and keeps what is written', async function () {
    this.timeout(60_000); // initdb once, to make the template
    mkdirSync(templateCacheDir(), { recursive: true });
    await (await openPglite()).close(); // makes the template
    const dir = mkdtempSync(join(tmpdir(), 'tpp-template-dir-'));
    try {
      let db = await openPglite(dir);
      await db.query("INSERT INTO tpp.meta (key, value) VALUES ('k', 'v')", []);
      await db.close();
      db = await openPglite(dir);
      try {
        assert.deepEqual((await db.query<{ value: string }>('SELECT value FROM tpp.meta', [])).rows, [{ value: 'v' }]);
      } finally {
        await db.close();
      }
      assert.equal(readFileSync(join(dir, 'schema-version'), 'utf8').trim(), String(LATEST_VERSION));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a new data directory gets the template unpacked as files through a staging directory; a damaged one throws and leaves no cluster', async function () {
    this.timeout(60_000); // initdb once, to make the template
    mkdirSync(templateCacheDir(), { recursive: true });
    await (await openPglite()).close(); // makes the template
    const template = await readTemplate(pgliteDir);
    assert.ok(template, 'the template was cached');
    const dir = mkdtempSync(join(tmpdir(), 'tpp-unpack-'));
    try {
      const pgdata = join(dir, 'pgdata');
      await unpackTemplate(template, pgdata);
      assert.ok(existsSync(join(pgdata, 'PG_VERSION')) && existsSync(join(pgdata, 'base')), 'the cluster\'s files are there');
      assert.ok(!existsSync(join(pgdata, 'postmaster.pid')), 'no postmaster.pid of the process that made the template');
      assert.ok(!existsSync(`${pgdata}.new`), 'the staging directory was renamed');
      const other = join(dir, 'other');
      await assert.rejects(unpackTemplate(template.subarray(0, 4096), other));
      assert.ok(!existsSync(join(other, 'PG_VERSION')), 'a damaged template leaves no cluster behind');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the shipped unpacker (dist/sandbox-unpack.js) unpacks the shipped template in a process of its own; a damaged one fails with its reason', async function () {
    this.timeout(60_000);
    const dist = join(__dirname, '..', '..', '..', 'dist');
    const shipped = existsSync(join(dist, UNPACK_SCRIPT)) ? templateFile(dist) : undefined;
    if (!shipped) {
      console.log('      skipped: no build in dist/ (npm test builds before the unit tier; run node scripts/build.mjs)');
      return this.skip();
    }
    const dir = mkdtempSync(join(tmpdir(), 'tpp-unpack-apart-'));
    try {
      const pgdata = join(dir, 'pgdata');
      await unpackTemplateFile(shipped, pgdata, dist);
      assert.ok(existsSync(join(pgdata, 'PG_VERSION')) && !existsSync(join(pgdata, 'postmaster.pid')) && !existsSync(`${pgdata}.new`));
      const damaged = join(dir, 'damaged.tar.gz');
      writeFileSync(damaged, readFileSync(shipped).subarray(0, 4096));
      await assert.rejects(unpackTemplateFile(damaged, join(dir, 'other'), dist), /^Error: unpacking the template of new clusters failed: \S/);
      assert.ok(!existsSync(join(dir, 'other', 'PG_VERSION')), 'a damaged template leaves no cluster behind');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
