import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { LEVEL_RANKS, LEVELS } from '../../src/contract/levels.js';
import { levelNameOfRank, parseMinLevel, readLevel } from '../../src/receiver/ingest/levels.js';
import { summariseLogs } from '../../src/receiver/monitor/log-alert-summary.js';
import { post, readLogs, receiver } from './fixtures.js';

describe('level names and ranks', () => {
  it('ranks the canonical levels on the service scale, alert between error and critical', () => {
    expect(LEVELS.map((level) => [level, LEVEL_RANKS[level]])).toEqual([
      ['debug', 10],
      ['info', 20],
      ['warning', 30],
      ['error', 40],
      ['alert', 45],
      ['critical', 50],
    ]);
  });

  it.each([
    ['debug', 'debug', 10],
    ['INFO', 'info', 20],
    [' Warning ', 'warning', 30],
    ['trace', 'debug', 10],
    ['warn', 'warning', 30],
    ['fatal', 'critical', 50],
    ['alert', 'alert', 45],
    ['critical', 'critical', 50],
  ])('normalises the known name %j to %s (%i)', (text, name, rank) => {
    expect(readLevel(text)).toEqual({ name, rank });
  });

  it.each([
    ['level 25', 25],
    ['Level 25', 25],
    ['level 5', 5],
    ['level 0', 0],
    ['level 1000', 1000],
    ['notset', 0],
    ['NOTSET', 0],
    ['notice', 20],
    ['success', 20],
    ['level -5', 20], // Python names a negative level "Level -5": not a rank, so info
    ['', 20],
  ])('keeps %j as sent, ranked %i', (text, rank) => {
    expect(readLevel(text)).toEqual({ name: text, rank });
  });

  it('caps a huge numbered level at the largest safe integer', () => {
    expect(readLevel(`level ${'9'.repeat(40)}`)?.rank).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('refuses names longer than 64 characters', () => {
    expect(readLevel('x'.repeat(64))).toEqual({ name: 'x'.repeat(64), rank: 20 });
    expect(readLevel('x'.repeat(65))).toBeUndefined();
  });

  it('names a rank without a stored name by its canonical level, else as Python would', () => {
    expect(levelNameOfRank(45)).toBe('alert');
    expect(levelNameOfRank(50)).toBe('critical');
    expect(levelNameOfRank(25)).toBe('level 25');
  });

  it.each([
    ['error', 40],
    ['alert', 45],
    ['fatal', 50],
    ['45', 45],
    ['level 25', 25],
    ['notset', 0],
    ['0', 0],
  ])('reads the minimum level %j of a filter as rank %i', (text, rank) => {
    expect(parseMinLevel(text)).toBe(rank);
  });

  it.each(['notice', '-1', '1.5', ''])('refuses the filter %j', (text) => {
    expect(parseMinLevel(text)).toBeUndefined();
  });
});

describe('log alert thresholds', () => {
  const log = (level: string, message: string) => {
    const parsed = readLevel(level) as { name: string; rank: number };
    return { level: parsed.name, levelRank: parsed.rank, message, tsNs: 0n };
  };

  it('counts alert at or above error and alert, but not at or above critical', () => {
    const summary = summariseLogs([
      log('warning', 'w'),
      log('alert', 'a'),
      log('error', 'e'),
      log('critical', 'c'),
      log('level 35', 'custom'),
    ]);
    expect(summary?.atOrAbove('warning')).toMatchObject({ count: 5, first: { message: 'w' } });
    expect(summary?.atOrAbove('error')).toMatchObject({ count: 3, first: { message: 'a' } });
    expect(summary?.atOrAbove('alert')).toMatchObject({ count: 2, first: { message: 'a' } });
    expect(summary?.atOrAbove('critical')).toMatchObject({ count: 1, first: { message: 'c' } });
  });

  it('has nothing to say about a batch below warning', () => {
    expect(summariseLogs([log('info', 'i'), log('notice', 'n'), log('level 25', 'l')])).toBe(
      undefined,
    );
  });
});

describe('levels through the API', () => {
  let app: FastifyInstance;
  afterEach(() => app?.close());

  it('stores every level name, reads custom names back as sent, filters by rank', async () => {
    app = receiver();
    const levels = ['debug', 'notset', 'level 25', 'notice', 'warn', 'error', 'alert', 'FATAL'];
    const response = await post(app, {
      logs: levels.map((level, i) => ({
        level,
        message: level,
        ts: `2026-11-22T13:54:18.00${i}Z`,
      })),
    });
    expect(response.json()).toMatchObject({ accepted: levels.length, rejected: 0 });
    const read = async (query: string) =>
      (await readLogs(app, `?order=asc${query}`))
        .json()
        .logs.map((l: { message: string; level: string }) => `${l.message}:${l.level}`);
    expect(await read('')).toEqual([
      'debug:debug',
      'notset:notset',
      'level 25:level 25',
      'notice:notice',
      'warn:warning',
      'error:error',
      'alert:alert',
      'FATAL:critical',
    ]);
    expect(await read('&level=error')).toEqual(['error:error', 'alert:alert', 'FATAL:critical']);
    expect(await read('&level=alert')).toEqual(['alert:alert', 'FATAL:critical']);
    expect(await read('&level=critical')).toEqual(['FATAL:critical']);
    expect(await read('&level=level%2025')).toEqual([
      'level 25:level 25',
      'warn:warning',
      'error:error',
      'alert:alert',
      'FATAL:critical',
    ]);
    expect(await read('&level=21')).toEqual(await read('&level=level%2025'));
    expect((await readLogs(app, '?level=notice')).statusCode).toBe(400);
  });
});
