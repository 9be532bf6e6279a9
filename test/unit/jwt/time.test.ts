import * as assert from 'node:assert/strict';
import { claimTimeHoverAt, describeClaimTime, formatDuration, relativeTime } from '../../../src/core/jwt/time';

const NOW = 1_800_000_000;

describe('jwt/time: dates of time claims', () => {
  it('formats durations and relative times', () => {
    assert.equal(formatDuration(45), '45 s');
    assert.equal(formatDuration(240), '4 min');
    assert.equal(formatDuration(250), '4 min 10 s');
    assert.equal(formatDuration(7500), '2 h 5 min');
    assert.equal(relativeTime(NOW + 240, NOW), 'in 4 min');
    assert.equal(relativeTime(NOW - 90, NOW), '1 min 30 s ago');
    assert.equal(relativeTime(NOW, NOW), 'now');
  });

  it('describes exp as an ISO date and "expires in 4 min"; recognises milliseconds', () => {
    assert.equal(describeClaimTime('exp', NOW + 240, NOW), '2027-01-15T08:04:00Z (expires in 4 min)');
    assert.equal(describeClaimTime('exp', NOW - 60, NOW), '2027-01-15T07:59:00Z (expired 1 min ago)');
    assert.equal(describeClaimTime('iat', NOW - 3, NOW), '2027-01-15T07:59:57Z (issued 3 s ago)');
    assert.match(describeClaimTime('iat', NOW * 1000, NOW), /looks like milliseconds \(2027-01-15T08:00:00Z if divided by 1000\)/);
  });

  describe('hover in JSON', () => {
    const text = '{\n  "iss": "P-1",\n  "iat": 1800000000,\n  "exp": 1800000300, // comment\n  "n": 5\n}';
    const at = (needle: string, shift = 1) => text.indexOf(needle) + shift;
    it('on the value of iat and exp shows the date and the range of the number', () => {
      const h = claimTimeHoverAt(text, at('1800000300'), NOW)!;
      assert.equal(h.claim, 'exp');
      assert.match(h.markdown, /\*\*exp\*\* 2027-01-15T08:05:00Z \(expires in 5 min\)/);
      assert.deepEqual(h.range, [text.indexOf('1800000300'), text.indexOf('1800000300') + 10]);
      assert.equal(claimTimeHoverAt(text, at('1800000000'), NOW)?.claim, 'iat');
    });
    it('on the key "iat" too', () => assert.equal(claimTimeHoverAt(text, at('"iat"', 2), NOW)?.claim, 'iat'));
    it('not on other properties, strings or broken JSON', () => {
      assert.equal(claimTimeHoverAt(text, at('5\n'), NOW), undefined);
      assert.equal(claimTimeHoverAt(text, at('P-1'), NOW), undefined);
      assert.equal(claimTimeHoverAt('{"iat": "1800000000"}', 10, NOW), undefined);
      assert.equal(claimTimeHoverAt('{"iat": 18', 9, NOW)?.claim, 'iat');
      assert.equal(claimTimeHoverAt('', 0, NOW), undefined);
    });
  });
});
