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
