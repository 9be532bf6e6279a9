// Bundles the extension, the CLI and the host-test suites with esbuild.
//   node scripts/build.mjs [--production] [--watch]
// production: minified, no source maps; otherwise: source maps, not minified.
import * as esbuild from 'esbuild';
import { chmodSync, copyFileSync, readdirSync, statSync, rmSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { buildExtensionWithLazyCore } from './lazy-core.mjs';
import { zodEnglishOnly } from './zod-locales.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** Every *.test.ts below dir (recursively). */
function testFiles(dir) {
  let out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out = out.concat(testFiles(p));
    else if (name.endsWith('.ts')) out.push(p);
  }
  return out;
}

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const IMPORT_META_URL = "var __tppImportMetaUrl = require('url').pathToFileURL(__filename).href;";
const common = {
  // PGlite's module build locates its files with import.meta.url, which a CommonJS bundle lacks: give it the bundle's.
  define: { __TPP_VERSION__: JSON.stringify(pkg.version), 'import.meta.url': '__tppImportMetaUrl' },
  banner: { js: IMPORT_META_URL },
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  legalComments: 'none',
  // Prefer ES module entries: jsonc-parser's UMD main requires './impl/*' dynamically, which cannot be bundled.
  mainFields: ['module', 'main'],
  logLevel: 'warning',
  // pg's optional native binding is never used.
  external: ['pg-native'],
  // English messages only: zod's other locales stay out of every bundle (scripts/zod-locales.mjs needs the metafile).
  plugins: [zodEnglishOnly()],
  metafile: true,
};

/** PGlite reads its WebAssembly and file-system bundle at run time: they ship next to the bundles in dist/. */
function copyPgliteAssets() {
  const dir = join(createRequire(import.meta.url).resolve('@electric-sql/pglite'), '..');
  for (const f of ['pglite.wasm', 'pglite.data', 'initdb.wasm']) copyFileSync(join(dir, f), join('dist', f));
}

/**
 * New sandbox clusters are made from a template (src/core/sandbox/db/template.ts), not by initdb in the serving
 * process: made here once, by the sandbox bundle just built, as dist/pglite-template-<key>.tar.gz.
 */
function makePgliteTemplate() {
  const script = "require('./dist/sandbox.js').writePgliteTemplate('dist').then((f) => process.stdout.write(f))";
  return execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' });
}

/**
 * The deliberate-mistakes tour's script ships as dist/send-mistakes.js: the walkthrough runs it from the
 * installed extension, whose package holds only dist/ and media/. It runs as CommonJS as well as an ES module.
 */
function copyTourScript() {
  copyFileSync('examples/mistakes/send-mistakes.mjs', join('dist', 'send-mistakes.js'));
}

/**
 * `tpp` is a small entry (dist/cli.js: the command table, src/cli/commands/index.ts) and one bundle per command
 * (dist/cli-<name>.js), loaded only when that command runs: `tpp validate` never parses the sandbox's HTTP server,
 * its database or the HTTP client. `tpp sandbox` loads the server from dist/sandbox.js, the bundle the editor uses.
 * In dist/cli.js a command's bundle is loaded with V8's code cache (src/cli/compileCache.ts, requireBundle).
 */
