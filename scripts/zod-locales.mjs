// An esbuild plugin that keeps zod's translations out of the bundles. zod 4's `z` namespace re-exports every
// locale (`z.locales`, ~257 KB of the ~440 KB zod adds to a minified bundle), and no bundler can drop a
// namespace re-export once `z` itself is used. The toolkit shows zod's English messages only (zod registers
// `en` itself, from zod/v4/classic/schemas.js), so zod/v4/locales/index.js becomes a module exporting `en`
// alone. This reads zod's file layout: zod is pinned to an exact version in package.json, and the build
// fails here (rather than shipping every locale again) if that file is no longer imported where expected.
import { dirname, join } from 'node:path';

export function zodEnglishOnly() {
  return {
    name: 'zod-english-only',
    setup(build) {
      let replaced = 0;
      build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => {
        if (!/[\\/]node_modules[\\/]zod[\\/]v4[\\/](classic|core)$/.test(args.resolveDir)) return undefined;
        replaced++;
        return { path: join(dirname(args.resolveDir), 'locales', 'index.js'), namespace: 'zod-english-only' };
      });
      build.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({
        contents: `export { default as en } from ${JSON.stringify(join(dirname(args.path), 'en.js'))};\n`,
        resolveDir: dirname(args.path),
        loader: 'js',
      }));
      // Needs the build's metafile (scripts/build.mjs asks for one) to see whether zod was bundled at all.
      build.onEnd((result) => {
        const usesZod = Object.keys(result.metafile?.inputs ?? {}).some((f) => /node_modules[\\/]zod[\\/]v4[\\/]classic/.test(f));
        if (usesZod && replaced === 0) {
          result.errors.push({ text: 'zod-english-only: zod no longer imports ../locales/index.js from v4/classic or v4/core: update scripts/zod-locales.mjs for this zod version' });
        }
      });
    },
  };
}
