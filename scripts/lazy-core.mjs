// Keeps the heavy part of src/core (zod contract, diagnostics, undici client, jose JWT, history) out
// of dist/extension.js: those modules are bundled once into dist/core.js, and each import of them from
// the extension becomes a small stub whose exports are getters that `require('./core.js')` on first
// use. Activation (and a JSON file opening) then loads ~30 KB instead of ~1 MB; the rest loads when a
// payload is validated, a token minted or a request sent.
//
// How: (1) a metafile pass finds every heavy core file the extension imports; (2) dist/core.js is built
// from a generated entry exposing those modules by name; (3) it is loaded here to read each module's
// export names; (4) the extension is bundled with a plugin that replaces those imports by the stubs.
import * as esbuild from 'esbuild';
import { createRequire } from 'node:module';
import { relative, resolve, sep } from 'node:path';

const HEAVY = ['contract', 'diagnostics', 'client', 'jwt', 'history', 'json', 'sandbox', 'samples', 'variables', 'connect', 'proxy', 'listing', 'exchange', 'flows'].map((d) => resolve('src/core', d) + sep);
const isHeavy = (file) => HEAVY.some((dir) => file.startsWith(dir));
const keyOf = (file) => relative(resolve('src/core'), file).replace(/\\/g, '/').replace(/\.ts$/, '');

/** Absolute paths of heavy core files imported directly by non-heavy files of the extension bundle. */
async function heavyImports(extensionOptions) {
  const probe = await esbuild.build({ ...extensionOptions, write: false, metafile: true, minify: false, sourcemap: false });
  const files = new Set();
  for (const [input, info] of Object.entries(probe.metafile.inputs)) {
    const from = resolve(input);
    if (isHeavy(from) || !from.startsWith(resolve('src') + sep)) continue;
    for (const imp of info.imports) if (!imp.external && isHeavy(resolve(imp.path))) files.add(resolve(imp.path));
  }
  return [...files].sort();
}

/**
 * Builds dist/core.js and dist/extension.js. `extensionOptions` and `coreOptions` are esbuild options
 * (entry points and outdir are set here). Returns the two build results.
 */
export async function buildExtensionWithLazyCore(extensionOptions, coreOptions) {
  const files = await heavyImports(extensionOptions);
  const entry = files.map((f, i) => `import * as m${i} from ${JSON.stringify(f)};`).join('\n') +
    `\nexport const modules = {${files.map((f, i) => `${JSON.stringify(keyOf(f))}: m${i}`).join(', ')}};\n`;
  // undici (~520 KB minified, half of the core) is only needed to send a request: it is a bundle of its own,
  // dist/undici.js, required by the client on its first request (src/core/client/attempt.ts).
  // tough-cookie (with its public suffix list, ~100 KB minified) is only needed once an answer sets a cookie in a
  // flow (src/core/flows/cookies.ts): dist/tough-cookie.js, the same way.
  const apart = { name: 'undici-apart', setup: (b) => b.onResolve({ filter: /^(undici|tough-cookie)$/ }, (args) => ({ path: `./${args.path}.js`, external: true })) };
  const [core] = await Promise.all([
    esbuild.build({ ...coreOptions, plugins: [...(coreOptions.plugins ?? []), apart], stdin: { contents: entry, resolveDir: resolve('.'), sourcefile: 'core-entry.js', loader: 'js' }, outfile: 'dist/core.js' }),
    esbuild.build({ ...coreOptions, stdin: { contents: "module.exports = require('undici');", resolveDir: resolve('.'), sourcefile: 'undici-entry.js', loader: 'js' }, outfile: 'dist/undici.js' }),
    esbuild.build({ ...coreOptions, stdin: { contents: "module.exports = require('tough-cookie');", resolveDir: resolve('.'), sourcefile: 'tough-cookie-entry.js', loader: 'js' }, outfile: 'dist/tough-cookie.js' }),
  ]);

  const require = createRequire(import.meta.url);
  const corePath = resolve('dist/core.js');
  delete require.cache[corePath];
  const modules = require(corePath).modules;
  const names = Object.fromEntries(Object.entries(modules).map(([k, m]) => [k, Object.keys(m)]));

  const plugin = {
    name: 'lazy-core',
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, async (args) => {
        if (args.pluginData === 'lazy-core' || isHeavy(args.importer) || !args.importer.startsWith(resolve('src') + sep)) return undefined;
        const r = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: 'lazy-core' });
        if (r.errors.length || !isHeavy(r.path)) return undefined;
        return { path: keyOf(r.path), namespace: 'lazy-core' };
      });
      // One shared helper defines every stub's getters: a stub is then one call with its export names in a string
      // (a getter written out per export cost ~20 KB of dist/extension.js for ~300 names).
      build.onResolve({ filter: /^lazy-core-runtime$/ }, () => ({ path: 'runtime', namespace: 'lazy-core-runtime' }));
      build.onLoad({ filter: /.*/, namespace: 'lazy-core-runtime' }, () => ({
        loader: 'js',
        contents: "module.exports = (exports, key, names) => {\n  let m;\n  const load = () => (m ??= require('./core.js').modules[key]);\n" +
          "  for (const n of names.split(',')) Object.defineProperty(exports, n, { enumerable: true, get: () => load()[n] });\n};\n",
      }));
      build.onLoad({ filter: /.*/, namespace: 'lazy-core' }, (args) => {
        const exportNames = names[args.path];
        if (!exportNames) return { errors: [{ text: `lazy-core: ${args.path} was not bundled into dist/core.js` }] };
        if (exportNames.some((n) => n.includes(','))) return { errors: [{ text: `lazy-core: an export name of ${args.path} contains a comma` }] };
        return {
          loader: 'js',
          resolveDir: resolve('.'),
          contents: `require('lazy-core-runtime')(exports, ${JSON.stringify(args.path)}, ${JSON.stringify(exportNames.join(','))});\n`,
        };
      });
    },
  };
  const extension = await esbuild.build({ ...extensionOptions, plugins: [...(extensionOptions.plugins ?? []), plugin], external: [...(extensionOptions.external ?? []), './core.js'] });
  return { core, extension };
}
