// ESLint flat config: typescript-eslint on src/ and test/; src/core must never import vscode.
import { readFileSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// What .gitignore ignores (generated files: builds, benchmark bundles, logs) is never linted, so no generated file
// can fail the lint step. @eslint/compat's includeIgnoreFile does this but is not a dependency, so its conversion is
// here: a pattern without an inner slash matches at any depth (**/), one with a slash is relative to the root (a
// leading / dropped), a trailing / still means directories only, and ! keeps its meaning.
const gitignored = readFileSync(new URL('.gitignore', import.meta.url), 'utf8')
  .split(/\r?\n/)
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'))
  .map((line) => {
    const negated = line.startsWith('!');
    const pattern = negated ? line.slice(1) : line;
    const anchored = pattern.slice(0, -1).includes('/');
    return `${negated ? '!' : ''}${anchored ? pattern.replace(/^\//, '') : `**/${pattern}`}`;
  });

const HEAVY = ['undici', 'zod', 'jose', 'fastify'].map((name) => ({ name, message: 'The extension reaches heavy libraries only through src/core, which is loaded lazily from dist/core.js (scripts/lazy-core.mjs).' }));
const NO_EDITOR = [{ name: 'vscode', message: 'src/core and src/cli run without the editor: move editor code to src/extension or pass the dependency in.' }];

// The layers of ARCHITECTURE.md (Layers), lowest first: a folder imports folders of its own layer or lower, never
// higher. Files at the top of src/core and src/extension (environments.ts; log.ts, container.ts, extension.ts, …)
// are not in a layer.
const CORE_LAYERS = [
  ['contract', 'log', 'json', 'lock'],
  ['variables', 'jwt', 'diagnostics', 'listing'],
  // The client builds each request's Exchange (client/clientFor.ts → exchange/exchangeOf.ts), which reads the client's errors.
  ['client', 'exchange'],
  // Flows and backfills run requests through the client and nothing above it.
  ['flows'],
  ['backfill'],
  ['history', 'samples', 'requestLog', 'childProcess', 'serverGuards', 'proxy'],
  ['sandbox'],
  ['connect', 'send', 'record'],
];
const EXTENSION_LAYERS = [['services'], ['documents'], ['diagnostics', 'jwt', 'response', 'tree'], ['send'], ['flows'], ['commandSupport'], ['commands']];

/** One ESLint block per folder of `root`: `no-restricted-imports` of every higher layer's folders, with `base`. */
function layerRules(root, layers, base) {
  return layers.flatMap((layer, i) => {
    const higher = layers.slice(i + 1).flat();
    if (!higher.length) return [];
    const message = `${root} is layered (ARCHITECTURE.md, Layers): ${layer.join(', ')} must not import ${higher.join(', ')}.`;
    return layer.map((folder) => ({
      files: [`${root}/${folder}/**/*.ts`],
      rules: { 'no-restricted-imports': ['error', { paths: base, patterns: [{ regex: `^(\\.\\./)+(${higher.join('|')})(/|$)`, message }] }] },
    }));
  });
}

export default tseslint.config(
  { name: 'gitignore', ignores: gitignored },
  { ignores: ['test/harness/run-vscode-it.cjs', 'dist/**', 'out/**', 'node_modules/**', '.vscode-it/**', 'test-results/**', 'examples/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { console: 'readonly', process: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', Buffer: 'readonly', URL: 'readonly', __dirname: 'readonly', require: 'readonly', module: 'writable' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  {
    files: ['src/extension/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: HEAVY }] },
  },
  {
    files: ['src/core/**/*.ts', 'src/cli/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: NO_EDITOR }] },
  },
  ...layerRules('src/core', CORE_LAYERS, NO_EDITOR),
  ...layerRules('src/extension', EXTENSION_LAYERS, HEAVY),
  {
    // As the 300-line test keeps files short (test/unit/core/layout.test.ts), this keeps functions readable at one glance.
    files: ['src/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }] },
  },
);
