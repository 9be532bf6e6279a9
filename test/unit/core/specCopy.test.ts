import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// media/partner-interface.md is the copy of the interface description that ships in the extension (problem
// codes link to its sections). It must stay identical to the source of truth in shared/spec.
const shared = join(__dirname, '../../../../shared/spec/partner-interface.md');

describe('shipped copy of the interface description', () => {
  it('equals shared/spec/partner-interface.md', function () {
    if (!existsSync(shared)) this.skip();
    assert.equal(readFileSync(join(__dirname, '../../../media/partner-interface.md'), 'utf8'), readFileSync(shared, 'utf8'));
  });
});