const CLI_COMMANDS = ['code', 'connect', 'docs', 'environments', 'keygen', 'jwt', 'openapi', 'proxy', 'record', 'run', 'sandbox', 'send', 'validate'];
// Loaded with V8's code cache (src/cli/compileCache.ts): the commands whose start-up counts (CI runs them on every
// file). Such a bundle must not use a dynamic import() (checked below); the others are loaded with a plain require.
const CODE_CACHED = ['environments', 'jwt', 'keygen', 'run', 'validate'];
// What `tpp validate` must never load: the sandbox's HTTP server and database, the HTTP client, JWT keys.
const NOT_IN_VALIDATE = [/node_modules\/(undici|fastify|@fastify|@electric-sql\/pglite|pg|jose)\//, /^src\/core\/(sandbox|client)\//];
// What dist/cli-sandbox.js must not hold: it runs in the process that only starts the serving one (and again beside
// dist/sandbox.js in that process), so a copy of zod or the contract there is memory held twice for nothing.
const NOT_IN_SANDBOX_COMMAND = [/node_modules\/(zod|undici|fastify|@fastify|@electric-sql\/pglite|pg|jose)\//, /^src\/core\/(contract|sandbox\/(ops|db\/(?!database\.ts))|requestLog)\//];
const cliSplit = {
  name: 'cli-split',
  setup(build) {
    const commands = resolve('src/cli/commands');
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      const target = resolve(args.resolveDir, args.path);
      if (args.importer === join(commands, 'index.ts') && dirname(target) === commands && CLI_COMMANDS.includes(basename(target))) {
        const bundle = `./cli-${basename(target)}.js`;
        return CODE_CACHED.includes(basename(target)) ? { path: bundle, namespace: 'cli-command' } : { path: bundle, external: true };
      }
      if (target === resolve('src/core/sandbox/server')) return { path: './sandbox.js', external: true };
      return undefined;
    });
    build.onLoad({ filter: /.*/, namespace: 'cli-command' }, (args) => ({
      loader: 'js',
      resolveDir: resolve('src/cli'),
      contents: `module.exports = require('./compileCache').requireBundle(require('node:path').join(__dirname, ${JSON.stringify(basename(args.path))}));`,
    }));
  },
};

/**
 * A folder of the extension made a bundle of its own, dist/<bundle>.js: an import (or require) of the folder's
 * index.ts from outside it becomes a require of that bundle, loaded on first use. What only the folder uses goes with
 * it; a module used on both sides is in both bundles (so a class checked with instanceof across them must not rely on
 * its identity: src/extension/services/userCancelled.ts).
 */
function lazyFolder(folder, bundle) {
  const dir = resolve(folder);
  return {
    name: `lazy-${bundle}`,
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        if (args.kind === 'entry-point' || args.importer.startsWith(dir + sep)) return undefined;
        const target = resolve(args.resolveDir, args.path);
        return target === dir || target === join(dir, 'index') ? { path: `./${bundle}.js`, external: true } : undefined;
      });
    },
  };
}
// The flows' editor features (src/extension/flows) are dist/flows.js, required by src/extension/flowFeatures.ts on
// first use (docs/flows-editor.md): a workspace without flow files never loads them. The command handlers
// (src/extension/commands, with commandSupport/, send/ and what else only they use) are dist/commands.js, required by
// the command stubs of src/extension/extension.ts on the first command run.
const LAZY_FOLDERS = [lazyFolder('src/extension/flows', 'flows'), lazyFolder('src/extension/commands', 'commands')];
const extensionBuild = {
  ...common,
  entryPoints: { extension: 'src/extension/extension.ts', flows: 'src/extension/flows/index.ts', commands: 'src/extension/commands/index.ts' },
  outdir: 'dist',
  external: ['vscode', 'pg-native'],
  plugins: LAZY_FOLDERS,
};
const builds = [
  { ...common, entryPoints: { cli: 'src/cli/main.ts' }, outdir: 'dist', banner: { js: '#!/usr/bin/env node' }, plugins: [zodEnglishOnly(), cliSplit] },
  { ...common, entryPoints: Object.fromEntries(CLI_COMMANDS.map((c) => [`cli-${c}`, `src/cli/commands/${c}.ts`])), outdir: 'dist', plugins: [zodEnglishOnly(), cliSplit] },
  // The Local sandbox server (fastify): a separate bundle, loaded by the extension only on first use of Local.
  { ...common, entryPoints: { sandbox: 'src/core/sandbox/server.ts' }, outdir: 'dist' },
  // The Local sandbox's own process (forked by the editor): a small entry that requires dist/sandbox.js on start.
  { ...common, entryPoints: { 'sandbox-child': 'src/core/sandbox/child.ts' }, outdir: 'dist' },
  // Unpacks the template of a new sandbox cluster in a short-lived process (src/core/sandbox/db/template.ts).
  { ...common, entryPoints: { 'sandbox-unpack': 'src/core/sandbox/db/unpackMain.ts' }, outdir: 'dist' },
  // tpp proxy's own process in the editor (Watch My Application, docs/proxy.md): the proxy server bundled in.
  { ...common, entryPoints: { 'proxy-child': 'src/core/proxy/child.ts' }, outdir: 'dist' },
  // The response view's page (a webview): a browser bundle with @vscode-elements/elements in it, nothing from a CDN.
  { bundle: true, platform: 'browser', format: 'iife', target: 'es2022', sourcemap: !production, minify: production, legalComments: 'none', logLevel: 'warning',
    entryPoints: { response: 'src/webview/response/main.ts' }, outdir: 'dist/webview', tsconfig: 'src/webview/tsconfig.json' },
  // Host and UI suites run inside the extension host: vscode and mocha stay external (mocha from node_modules).
  { ...common, minify: false, sourcemap: true, entryPoints: [...testFiles('test/host'), ...testFiles('test/ui'), ...testFiles('test/restricted'), ...testFiles('test/bench')],
    outdir: 'out/test', outbase: 'test', external: ['vscode', 'mocha', 'pg-native'] },
];

