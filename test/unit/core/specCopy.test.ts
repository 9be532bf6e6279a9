import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SPEC_PATH, requireSpec } from '../specPath';

// media/partner-interface.md is the copy of the interface description that ships in the extension (problem
// codes link to its sections). It must stay identical to the source of truth in shared/spec.

describe('shipped copy of the interface description', () => {
  it('equals shared/spec/partner-interface.md', function () {
    requireSpec(this);
    assert.equal(readFileSync(join(__dirname, '../../../media/partner-interface.md'), 'utf8'), readFileSync(SPEC_PATH, 'utf8'));
  });
});
