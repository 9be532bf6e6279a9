import * as assert from 'node:assert/strict';
import { DEFAULT_ENVIRONMENT, ENVIRONMENTS, isEnvironmentId, listEnvironments } from '../../../src/core/environments';

describe('environments', () => {
  it('lists Local, Sandbox, Production in that order, Local the default', () => {
    assert.deepEqual(listEnvironments().map((e) => e.label), ['Local', 'Sandbox', 'Production']);
    assert.equal(DEFAULT_ENVIRONMENT, 'local');
  });

  it('marks the administrator environments remote and only Production guarded', () => {
    assert.deepEqual(listEnvironments().map((e) => [e.id, e.remote, e.guarded]), [
      ['local', false, false],
      ['sandbox', true, false],
      ['production', true, true],
    ]);
  });

  it('recognises only the three ids', () => {
    for (const id of Object.keys(ENVIRONMENTS)) assert.ok(isEnvironmentId(id));
    for (const bad of ['Local', 'prod', '', undefined, 3, null]) assert.equal(isEnvironmentId(bad), false, String(bad));
  });
});