/**
 * Fails the build when a code-cached command bundle has a dynamic import() (compileCache.ts cannot give it one),
 * when dist/cli-validate.js holds anything of NOT_IN_VALIDATE, or dist/cli-sandbox.js anything of
 * NOT_IN_SANDBOX_COMMAND. Reads the command build's metafile.
 */
function checkCommandBundles(metafile) {
  const problems = [];
  for (const [out, info] of Object.entries(metafile.outputs)) {
    const name = basename(out).replace(/^cli-|\.js$/g, '');
    if (name === 'sandbox') for (const input of Object.keys(info.inputs)) if (NOT_IN_SANDBOX_COMMAND.some((re) => re.test(input))) problems.push(`${out} holds ${input}: tpp sandbox loads its server from dist/sandbox.js only`);
    if (!CODE_CACHED.includes(name)) continue;
    for (const imp of info.imports) if (imp.kind === 'dynamic-import') problems.push(`${out} has a dynamic import() of ${imp.path}, but is loaded with the code cache`);
    const inputs = Object.keys(info.inputs);
    for (const [input, { imports }] of Object.entries(metafile.inputs)) {
      if (inputs.includes(input)) for (const imp of imports) if (imp.kind === 'dynamic-import') problems.push(`${out}: ${input} has a dynamic import() of ${imp.path}, but is loaded with the code cache`);
    }
    if (name === 'validate') for (const input of inputs) if (NOT_IN_VALIDATE.some((re) => re.test(input))) problems.push(`${out} holds ${input}: tpp validate must not load it`);
  }
  if (problems.length) {
    console.error(`esbuild: tpp command bundles:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
}

rmSync('out/test', { recursive: true, force: true });
if (watch) {
  // Watch mode bundles the extension whole (no lazy dist/core.js): simpler, and load time does not matter there.
  for (const b of [extensionBuild, ...builds]) await (await esbuild.context(b)).watch();
  copyPgliteAssets();
  copyTourScript();
  console.log('esbuild: watching');
} else {
  rmSync('dist', { recursive: true, force: true });
  const [, , commandBuild] = await Promise.all([buildExtensionWithLazyCore(extensionBuild, common), ...builds.map((b) => esbuild.build(b))]);
  checkCommandBundles(commandBuild.metafile);
  // The package's `tpp` bin runs as a program (`npx tpp` in a clone links it once and runs the file as it is).
  chmodSync('dist/cli.js', 0o755);
  copyPgliteAssets();
  const template = makePgliteTemplate();
  copyTourScript();
  const kb = (f) => `${(statSync(join('dist', f)).size / 1024).toFixed(1)} KB`;
  console.log(`esbuild${production ? ' (production)' : ''}: dist/extension.js ${kb('extension.js')} (loaded at activation; budget 120 KB in production), dist/commands.js ${kb('commands.js')} (command handlers, on the first command), dist/flows.js ${kb('flows.js')} (flow features, on first use), dist/core.js ${kb('core.js')} (loaded on first use; budget 600 KB in production), dist/undici.js ${kb('undici.js')} (loaded on the first request), dist/sandbox.js ${kb('sandbox.js')}, dist/sandbox-child.js ${kb('sandbox-child.js')}, dist/webview/response.js ${kb('webview/response.js')} (the response view's page), ${template} ${kb(basename(template))} (new sandbox clusters)`);
  console.log(`  tpp: dist/cli.js ${kb('cli.js')}, then one of ${CLI_COMMANDS.map((c) => `cli-${c}.js ${kb(`cli-${c}.js`)}`).join(', ')}`);
}
