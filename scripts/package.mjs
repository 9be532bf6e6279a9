// `npm run package`: production build (with --check: dist/extension.js <= 120 KB, dist/core.js <= 600 KB), then a .vsix made offline with @vscode/vsce 3 (dependencies are
// bundled, so --no-dependencies). Lists the .vsix contents and, with --check, fails if anything other
// than dist/*.js, PGlite's files in dist/, media/, package.json, README, CHANGELOG and LICENSE is inside, or
// if the packaged sandbox cannot open its embedded database (PGlite loads its WebAssembly at run time: proven from
// the .vsix itself, not from the source tree), or makes it without the template of new clusters it ships.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const check = process.argv.includes('--check');
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const run = (cmd, args, env) => execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', env: { ...process.env, ...env } });

run('node', ['scripts/build.mjs', '--production']);
// Size budgets (bytes are deterministic, unlike timings): what activation loads, and the lazily loaded core.
// extension.js: the host's own code loaded at activation (tree, services, views); the command handlers load from
// commands.js on the first command run (scripts/build.mjs), and everything without `vscode` lives in src/core and loads
// lazily from core.js (scripts/lazy-core.mjs).
const BUDGETS_KB = { 'dist/extension.js': 120, 'dist/core.js': 600 };
const overBudget = Object.entries(BUDGETS_KB)
  .map(([f, kb]) => ({ f, kb, size: statSync(f).size / 1024 }))
  .filter((b) => b.size > b.kb);
for (const b of overBudget) console.error(`package: ${b.f} is ${b.size.toFixed(1)} KB in production, over its ${b.kb} KB budget`);
const out = check ? join(mkdtempSync(join(tmpdir(), 'tpp-vsix-')), 'check.vsix') : `${pkg.name}-${pkg.version}.vsix`;
// No flags about the repository: package.json names it, so vsce makes the README's relative links and images absolute.
run('npx', ['vsce', 'package', '--no-dependencies', '--skip-license', '--out', out]);
// A .vsix is a zip: list it with Python's zipfile (always on this machine), no extra dependency.
const entries = run('python3', ['-c', 'import sys,zipfile;[print(i.filename, i.file_size) for i in zipfile.ZipFile(sys.argv[1]).infolist()]', out])
  .trim()
  .split('\n')
  .map((l) => {
    const [name, size] = l.split(' ');
    return { name, size: Number(size) };
  });
console.log(`${out}: ${entries.length} entries`);
for (const e of entries) console.log(`  ${e.name.padEnd(48)} ${(e.size / 1024).toFixed(1).padStart(8)} KB`);
const allowed = /^(\[Content_Types\]\.xml|extension\.vsixmanifest|extension\/(dist\/(webview\/)?[\w-]+\.js|dist\/(pglite\.wasm|pglite\.data|initdb\.wasm|pglite-template-[0-9a-f]+\.tar\.gz)|media\/.+|package\.json|readme\.md|changelog\.md|LICENSE(\.txt)?))$/i;
const unexpected = entries.filter((e) => !allowed.test(e.name));
// The Local sandbox runs as its own process from these files: a .vsix without them breaks Local.
const missing = ['extension/dist/extension.js', 'extension/dist/sandbox.js', 'extension/dist/sandbox-child.js', 'extension/dist/sandbox-unpack.js', 'extension/dist/webview/response.js'].filter((f) => !entries.some((e) => e.name === f));
if (missing.length) unexpected.push(...missing.map((name) => ({ name: `(missing) ${name}` })));
// New sandbox clusters are made from this template (src/core/sandbox/db/template.ts); without it, initdb in the process.
if (!entries.some((e) => /^extension\/dist\/pglite-template-[0-9a-f]+\.tar\.gz$/.test(e.name))) unexpected.push({ name: '(missing) extension/dist/pglite-template-<key>.tar.gz' });
// The command line is its own tarball; README-only screenshots load from the repository.
for (const e of entries.filter((x) => /^extension\/(dist\/cli[\w-]*\.js|media\/screenshots\/)/.test(x.name))) unexpected.push({ name: `(not needed) ${e.name}` });
// The Marketplace shows the packaged README: every link and image must be absolute there.
const readme = run('python3', ['-c', 'import sys,zipfile;z=zipfile.ZipFile(sys.argv[1]);print(z.read(next(n for n in z.namelist() if n.lower()=="extension/readme.md")).decode())', out]);
const relative = [...readme.matchAll(/!?\[[^\]]*\]\(([^)\s]+)[^)]*\)|<img [^>]*src="([^"]+)"/g)].map((m) => m[1] ?? m[2]).filter((u) => !/^(https?:|mailto:|#)/.test(u));
for (const u of relative) unexpected.push({ name: `(relative link in the packaged README) ${u}` });
const total = entries.reduce((n, e) => n + e.size, 0);
console.log(`unpacked size ${(total / 1024 / 1024).toFixed(1)} MB; .vsix ${(statSync(out).size / 1024 / 1024).toFixed(1)} MB`);
if (check) {
  const dir = mkdtempSync(join(tmpdir(), 'tpp-vsix-open-'));
  run('python3', ['-c', 'import sys,zipfile;zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])', out, dir]);
  const probe = `require(${JSON.stringify(join(dir, 'extension/dist/sandbox.js'))}).startSandbox({ dataDir: ${JSON.stringify(join(dir, 'data'))} })
    .then((s) => s.close()).then(() => console.log('package: the packaged sandbox opened its embedded database'))`;
  // An empty per-machine cache: a sandbox that found no template of its own would make one there.
  const cache = join(dir, 'cache');
  try {
    console.log(run('node', ['-e', probe], { XDG_CACHE_HOME: cache }).trim());
    if (existsSync(cache)) unexpected.push({ name: '(not used) extension/dist/pglite-template-<key>.tar.gz: the packaged sandbox ran initdb' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(dirname(out), { recursive: true, force: true }); // the temporary directory made for the .vsix
  }
}
if (overBudget.length) process.exit(1);
if (unexpected.length) {
  console.error(`unexpected or missing files in the .vsix: ${unexpected.map((e) => e.name).join(', ')}`);
  process.exit(1);
}
console.log('package: only run-time files inside');
