import { describe, expect, it } from 'vitest';
import {
  isResourceKey,
  isUsername,
  isUuid,
  normalizeUuid,
  RESOURCE_KEY_PATTERN,
  USERNAME_PATTERN,
} from '../../src/contract/identifiers.js';
import { INGEST_ENVELOPE_FIELDS, INGEST_RECORD_FIELDS } from '../../src/contract/ingest-body.js';
import {
  isSeverityNumber,
  LEVEL_ALIASES,
  LEVEL_RANKS,
  LEVELS,
  levelOfSeverityNumber,
} from '../../src/contract/levels.js';
import { RFC3339_TIMESTAMP } from '../../src/contract/timestamps.js';
import { createLogSerializer } from '../../src/exporter/log-serializer.js';
import { parseMinLevel as exporterMinLevel, levelOf } from '../../src/exporter/severity.js';
import { createTimestampFormatter } from '../../src/exporter/timestamp.js';
import { parseLevel, readLevel } from '../../src/receiver/ingest/levels.js';
import { validateRecord } from '../../src/receiver/ingest/record-validator.js';
import { parseTimestamp } from '../../src/receiver/ingest/timestamps.js';
import { logRecord } from '../helpers/records.js';

const UUID = '6f1d2c3b-8a4e-4f5a-9b6c-7d8e9f0a1b2c';
const RECEIVED = 1_700_000_000_000_000_000n;
const LIMITS = { maxMessageBytes: 10_000, maxAttributesBytes: 10_000 };

/** What the receiver stores for one record the exporter serialized. */
function receive(json: string) {
  const verdict = validateRecord(JSON.parse(json), 0, RECEIVED, LIMITS);
  if (!('log' in verdict)) throw new Error(`rejected: ${JSON.stringify(verdict.error)}`);
  return verdict.log;
}

describe('levels (docs/protocol.md, "Levels")', () => {
  it('maps each OpenTelemetry severity range onto one level', () => {
    const ranges: [number, number, string][] = [
      [1, 8, 'debug'],
      [9, 12, 'info'],
      [13, 16, 'warning'],
      [17, 20, 'error'],
      [21, 24, 'critical'],
    ];
    for (const [from, to, level] of ranges) {
      for (let n = from; n <= to; n++) expect(levelOfSeverityNumber(n), `${n}`).toBe(level);
    }
  });

  it('gives no level for what is not a severity number', () => {
    for (const value of [0, 25, -1, 1.5, Number.NaN, undefined, null, '17']) {
      expect(isSeverityNumber(value), String(value)).toBe(false);
      expect(levelOfSeverityNumber(value), String(value)).toBeUndefined();
    }
  });

  it('ranks the levels in the SDKs order, alert between error and critical', () => {
    const ranks = LEVELS.map((level) => LEVEL_RANKS[level]);
    expect(ranks).toEqual([10, 20, 30, 40, 45, 50]);
    expect([...ranks].sort((a, b) => a - b)).toEqual(ranks);
  });

  it('is read the same by both sides: a serialized record keeps its level and rank', () => {
    const serializer = createLogSerializer();
    for (let n = 1; n <= 24; n++) {
      const stored = receive(serializer.record(logRecord({ severityNumber: n })));
      const level = levelOfSeverityNumber(n);
      expect(stored.level, `${n}`).toBe(level);
      expect(stored.levelRank, `${n}`).toBe(LEVEL_RANKS[level as keyof typeof LEVEL_RANKS]);
    }
    const alert = receive(
      serializer.record(logRecord({ severityNumber: 17, severityText: 'alert' })),
    );
    expect([alert.level, alert.levelRank]).toEqual(['alert', 45]);
  });

  it('takes the same aliases on both sides', () => {
    for (const [alias, level] of Object.entries(LEVEL_ALIASES)) {
      expect(levelOf(undefined, alias), alias).toBe(level);
      expect(exporterMinLevel(alias), alias).toBe(LEVEL_RANKS[level]);
      expect(parseLevel(alias.toUpperCase()), alias).toBe(level);
      expect(readLevel(alias), alias).toEqual({ name: level, rank: LEVEL_RANKS[level] });
    }
  });
});

