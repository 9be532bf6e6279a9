// `tpp` as a package of its own: `npm run pack:cli` → out/tpp-cli-<version>.tgz, which
// `npm install -g ./tpp-cli-<version>.tgz` installs on any machine with Node 20+ (no repository, no build, nothing
// downloaded at install: the package has no dependencies, every bundle and PGlite's assets are inside it).
//   node scripts/pack-cli.mjs [--no-build] [--out <dir>]
// --no-build packs the dist/ that is there (the samples tier packs the build it already made); otherwise the
// production build runs first. docs/ goes with it (tpp docs). Prints the tarball's path on its last line.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const args = process.argv.slice(2);
const outDir = resolve(args.includes('--out') ? args[args.indexOf('--out') + 1] : 'out');
if (!args.includes('--no-build')) {
  const b = spawnSync(process.execPath, ['scripts/build.mjs', '--production'], { stdio: 'inherit' });
  if (b.status !== 0) process.exit(b.status ?? 1);
}

// What only the editor loads stays out; everything else in dist/ is the CLI's (its command bundles, the sandbox
// server and whatever assets the sandbox reads next to it), so an asset added to dist/ is packed without a change here.
const EDITOR_ONLY = new Set(['extension.js', 'commands.js', 'flows.js', 'core.js', 'undici.js', 'sandbox-child.js', 'proxy-child.js', 'send-mistakes.js', 'webview']);
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const stage = join(outDir, 'cli-package');
rmSync(stage, { recursive: true, force: true });
mkdirSync(join(stage, 'dist'), { recursive: true });
for (const entry of readdirSync('dist', { withFileTypes: true })) {
  if (EDITOR_ONLY.has(entry.name) || entry.name.endsWith('.map') || !entry.isFile()) continue;
  copyFileSync(join('dist', entry.name), join(stage, 'dist', entry.name));
}
// `tpp sandbox` makes new clusters from this template (src/core/sandbox/db/template.ts), not by initdb.
if (!readdirSync(join(stage, 'dist')).some((f) => /^pglite-template-[0-9a-f]+\.tar\.gz$/.test(f))) {
  console.error('pack-cli: dist/pglite-template-<key>.tar.gz is missing: run node scripts/build.mjs');
  process.exit(1);
}
copyFileSync('LICENSE', join(stage, 'LICENSE'));
// The reference pages `tpp docs` prints and every --help names (src/cli/commands/docs.ts): docs/ beside dist/.
mkdirSync(join(stage, 'docs'));
for (const page of readdirSync('docs').filter((f) => f.endsWith('.md'))) copyFileSync(join('docs', page), join(stage, 'docs', page));
writeFileSync(
  join(stage, 'README.md'),
  `# tpp: the Tire Protection Partner Toolkit's command line\n\n` +
    `The headless half of the Tire Protection Partner Toolkit: a Local sandbox of the whole partner API for your own ` +
    `application's tests, and payload validation, signing and sending for CI.\n\n` +
    '```sh\nnpm install -g ./tpp-cli-' + pkg.version + '.tgz\ntpp --version\ntpp help\ntpp sandbox --port 8787\n```\n\n' +
    `Node.js 20 or later. The package has no dependencies and downloads nothing when installed.\n\n` +
    `Reference pages, installed with it: \`tpp docs\` lists them; \`tpp docs sandbox\` (the Local sandbox and its control API), ` +
    `\`tpp docs testing\` (your application's tests against it). Source, issues: ${pkg.homepage}\n`,
);
writeFileSync(
  join(stage, 'package.json'),
  JSON.stringify(
    {
      name: 'tpp-cli',
      version: pkg.version,
      description: 'tpp: the Tire Protection Partner Toolkit command line (Local sandbox, validate, send, jwt, keygen, code, openapi)',
      license: pkg.license,
      repository: pkg.repository,
      homepage: pkg.homepage,
      bugs: pkg.bugs,
      bin: { tpp: 'dist/cli.js' },
      engines: { node: '>=20' },
      files: ['dist', 'docs', 'README.md', 'LICENSE'],
    },
    null,
    2,
  ) + '\n',
);
mkdirSync(outDir, { recursive: true });
const p = spawnSync('npm', ['pack', '--silent', '--pack-destination', outDir], { cwd: stage, encoding: 'utf8' });
if (p.status !== 0) {
  process.stderr.write(p.stderr);
  process.exit(p.status ?? 1);
}
console.log(join(outDir, p.stdout.trim().split('\n').pop()));
