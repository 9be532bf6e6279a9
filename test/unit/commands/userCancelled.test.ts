// A cancellation is recognised whichever bundle's copy of UserCancelled made it: dist/extension.js, dist/commands.js
// and dist/flows.js each hold one (scripts/build.mjs), and a dismissed prompt must stay silent, never an error
// message. Two copies are made here by loading the module twice. Plain Node.
import * as assert from 'node:assert/strict';

const PATH = require.resolve('../../../src/extension/services/userCancelled');

function freshCopy(): typeof import('../../../src/extension/services/userCancelled') {
  delete require.cache[PATH];
  return require(PATH) as typeof import('../../../src/extension/services/userCancelled');
}

describe('UserCancelled across bundles', () => {
  it('recognises an instance of another copy of the class, and nothing else', () => {
    const a = freshCopy();
    const b = freshCopy();
    assert.notEqual(a.UserCancelled, b.UserCancelled);
    assert.ok(new b.UserCancelled() instanceof a.UserCancelled);
    assert.ok(new a.UserCancelled() instanceof b.UserCancelled);
    assert.ok(!(new Error('Cancelled by the user') instanceof a.UserCancelled));
    assert.ok(!((undefined as unknown as object) instanceof a.UserCancelled));
  });

  it('keeps subclasses exact: a subclass matches its own instances only', () => {
    const { UserCancelled } = freshCopy();
    class PrerequisitesMissingLike extends UserCancelled {}
    assert.ok(new PrerequisitesMissingLike() instanceof UserCancelled);
    assert.ok(new PrerequisitesMissingLike() instanceof PrerequisitesMissingLike);
    assert.ok(!(new UserCancelled() instanceof PrerequisitesMissingLike));
  });
});
