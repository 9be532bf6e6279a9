// ESLint flat config: typescript-eslint on src/ and test/; src/core must never import vscode.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
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
    rules: {
      'no-restricted-imports': ['error', { paths: ['undici', 'zod', 'jose', 'fastify'].map((name) => ({ name, message: 'The extension reaches heavy libraries only through src/core, which is loaded lazily from dist/core.js (scripts/lazy-core.mjs).' })) }],
    },
  },
  {
    files: ['src/core/**/*.ts', 'src/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'src/core and src/cli run without the editor: move editor code to src/extension or pass the dependency in.' }] }],
    },
  },
);