describe('level names that are Object.prototype properties', () => {
  // Regression: the name tables were plain objects, so these read Object.prototype.
  it.each(['constructor', '__proto__', 'Constructor', ' toString '])(
    '%j is just a name',
    (name) => {
      expect(levelOf(undefined, name)).toBe('info');
      expect(exporterMinLevel(name)).toBeUndefined();
      expect(parseLevel(name)).toBeUndefined();
      expect(readLevel(name)).toEqual({ name, rank: 20 });
      const serialized = createLogSerializer().record(
        logRecord({ severityNumber: undefined, severityText: name }),
      );
      expect(JSON.parse(serialized).level).toBe('info');
    },
  );
});

describe('identifiers (docs/protocol.md, "Identifiers")', () => {
  it('accepts and rejects usernames and team names', () => {
    for (const ok of ['alice', 'a', '0ps', 'team.core_backend-2', 'a'.repeat(63)]) {
      expect(isUsername(ok), ok).toBe(true);
    }
    for (const bad of ['', 'Alice', '-alice', '.alice', '_a', 'a b', 'a/b', 'a'.repeat(64), 7]) {
      expect(isUsername(bad), String(bad)).toBe(false);
    }
  });

  it('accepts and rejects resource keys', () => {
    for (const ok of ['checkout-api', 'db.primary', 'x', 'a_b', 'a'.repeat(128)]) {
      expect(isResourceKey(ok), ok).toBe(true);
    }
    for (const bad of ['', 'Checkout', '-x', 'a b', 'ä', 'a'.repeat(129), null]) {
      expect(isResourceKey(bad), String(bad)).toBe(false);
    }
  });

  it('accepts UUIDs in either case and normalizes them to lower case', () => {
    expect(isUuid(UUID)).toBe(true);
    expect(isUuid(UUID.toUpperCase())).toBe(true);
    expect(normalizeUuid(` ${UUID.toUpperCase()} `)).toBe(UUID);
    for (const bad of ['', `${UUID}0`, UUID.replace(/-/g, ''), UUID.replace('6', 'g'), 42]) {
      expect(isUuid(bad), String(bad)).toBe(false);
      expect(normalizeUuid(bad), String(bad)).toBeUndefined();
    }
  });

  it('gives JSON schemas the same patterns the checks use', () => {
    expect(new RegExp(USERNAME_PATTERN).test('alice')).toBe(true);
    expect(new RegExp(USERNAME_PATTERN).test('a'.repeat(64))).toBe(false);
    expect(new RegExp(RESOURCE_KEY_PATTERN).test('a'.repeat(128))).toBe(true);
    expect(new RegExp(RESOURCE_KEY_PATTERN).test('a'.repeat(129))).toBe(false);
  });
});

describe('ingest body (docs/protocol.md, "Request body")', () => {
  it('the exporter sends only envelope and record fields the receiver knows', () => {
    const serializer = createLogSerializer();
    const record = serializer.record(
      logRecord({
        body: { order: 43 },
        eventName: 'payment.declined',
        spanContext: {
          traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
          spanId: '00f067aa0ba902b7',
        },
      }),
    );
    const body = JSON.parse(`${serializer.envelopePrefix(UUID, '{}')}${record}]}`);
    expect(Object.keys(body)).toEqual([...INGEST_ENVELOPE_FIELDS]);
    const fields = Object.keys(body.logs[0]);
    expect(fields.slice(0, 5)).toEqual(['level', 'message', 'logger', 'ts', 'extra']);
    for (const field of fields) expect(INGEST_RECORD_FIELDS, field).toContain(field);
    expect(receive(record).unknownFields).toEqual({});
  });
});

describe('timestamps (docs/protocol.md, "Timestamps")', () => {
  it('what the exporter writes matches the pattern and reads back to the nanosecond', () => {
    const format = createTimestampFormatter();
    for (const nanos of [0, 7, 1_000, 123_000_000, 123_456_000, 123_456_789, 999_999_999]) {
      const seconds = 1_795_234_527;
      const text = format([seconds, nanos]);
      expect(text, text).toMatch(RFC3339_TIMESTAMP);
      expect(parseTimestamp(text), text).toBe(BigInt(seconds) * 1_000_000_000n + BigInt(nanos));
    }
  });
});
