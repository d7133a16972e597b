import { describe, expect, it } from 'vitest';
import { LEVEL_RANKS } from '../../src/contract/levels.js';
import { levelOf, parseMinLevel } from '../../src/exporter/severity.js';
import { createTimestampFormatter } from '../../src/exporter/timestamp.js';

const S = 1_795_234_527; // 2026-11-21T04:15:27Z

describe('timestamp formatting', () => {
  it('writes RFC 3339 with the fewest of 3, 6 or 9 digits that keep every nanosecond', () => {
    const format = createTimestampFormatter();
    expect(format([S, 123_000_000])).toBe('2026-11-21T04:15:27.123Z');
    expect(format([S, 123_456_000])).toBe('2026-11-21T04:15:27.123456Z');
    expect(format([S, 1_000])).toBe('2026-11-21T04:15:27.000001Z');
    expect(format([S, 123_456_780])).toBe('2026-11-21T04:15:27.123456780Z');
    expect(format([S, 123_456_789])).toBe('2026-11-21T04:15:27.123456789Z');
    expect(format([S, 0])).toBe('2026-11-21T04:15:27.000Z');
    expect(format([S, 7])).toBe('2026-11-21T04:15:27.000000007Z');
    expect(format([S, 100_000_000])).toBe('2026-11-21T04:15:27.100Z');
    expect(format([0, 1])).toBe('1970-01-01T00:00:00.000000001Z');
  });

  it('is right across second, minute, day and year boundaries, in any order', () => {
    const format = createTimestampFormatter();
    const newYear = Date.UTC(2027, 0, 1) / 1000;
    expect(
      [
        [S, 999_999_999],
        [S + 1, 0],
        [S, 500],
        [S + 33, 1],
        [newYear - 1, 999_999_999],
        [newYear, 0],
        [S + 1, 0],
      ].map((t) => format(t as [number, number])),
    ).toEqual([
      '2026-11-21T04:15:27.999999999Z',
      '2026-11-21T04:15:28.000Z',
      '2026-11-21T04:15:27.000000500Z',
      '2026-11-21T04:16:00.000000001Z',
      '2026-12-31T23:59:59.999999999Z',
      '2027-01-01T00:00:00.000Z',
      '2026-11-21T04:15:28.000Z',
    ]);
  });

  it('normalises an hrTime whose nanos overflow a second, without losing nanoseconds', () => {
    const format = createTimestampFormatter();
    expect(format([S, 1_000_000_000])).toBe('2026-11-21T04:15:28.000Z');
    expect(format([S, 1_500_000_123])).toBe('2026-11-21T04:15:28.500000123Z');
    expect(format([S, 3_000_000_007])).toBe('2026-11-21T04:15:30.000000007Z');
  });

  it('normalises negative nanos by borrowing from the seconds', () => {
    const format = createTimestampFormatter();
    expect(format([S, -1])).toBe('2026-11-21T04:15:26.999999999Z');
    expect(format([S, -1_000_000_000])).toBe('2026-11-21T04:15:26.000Z');
  });

  it('moves fractional seconds into the nanos and drops sub-nanosecond parts', () => {
    const format = createTimestampFormatter();
    expect(format([S + 0.5, 0])).toBe('2026-11-21T04:15:27.500Z');
    expect(format([S, 42.9])).toBe('2026-11-21T04:15:27.000000042Z');
  });

  it('never throws on nonsense, and still gives an RFC 3339 time', () => {
    const format = createTimestampFormatter();
    for (const time of [
      [Number.NaN, 0],
      [S, Number.NaN],
      [Number.POSITIVE_INFINITY, 0],
      [1e20, 0],
    ] as const) {
      expect(format(time)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.(\d{3}|\d{6}|\d{9})Z$/);
    }
  });
});

describe('severity → level', () => {
  it.each([
    [1, 'debug'],
    [4, 'debug'],
    [5, 'debug'],
    [8, 'debug'],
    [9, 'info'],
    [12, 'info'],
    [13, 'warning'],
    [16, 'warning'],
    [17, 'error'],
    [20, 'error'],
    [21, 'critical'],
    [24, 'critical'],
  ])('severityNumber %i → %s', (severityNumber, level) => {
    expect(levelOf(severityNumber, undefined)).toBe(level);
    // The number wins over any other text.
    expect(levelOf(severityNumber, 'warn')).toBe(level);
  });

  it('keeps a severity text of alert with an error or fatal number: OpenTelemetry has no alert number', () => {
    // winston's syslog levels: alert → FATAL2 (22), crit → FATAL (21).
    expect(levelOf(22, 'alert')).toBe('alert');
    expect(levelOf(17, 'ALERT')).toBe('alert');
    expect(levelOf(21, 'crit')).toBe('critical');
    expect(levelOf(9, 'alert')).toBe('info');
    expect(levelOf(13, 'alert')).toBe('warning');
  });

  it('ranks levels as the service does: alert between error and critical', () => {
    const order = ['debug', 'info', 'warning', 'error', 'alert', 'critical'] as const;
    const ranks = order.map((level) => LEVEL_RANKS[level]);
    expect(ranks).toEqual([10, 20, 30, 40, 45, 50]);
  });

  it.each([
    ['DEBUG', 10],
    ['info', 20],
    ['Warning', 30],
    ['ERROR', 40],
    ['ALERT', 45],
    ['critical', 50],
    ['NONE', Number.POSITIVE_INFINITY],
    ['loud', undefined],
  ])('minimum level %j → rank %s', (name, rank) => {
    expect(parseMinLevel(name)).toBe(rank);
  });

  it.each([
    ['trace', 'debug'],
    ['DEBUG', 'debug'],
    ['info', 'info'],
    ['Information', 'info'],
    ['notice', 'info'],
    ['warn', 'warning'],
    ['WARNING', 'warning'],
    ['error', 'error'],
    ['err', 'error'],
    ['critical', 'critical'],
    ['crit', 'critical'],
    ['fatal', 'critical'],
    ['FATAL', 'critical'],
    ['alert', 'alert'],
    ['emergency', 'critical'],
    ['  Error  ', 'error'],
    ['verbose', 'info'],
    ['', 'info'],
  ])('severityText %j (no number) → %s', (severityText, level) => {
    expect(levelOf(undefined, severityText)).toBe(level);
  });

  it.each([0, 25, -1, 100, Number.NaN])(
    'out-of-range severityNumber %d falls back to the text',
    (n) => {
      expect(levelOf(n, 'WARN')).toBe('warning');
      expect(levelOf(n, undefined)).toBe('info');
    },
  );

  it('no number and no text → info', () => {
    expect(levelOf(undefined, undefined)).toBe('info');
  });
});
