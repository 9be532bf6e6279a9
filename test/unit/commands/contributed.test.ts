// Activation registers a stub for every command package.json contributes, and the first run loads the handlers
// (dist/commands.js): each contributed id needs exactly one handler in src/extension/commands, and each handler a
// contribution, or a palette entry fails on first use. Read from the sources (the handlers need the editor).
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '../../..');
const dir = join(root, 'src/extension/commands');

describe('contributed commands and their handlers', () => {
  it('has one handler (`id: tpp.<verb><Noun>`) per command in package.json, and no other', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { contributes: { commands: { command: string }[] } };
    const contributed = pkg.contributes.commands.map((c) => c.command).sort();
    const handlers = readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) => [...readFileSync(join(dir, f), 'utf8').matchAll(/(?:^\s*|CommandDef = \{ )id: '(tpp\.[A-Za-z]+)'/gm)].map((m) => m[1]!))
      .sort();
    assert.deepEqual(handlers, contributed);
  });
});
