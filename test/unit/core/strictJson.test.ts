import * as assert from 'node:assert/strict';
import { nearestFieldSpan, parseStrictJson } from '../../../src/core/json/strictJson';

// Payload files are strict JSON (../shared/spec/partner-interface.md, Conventions): what the editor sends and where a
// 400's field problem points in the file.
describe('strict JSON helpers', () => {
  it('parses strict JSON and refuses comments and trailing commas with the offset of the first error', () => {
    assert.deepEqual(parseStrictJson('{"invoiceNumber": "INV-1"}'), { ok: true, value: { invoiceNumber: 'INV-1' } });
    const comment = parseStrictJson('{\n  // note\n  "a": 1}');
    assert.equal(comment.ok, false);
    assert.equal(!comment.ok && comment.code, 'InvalidCommentToken');
    assert.equal(!comment.ok && comment.offset, 4);
    const trailing = parseStrictJson('{"a": 1,}');
    assert.equal(!trailing.ok && trailing.code, 'PropertyNameExpected');
  });

  it('finds a field value, else its nearest enclosing object or array', () => {
    const text = '{"TiresCovered": [{"tireSize": "225/65R17"}], "invoiceNumber": "INV-1"}';
    assert.deepEqual(nearestFieldSpan(text, ['invoiceNumber']), { offset: text.indexOf('"INV-1"'), length: 7, container: false });
    assert.deepEqual(nearestFieldSpan(text, ['TiresCovered', 0, 'tireSize']), { offset: text.indexOf('"225/65R17"'), length: 11, container: false });
    // missing field inside the first tire: the tire's object
    assert.deepEqual(nearestFieldSpan(text, ['TiresCovered', 0, 'dot']), { offset: text.indexOf('{"tireSize"'), length: 25, container: true });
    // missing top-level field: the document
    assert.deepEqual(nearestFieldSpan(text, ['customer', 'email']), { offset: 0, length: text.length, container: true });
    assert.equal(nearestFieldSpan('', ['a']), undefined);
  });
});
