// The decoders of command arguments (src/extension/commandSupport/args.ts): what tests and other commands pass as
// options, and the environment argument of the setup, send and run commands (ARCHITECTURE.md, Code map: commands).
// A value of another type reads as not given, so the command asks as it would without it. Plain Node.
import * as assert from 'node:assert/strict';
import { confirmedArg, envChoiceOf, envTargetOf, fieldsArg, flagArg, numberArg, oneOfArg, stringArg, textArg } from '../../../src/extension/commandSupport/args';

describe('command arguments: option fields and environments', () => {
  it('reads option fields by type, anything else as not given', () => {
    assert.deepEqual(fieldsArg({ a: 1 }), { a: 1 });
    assert.deepEqual(fieldsArg('local'), {});
    assert.deepEqual(fieldsArg(null), {});
    assert.equal(textArg('INV-1'), 'INV-1');
    assert.equal(textArg(''), undefined);
    assert.equal(textArg(42), undefined);
    assert.equal(stringArg(''), '');
    assert.equal(flagArg(false), false);
    assert.equal(flagArg('true'), undefined);
    assert.equal(numberArg(0), 0);
    assert.equal(numberArg('8080'), undefined);
    assert.equal(oneOfArg('replace', ['rotate', 'replace'] as const), 'replace');
    assert.equal(oneOfArg('discard', ['rotate', 'replace'] as const), undefined);
  });

  it('skips a confirmation only on confirmed: true', () => {
    assert.equal(confirmedArg({ confirmed: true }), true);
    assert.equal(confirmedArg({ confirmed: 'yes' }), false);
    assert.equal(confirmedArg(undefined), false);
  });

  it('names the environment of a setup command: the one given, ask for a row of none, the active one without an argument', () => {
    assert.equal(envTargetOf('production'), 'production');
    assert.equal(envTargetOf({ status: { info: { id: 'sandbox' } } }), 'sandbox');
    assert.equal(envTargetOf('staging'), 'ask');
    assert.equal(envTargetOf({ kind: 'folder' }), 'ask');
    assert.equal(envTargetOf(undefined), undefined);
    assert.equal(envTargetOf(null), undefined);
  });

  it("names the environment of a send or run: an id, 'pick', else the active one", () => {
    assert.equal(envChoiceOf('local'), 'local');
    assert.equal(envChoiceOf('pick'), 'pick');
    assert.equal(envChoiceOf('staging'), undefined);
    assert.equal(envChoiceOf({ env: 'local' }), undefined);
  });
});
