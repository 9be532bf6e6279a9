import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ISO_DATE_OR_TIMESTAMP_RE, MONEY_STRING_RE, charLength, hasAtMostTwoDecimals, int, isIsoDateOrTimestamp, money } from '../../../src/core/contract';
import { ISO_8601_PATTERN, ISO_DATE_OR_TIMESTAMP_PATTERN } from '../../../src/core/contract/patterns';

describe('contract: primitives (property tests)', () => {
  it('money: every amount in cents, as number or as "d.dd" string, passes and reads back as the same number', () => {
    fc.assert(
      fc.property(fc.integer({ min: -10_000_000_00, max: 10_000_000_00 }), (cents) => {
        const n = cents / 100;
        assert.equal(money().parse(n), n);
        const str = `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, '0')}`;
        assert.equal(money().parse(str), n);
      }),
    );
  });

  it('money: amounts with a third decimal fail, as numbers and as strings', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 1, max: 9 }), (cents, third) => {
        const text = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}${third}`;
        assert.equal(money().safeParse(text).success, false, text);
        assert.equal(money().safeParse(Number(text)).success, false, text);
      }),
    );
  });

  it('money: floating-point sums are judged by what JSON would write', () => {
    assert.equal(hasAtMostTwoDecimals(0.1 + 0.2), false);
    assert.equal(hasAtMostTwoDecimals(0.3), true);
    assert.equal(hasAtMostTwoDecimals(1.005), false);
    assert.equal(hasAtMostTwoDecimals(1e21), true);
    assert.equal(hasAtMostTwoDecimals(1e-7), false);
    assert.equal(hasAtMostTwoDecimals(Number.NaN), false);
    assert.equal(hasAtMostTwoDecimals(Infinity), false);
  });

  it('money: any finite number has at most 2 decimals exactly when the shortest form JSON writes has (property)', () => {
    const amounts = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.integer({ min: -(2 ** 53), max: 2 ** 53 }).chain((k) => fc.constantFrom(k / 100, k / 1000, k / 10, (k + 0.5) / 100)),
      fc.tuple(fc.integer({ min: -1e6, max: 1e6 }), fc.integer({ min: -1e6, max: 1e6 })).map(([a, b]) => a / 100 + b / 100),
    );
    fc.assert(
      fc.property(amounts, (n) => {
        assert.equal(hasAtMostTwoDecimals(n), MONEY_STRING_RE.test(String(n)) || Number.isInteger(n), String(n));
      }),
      { numRuns: 5000 },
    );
  });

  it('datetime: a ten-character text is a date exactly when the pattern and the calendar say so (property)', () => {
    const reference = (s: string): boolean => {
      const m = ISO_DATE_OR_TIMESTAMP_RE.exec(s);
      if (!m) return false;
      const date = new Date(Date.UTC(2000, Number(m[2]) - 1, Number(m[3])));
      date.setUTCFullYear(Number(m[1]));
      return date.getUTCMonth() === Number(m[2]) - 1 && date.getUTCDate() === Number(m[3]);
    };
    const unit = fc.oneof(fc.constantFrom('0', '1', '2', '3', '9', '-'), fc.constantFrom('/', ':', ' ', '\u0660', 'T', 'Z', '+', '.', 'a'));
    const near = fc.tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 })).map(([y, m, d]) => `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`);
    const oneOff = fc.tuple(near, fc.integer({ min: 0, max: 9 }), unit).map(([d, i, c]) => d.slice(0, i) + c + d.slice(i + 1));
    fc.assert(
      fc.property(fc.oneof(near, oneOff, fc.string({ unit, minLength: 10, maxLength: 10 })), (s) => {
        assert.equal(isIsoDateOrTimestamp(s), reference(s), s);
        assert.equal(isIsoDateOrTimestamp(s, 'optional'), reference(s), s);
      }),
      { numRuns: 5000 },
    );
  });

  it('int: integers and their digit strings are the same value; "" is not 0', () => {
    fc.assert(
      fc.property(fc.integer(), (i) => {
        assert.equal(int().parse(i), i);
        assert.equal(int().parse(String(i)), i);
      }),
    );
    assert.equal(int().safeParse('').success, false);
    assert.equal(int().safeParse(' 4').success, false);
  });

  it('datetime: every instant as toISOString() and as its date alone is accepted', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2200-12-31T23:59:59Z'), noInvalidDate: true }), (d) => {
        const iso = d.toISOString();
        assert.ok(isIsoDateOrTimestamp(iso), iso);
        assert.ok(isIsoDateOrTimestamp(iso.slice(0, 10)), iso.slice(0, 10));
        assert.ok(isIsoDateOrTimestamp(iso.replace('Z', '+05:30')), iso);
        assert.equal(isIsoDateOrTimestamp(iso.replace('Z', '')), false, 'timestamp without zone');
        assert.ok(isIsoDateOrTimestamp(iso.replace('Z', ''), 'optional'), 'version 3: a timestamp without zone is ISO 8601');
      }),
    );
  });

  it('datetime: impossible calendar days are rejected, leap days judged by the year', () => {
    assert.equal(isIsoDateOrTimestamp('2023-02-29'), false);
    assert.equal(isIsoDateOrTimestamp('2024-02-29'), true);
    assert.equal(isIsoDateOrTimestamp('2100-02-29'), false);
    assert.equal(isIsoDateOrTimestamp('2000-02-29'), true);
    assert.equal(isIsoDateOrTimestamp('2024-04-31'), false);
    assert.equal(isIsoDateOrTimestamp('2024-00-10'), false);
    assert.equal(isIsoDateOrTimestamp('2024-01-01T23:60:00Z'), false);
    assert.equal(isIsoDateOrTimestamp('2024-01-01T10:00:00+24:00'), false);
    assert.equal(isIsoDateOrTimestamp('2024-01-01T10:00Z'), true);
  });

  it('datetime: a day is accepted exactly when the calendar has it (every month of years 1 to 9999)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }), (y, m, d) => {
        const date = new Date(Date.UTC(2000, m - 1, d));
        date.setUTCFullYear(y);
        const real = date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
        const text = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
        assert.equal(isIsoDateOrTimestamp(text), real, text);
      }),
      { numRuns: 2000 },
    );
  });

  it('datetime: the JSON Schema patterns accept exactly what the contract accepts (both zone rules; property)', () => {
    const exact = { required: new RegExp(ISO_DATE_OR_TIMESTAMP_PATTERN, 'u'), optional: new RegExp(ISO_8601_PATTERN, 'u') };
    const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
    const day = fc.tuple(fc.integer({ min: 0, max: 9999 }), two(13), two(32)).map(([y, m, d]) => `${String(y).padStart(4, '0')}-${m}-${d}`);
    const time = fc.tuple(fc.constantFrom('T', 't', ' ', '_'), two(25), two(61), fc.option(two(61)), fc.constantFrom('', '.5', '.123456789', '.1234567890'));
    const zone = fc.oneof(fc.constantFrom('', 'Z', 'z', 'UTC'), fc.tuple(fc.constantFrom('+', '-'), two(25), fc.constantFrom(':', ''), two(61)).map((p) => p.join('')));
    const text = fc.oneof(
      day,
      fc.tuple(day, time, zone).map(([d, [t, h, mi, se, f], z]) => `${d}${t}${h}:${mi}${se === null ? '' : `:${se}${f}`}${z}`),
      fc.tuple(day, fc.integer({ min: 0, max: 9 }), fc.constantFrom('/', 'x', '0', '-', '\u0660')).map(([d, i, c]) => d.slice(0, i) + c + d.slice(i + 1)),
    );
    fc.assert(
      fc.property(text, (s) => {
        assert.equal(exact.required.test(s), isIsoDateOrTimestamp(s), s);
        assert.equal(exact.optional.test(s), isIsoDateOrTimestamp(s, 'optional'), s);
      }),
      { numRuns: 5000, seed: 20261125 },
    );
    for (const s of ['2024-02-29', '2000-02-29', '0000-02-29', '2024-12-31T23:59:59.123Z']) assert.ok(exact.required.test(s), s);
    for (const s of ['2023-02-29', '2100-02-29', '2024-04-31', '2024-02-30', '2024-01-01T24:00Z']) assert.ok(!exact.optional.test(s), s);
  });

  it('string(n) counts characters as a reader does: plain ASCII the same as grapheme clusters (CR LF is one)', () => {
    const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
    const ascii = fc.string({ unit: fc.oneof(fc.constantFrom('\r', '\n', '\r\n'), fc.integer({ min: 0, max: 127 }).map((c) => String.fromCharCode(c))), maxLength: 60 });
    fc.assert(
      fc.property(ascii, (s) => {
        assert.equal(charLength(s), [...segmenter.segment(s)].length, JSON.stringify(s));
      }),
      { numRuns: 2000 },
    );
    assert.equal(charLength('a\r\nb'), 3);
    assert.equal(charLength('e\u0301'), 1, 'e + combining accent is one character');
  });
});
