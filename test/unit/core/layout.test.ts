// Layout rule of ARCHITECTURE.md: no file under src/ over 300 lines,
// so a newcomer can read any of them whole. (Import cycles are checked by `npm run cycles` in `npm test`.)
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
const LIMIT = 300;

function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    return d.isDirectory() ? tsFiles(p) : d.name.endsWith('.ts') ? [p] : [];
  });
}

describe('layout: files a newcomer can read whole', () => {
  for (const dir of ['src']) {
    it(`no file under ${dir} has more than ${LIMIT} lines`, () => {
      const files = tsFiles(path.join(ROOT, dir));
      assert.ok(files.length > 5, `found the files of ${dir}`);
      const long = files
        .map((f) => ({ file: path.relative(ROOT, f), lines: fs.readFileSync(f, 'utf8').split('\n').length - 1 }))
        .filter((f) => f.lines > LIMIT);
      assert.deepEqual(long, []);
    });
  }
});

// ARCHITECTURE.md (the one client): every request leaves through the transport, so undici is imported by the
// transport, the types it exports, and the proxy's forwarder only; and an environment's traits live in its table
// (src/core/environments.ts), so no other file compares an environment with its name.
describe('layout: one transport, one environment table', () => {
  const files = () => tsFiles(path.join(ROOT, 'src')).map((f) => ({ file: path.relative(ROOT, f).split(path.sep).join('/'), text: fs.readFileSync(f, 'utf8') }));
  /** The text without its comments (line and block), so a docstring naming a module is not an import. */
  const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

  it('undici is imported by the transport, its types and the proxy forwarder only', () => {
    const importers = files()
      .filter((f) => /(from\s+|require\(|import\()\s*['"]undici['"]/.test(code(f.text)))
      .map((f) => f.file)
      .sort();
    assert.deepEqual(importers, ['src/core/client/attempt.ts', 'src/core/client/types.ts', 'src/core/proxy/forward.ts']);
  });

  it("'production' is written as a string only in the environment table", () => {
    const writers = files()
      .filter((f) => /['"`]production['"`]/.test(code(f.text)))
      .map((f) => f.file);
    assert.deepEqual(writers, ['src/core/environments.ts']);
  });
});

// ARCHITECTURE.md (flows and backfills beside the client): a backfill row is prepared, sent and asserted by the
// pieces a flow request uses (flows/prepare, flows/send, flows/assert), never through the flow runner itself.
describe('layout: a backfill row does not go through the flow runner', () => {
  it('no file of src/core/backfill imports core/flows/run', () => {
    const dir = path.join(ROOT, 'src/core/backfill');
    const importers = tsFiles(dir).filter((f) => /from\s+['"]\.\.\/flows\/run['"]/.test(fs.readFileSync(f, 'utf8')));
    assert.deepEqual(importers.map((f) => path.relative(ROOT, f)), []);
  });
});
