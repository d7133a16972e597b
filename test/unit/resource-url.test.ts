import { describe, expect, it } from 'vitest';
import { parseResourceUrl } from '../../src/config/resource-url.js';
import { InvalidOptionError } from '../../src/errors.js';
import { parseResourceUrl as publicParseResourceUrl } from '../../src/index.js';

const UUID = '3f1c2b4a-9d8e-4f7a-8b6c-5d4e3f2a1b0c';

describe('parseResourceUrl', () => {
  it('is part of the public API', () => {
    expect(publicParseResourceUrl).toBe(parseResourceUrl);
  });

  it.each([
    [`https://logs.example.com/u/alice/resources/${UUID}/`, 'https://logs.example.com'],
    [`https://logs.example.com/u/alice/resources/${UUID}`, 'https://logs.example.com'],
    [`https://logs.example.com/u/alice/resources/${UUID}/logs/`, 'https://logs.example.com'],
    [`https://logs.example.com/u/alice/resources/${UUID}/logs`, 'https://logs.example.com'],
    [`http://127.0.0.1:8765/u/alice/resources/${UUID}/`, 'http://127.0.0.1:8765'],
    [`https://example.com/logging/v2/u/alice/resources/${UUID}/`, 'https://example.com/logging/v2'],
    [`https://example.com/u/alice/resources/${UUID}/?utm=x#top`, 'https://example.com'],
    // A prefix may itself contain a "u" segment.
    [`https://example.com/u/x/u/alice/resources/${UUID}/`, 'https://example.com/u/x'],
  ])('%s → base %s, owner alice', (url, baseUrl) => {
    expect(parseResourceUrl(url)).toEqual({ baseUrl, username: 'alice', uuid: UUID });
  });

  it('normalises an upper-case UUID to lower case', () => {
    expect(
      parseResourceUrl(`https://h.example/u/alice/resources/${UUID.toUpperCase()}/`).uuid,
    ).toBe(UUID);
  });

  it('keeps usernames with dots, dashes and underscores', () => {
    expect(parseResourceUrl(`https://h.example/u/a.b-c_d/resources/${UUID}/`).username).toBe(
      'a.b-c_d',
    );
  });

  it.each([
    'not a url',
    '',
    `ftp://h.example/u/alice/resources/${UUID}/`,
    `https://h.example/resources/${UUID}/`,
    `https://h.example/u/alice/${UUID}/`,
    `https://h.example/x/alice/resources/${UUID}/`,
    'https://h.example/u/alice/resources/not-a-uuid/',
    `https://h.example/u/alice/resources/${UUID}/extra/`,
    `https://h.example/u/alice/resources/${UUID}/v1/logs`,
    `https://h.example/u/Alice/resources/${UUID}/`,
    `https://h.example/u/al%20ice/resources/${UUID}/`,
    'https://h.example/u/alice/resources/',
    UUID,
  ])('rejects %j', (url) => {
    expect(() => parseResourceUrl(url)).toThrow(InvalidOptionError);
  });

  it('names the option it was given in the error', () => {
    try {
      parseResourceUrl('https://h.example/', 'RESLOG_RESOURCE');
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ option: 'RESLOG_RESOURCE' });
      expect((error as Error).message).toContain('RESLOG_RESOURCE must be a resource URL');
    }
  });
});

describe('parseResourceUrl with a team owner', () => {
  it.each([
    [`https://logs.example.com/team/devops/resources/${UUID}/`, 'https://logs.example.com'],
    [
      `https://host.example/DevTools/team/devops/resources/${UUID}/logs/`,
      'https://host.example/DevTools',
    ],
  ])('%s → base %s, team devops', (url, baseUrl) => {
    expect(parseResourceUrl(url)).toEqual({ baseUrl, team: 'devops', uuid: UUID });
  });

  it.each([
    `https://h.example/teams/devops/resources/${UUID}/`,
    `https://h.example/team/Dev Ops/resources/${UUID}/`,
    `https://h.example/team/resources/${UUID}/`,
  ])('refuses %s', (url) => {
    expect(() => parseResourceUrl(url)).toThrow(InvalidOptionError);
  });
});
