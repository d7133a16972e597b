import { diag } from '@opentelemetry/api';
import { beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { DEFAULTS, normalizeConfig } from '../../src/config/normalize-config.js';
import type { ResourceLogExporterOptions } from '../../src/config/options.js';
import { ErrorCodes, InvalidOptionError } from '../../src/errors.js';

const SECRET = 'rlk_7_s3cr3t-never-shown-0123456789abcdef';
const UUID = '3f1c2b4a-9d8e-4f7a-8b6c-5d4e3f2a1b0c';
const OTHER_UUID = '11111111-1111-4111-8111-111111111111';
const ENV_NAMES = [
  'RESLOG_BASE_URL',
  'RESLOG_API_KEY',
  'RESLOG_USERNAME',
  'RESLOG_RESOURCE',
  'RESLOG_COMPRESSION',
  'RESLOG_USER',
  'RESLOG_MIN_LEVEL',
  'ALSHIVAL_RESOURCE',
  'ALSHIVAL_RESOURCE_URL',
  'ALSHIVAL_API_KEY',
  'ALSHIVAL_USERNAME',
  'ALSHIVAL_CLOUD_LEVEL',
] as const;

let warn: MockInstance<typeof diag.warn>;

beforeEach(() => {
  // Start from an empty environment whatever the machine has set (empty counts as unset).
  for (const name of ENV_NAMES) vi.stubEnv(name, '');
  warn = vi.spyOn(diag, 'warn');
});

/** Every diag.warn call, as one string, to search for leaks. */
function warnings(): string {
  return warn.mock.calls.map((args) => args.map(String).join(' ')).join('\n');
}

function thrown(fn: () => unknown): InvalidOptionError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidOptionError);
    return error as InvalidOptionError;
  }
  throw new Error('expected InvalidOptionError, nothing was thrown');
}

const VALID: ResourceLogExporterOptions = { baseUrl: 'https://logs.example.com', apiKey: SECRET };

describe('defaults', () => {
  it('fills every option not given', () => {
    const config = normalizeConfig(VALID);
    expect(config).toMatchObject({
      baseUrl: 'https://logs.example.com',
      apiKey: SECRET,
      owner: undefined,
      defaultResource: undefined,
      routes: [],
      unmapped: 'drop',
      compression: 'auto',
      user: undefined,
      minLevelRank: 0,
      timeoutMillis: 10_000,
      exportTimeoutMillis: 25_000,
      maxBatchBytes: 1_048_576,
      maxConcurrency: 8,
      headers: {},
      onDrop: undefined,
    });
    expect(config.resourceKeys.size).toBe(0);
    expect(DEFAULTS.exportTimeoutMillis).toBeLessThan(30_000);
    expect(warn).not.toHaveBeenCalled();
  });

  it('drops trailing slashes from the base URL and keeps a path prefix', () => {
    expect(normalizeConfig({ ...VALID, baseUrl: 'https://h.example/logs/api//' }).baseUrl).toBe(
      'https://h.example/logs/api',
    );
    expect(normalizeConfig({ ...VALID, baseUrl: 'http://127.0.0.1:8765/' }).baseUrl).toBe(
      'http://127.0.0.1:8765',
    );
  });
});

describe('environment variables', () => {
  it('reads every RESLOG_* variable when no code option is given', () => {
    vi.stubEnv('RESLOG_BASE_URL', 'https://env.example.com/prefix/');
    vi.stubEnv('RESLOG_API_KEY', SECRET);
    vi.stubEnv('RESLOG_USERNAME', 'alice');
    vi.stubEnv('RESLOG_RESOURCE', UUID.toUpperCase());
    vi.stubEnv('RESLOG_COMPRESSION', 'none');

    const config = normalizeConfig();
    expect(config).toMatchObject({
      baseUrl: 'https://env.example.com/prefix',
      apiKey: SECRET,
      owner: { kind: 'user', name: 'alice' },
      defaultResource: { uuid: UUID },
      compression: 'none',
    });
    expect(warn).not.toHaveBeenCalled();
  });

  it('reads RESLOG_RESOURCE as a resource URL giving base URL, owner and UUID', () => {
    vi.stubEnv('RESLOG_API_KEY', SECRET);
    vi.stubEnv('RESLOG_RESOURCE', `https://logs.example.com/ingest/u/dora/resources/${UUID}/`);

    expect(normalizeConfig()).toMatchObject({
      baseUrl: 'https://logs.example.com/ingest',
      owner: { kind: 'user', name: 'dora' },
      defaultResource: { uuid: UUID, owner: { kind: 'user', name: 'dora' } },
    });
  });

  it('RESLOG_BASE_URL and RESLOG_USERNAME outrank the parts of a RESLOG_RESOURCE URL', () => {
    vi.stubEnv('RESLOG_API_KEY', SECRET);
    vi.stubEnv('RESLOG_BASE_URL', 'https://proxy.example.com');
    vi.stubEnv('RESLOG_USERNAME', 'alice');
    vi.stubEnv('RESLOG_RESOURCE', `https://logs.example.com/u/dora/resources/${UUID}/`);

    expect(normalizeConfig()).toMatchObject({
      baseUrl: 'https://proxy.example.com',
      owner: { kind: 'user', name: 'alice' },
      // The URL still names the owner of that resource.
      defaultResource: { uuid: UUID, owner: { kind: 'user', name: 'dora' } },
    });
  });

  it('ignores whitespace around env values and treats empty ones as unset', () => {
    vi.stubEnv('RESLOG_BASE_URL', '  https://env.example.com  ');
    vi.stubEnv('RESLOG_API_KEY', ` ${SECRET}\n`);
    vi.stubEnv('RESLOG_COMPRESSION', '   ');
    expect(normalizeConfig()).toMatchObject({
      baseUrl: 'https://env.example.com',
      apiKey: SECRET,
      compression: 'auto',
    });
    expect(warn).not.toHaveBeenCalled();
  });
});

describe('code options beat the environment', () => {
  beforeEach(() => {
    vi.stubEnv('RESLOG_BASE_URL', 'https://env.example.com');
    vi.stubEnv('RESLOG_API_KEY', 'rlk_1_env-key');
    vi.stubEnv('RESLOG_USERNAME', 'envuser');
    vi.stubEnv('RESLOG_RESOURCE', OTHER_UUID);
    vi.stubEnv('RESLOG_COMPRESSION', 'none');
  });

  it('for every option with an env fallback', () => {
    expect(
      normalizeConfig({
        baseUrl: 'https://code.example.com',
        apiKey: SECRET,
        username: 'alice',
        resource: UUID,
        compression: 'gzip',
      }),
    ).toMatchObject({
      baseUrl: 'https://code.example.com',
      apiKey: SECRET,
      owner: { kind: 'user', name: 'alice' },
      defaultResource: { uuid: UUID },
      compression: 'gzip',
    });
  });

  it('a resource URL in code beats RESLOG_BASE_URL and RESLOG_USERNAME', () => {
    expect(
      normalizeConfig({ resource: `https://code.example.com/p/u/dora/resources/${UUID}/logs/` }),
    ).toMatchObject({
      baseUrl: 'https://code.example.com/p',
      owner: { kind: 'user', name: 'dora' },
      apiKey: 'rlk_1_env-key',
      defaultResource: { uuid: UUID, owner: { kind: 'user', name: 'dora' } },
    });
  });

  it('a baseUrl in code beats the host of a resource URL in code', () => {
    expect(
      normalizeConfig({
        baseUrl: 'https://proxy.example.com',
        resource: `https://code.example.com/u/dora/resources/${UUID}/`,
      }).baseUrl,
    ).toBe('https://proxy.example.com');
  });

  it('a plain UUID in code leaves base URL and username to the environment', () => {
    expect(normalizeConfig({ resource: UUID })).toMatchObject({
      baseUrl: 'https://env.example.com',
      owner: { kind: 'user', name: 'envuser' },
      defaultResource: { uuid: UUID, owner: undefined },
    });
  });

  it('an invalid env value is not even read when the code option is set', () => {
    vi.stubEnv('RESLOG_RESOURCE', 'garbage');
    vi.stubEnv('RESLOG_COMPRESSION', 'brotli');
    normalizeConfig({ resource: UUID, compression: 'none' });
    expect(warn).not.toHaveBeenCalled();
  });
});

describe('bad environment values warn and fall back', () => {
  beforeEach(() => {
    vi.stubEnv('RESLOG_API_KEY', SECRET);
  });

  it('RESLOG_COMPRESSION', () => {
    vi.stubEnv('RESLOG_COMPRESSION', 'brotli');
    expect(normalizeConfig({ baseUrl: 'https://h.example' }).compression).toBe('auto');
    expect(warnings()).toContain('RESLOG_COMPRESSION');
    expect(warnings()).toContain('brotli');
  });

  it('RESLOG_USERNAME', () => {
    vi.stubEnv('RESLOG_USERNAME', 'Not A User');
    expect(normalizeConfig({ baseUrl: 'https://h.example' }).owner).toBeUndefined();
    expect(warnings()).toContain('RESLOG_USERNAME');
  });

  it('RESLOG_RESOURCE', () => {
    vi.stubEnv('RESLOG_RESOURCE', 'https://h.example/not/a/resource');
    expect(normalizeConfig({ baseUrl: 'https://h.example' }).defaultResource).toBeUndefined();
    expect(warnings()).toContain('RESLOG_RESOURCE');
  });

  it('RESLOG_BASE_URL falls back to the base of RESLOG_RESOURCE', () => {
    vi.stubEnv('RESLOG_BASE_URL', 'ftp://files.example.com');
    vi.stubEnv('RESLOG_RESOURCE', `https://logs.example.com/u/dora/resources/${UUID}`);
    expect(normalizeConfig().baseUrl).toBe('https://logs.example.com');
    expect(warnings()).toContain('RESLOG_BASE_URL');
  });

  it('RESLOG_BASE_URL with nothing to fall back to throws naming baseUrl', () => {
    vi.stubEnv('RESLOG_BASE_URL', 'not a url');
    expect(thrown(() => normalizeConfig()).option).toBe('baseUrl');
    expect(warnings()).toContain('RESLOG_BASE_URL');
  });

  it('never with the API key in the warning, even when it was pasted into the wrong variable', () => {
    vi.stubEnv('RESLOG_BASE_URL', `https://${SECRET}@`);
    vi.stubEnv('RESLOG_USERNAME', `${SECRET}!`);
    vi.stubEnv('RESLOG_RESOURCE', `https://h.example/u/alice/resources/${SECRET}/`);
    vi.stubEnv('RESLOG_COMPRESSION', SECRET);
    const error = thrown(() => normalizeConfig());
    expect(error.option).toBe('baseUrl');
    expect(error.message).not.toContain(SECRET);
    expect(warn).toHaveBeenCalledTimes(2); // resource and base URL; the rest is not reached

    expect(() => normalizeConfig({ baseUrl: 'https://h.example' })).not.toThrow();
    expect(warnings()).toContain('<redacted>');
    expect(warnings()).toContain('RESLOG_USERNAME');
    expect(warnings()).toContain('RESLOG_COMPRESSION');
    expect(warnings()).not.toContain(SECRET);
  });

  it('never with the API key given in code either', () => {
    vi.stubEnv('RESLOG_API_KEY', '');
    vi.stubEnv('RESLOG_COMPRESSION', `gzip-${SECRET}`);
    normalizeConfig({ ...VALID });
    expect(warnings()).toContain('RESLOG_COMPRESSION');
    expect(warnings()).not.toContain(SECRET);
  });
});

describe('invalid code options throw InvalidOptionError naming the option', () => {
  it.each<[string, ResourceLogExporterOptions, string]>([
    ['routes that is not an array', { routes: { match: {} } as never }, 'routes'],
    ['route that is not an object', { routes: ['checkout'] as never }, 'routes[0]'],
    ['route without match', { routes: [{ resource: UUID } as never] }, 'routes[0].match'],
    ['route with empty match', { routes: [{ match: {}, resource: UUID }] }, 'routes[0].match'],
    [
      'route with a bad matcher',
      { routes: [{ match: { 'service.name': 42 as never }, resource: UUID }] },
      'routes[0].match.service.name',
    ],
    [
      'route with both resource and key',
      { routes: [{ match: { a: 'b' }, resource: UUID, key: 'checkout' }] },
      'routes[0]',
    ],
    ['route with neither resource nor key', { routes: [{ match: { a: 'b' } }] }, 'routes[0]'],
    [
      'route with a bad uuid (second rule)',
      {
        routes: [
          { match: { a: 'b' }, resource: UUID },
          { match: { a: 'c' }, resource: 'not-a-uuid' },
        ],
      },
      'routes[1].resource',
    ],
    ['route with a bad key', { routes: [{ match: { a: 'b' }, key: 'Bad Key' }] }, 'routes[0].key'],
    [
      'route with a bad username',
      { routes: [{ match: { a: 'b' }, resource: UUID, username: 'Bad User' }] },
      'routes[0].username',
    ],
    ['resource that is neither UUID nor URL', { resource: 'checkout' }, 'resource'],
    ['resource URL that is not a resource URL', { resource: 'https://h.example/u/x/' }, 'resource'],
    ['resource that is not a string', { resource: 42 as never }, 'resource'],
    ['bad username', { username: 'Alice!' }, 'username'],
    ['resourceKeys that is not an object', { resourceKeys: 'x' as never }, 'resourceKeys'],
    ['resourceKeys with a bad key', { resourceKeys: { 'Bad Key': UUID } }, 'resourceKeys'],
    ['resourceKeys with a bad uuid', { resourceKeys: { checkout: 'x' } }, 'resourceKeys.checkout'],
    ['non-integer timeoutMillis', { timeoutMillis: 1.5 }, 'timeoutMillis'],
    ['zero timeoutMillis', { timeoutMillis: 0 }, 'timeoutMillis'],
    ['string exportTimeoutMillis', { exportTimeoutMillis: '100' as never }, 'exportTimeoutMillis'],
    ['tiny maxBatchBytes', { maxBatchBytes: 100 }, 'maxBatchBytes'],
    ['negative maxConcurrency', { maxConcurrency: -1 }, 'maxConcurrency'],
    ['reserved header X-API-Key', { headers: { 'X-API-Key': 'other' } }, 'headers.X-API-Key'],
    [
      'reserved header idempotency-key',
      { headers: { 'idempotency-key': 'x' } },
      'headers.idempotency-key',
    ],
    ['reserved header Content-Type', { headers: { 'Content-Type': 'x' } }, 'headers.Content-Type'],
    ['non-string header value', { headers: { 'x-team': 1 as never } }, 'headers.x-team'],
    ['unknown compression', { compression: 'brotli' as never }, 'compression'],
    ['unknown unmapped policy', { unmapped: 'ignore' as never }, 'unmapped'],
    ['onDrop that is not a function', { onDrop: 'log' as never }, 'onDrop'],
    ['baseUrl that is not http(s)', { baseUrl: 'ftp://h.example' }, 'baseUrl'],
    ['baseUrl with a query', { baseUrl: 'https://h.example/?a=1' }, 'baseUrl'],
    [
      'baseUrl with the key as credentials',
      { baseUrl: `https://u:${SECRET}@h.example` },
      'baseUrl',
    ],
    [
      'baseUrl with the key in the query',
      { baseUrl: `https://h.example/?key=${SECRET}` },
      'baseUrl',
    ],
  ])('%s', (_, options, option) => {
    const error = thrown(() => normalizeConfig({ ...VALID, ...options }));
    expect(error.option).toBe(option);
    expect(error.code).toBe(ErrorCodes.INVALID_OPTION);
    expect(error.message.startsWith(`${option} must be`)).toBe(true);
    expect(error.message).not.toContain(SECRET);
  });

  it('missing apiKey (neither code nor env)', () => {
    const error = thrown(() => normalizeConfig({ baseUrl: 'https://h.example' }));
    expect(error.option).toBe('apiKey');
    expect(error.message).toContain('RESLOG_API_KEY');
  });

  it('empty apiKey', () => {
    expect(thrown(() => normalizeConfig({ ...VALID, apiKey: '' })).option).toBe('apiKey');
  });

  it('missing baseUrl (neither code, env nor resource URL)', () => {
    const error = thrown(() => normalizeConfig({ apiKey: SECRET, resource: UUID }));
    expect(error.option).toBe('baseUrl');
    expect(error.message).toContain('RESLOG_BASE_URL');
    expect(error.message).not.toContain(SECRET);
  });

  it('the message shows the value that was wrong', () => {
    expect(thrown(() => normalizeConfig({ ...VALID, timeoutMillis: 1.5 })).message).toBe(
      'timeoutMillis must be an integer >= 1, got 1.5',
    );
  });

  it('a code option that is wrong throws even when a valid env value exists', () => {
    vi.stubEnv('RESLOG_COMPRESSION', 'none');
    vi.stubEnv('RESLOG_USERNAME', 'alice');
    expect(thrown(() => normalizeConfig({ ...VALID, compression: 'zstd' as never })).option).toBe(
      'compression',
    );
    expect(thrown(() => normalizeConfig({ ...VALID, username: 'A B' })).option).toBe('username');
  });
});

describe('valid complex options', () => {
  it('normalises routes, resourceKeys and headers', () => {
    const config = normalizeConfig({
      ...VALID,
      routes: [{ match: { 'service.name': /^w/ }, key: 'worker', username: 'bob' }],
      resourceKeys: { checkout: UUID.toUpperCase() },
      headers: { 'X-Team': 'payments' },
    });
    expect(config.routes).toMatchObject([
      { key: 'worker', uuid: undefined, owner: { kind: 'user', name: 'bob' } },
    ]);
    expect(config.resourceKeys.get('checkout')).toBe(UUID);
    expect(config.headers).toEqual({ 'x-team': 'payments' });
  });
});

describe('owners, acting user and minimum level', () => {
  it('takes a team owner from a team resource URL', () => {
    expect(
      normalizeConfig({
        apiKey: SECRET,
        resource: `https://h.example/team/devops/resources/${UUID}/`,
      }),
    ).toMatchObject({
      baseUrl: 'https://h.example',
      owner: { kind: 'team', name: 'devops' },
      defaultResource: { uuid: UUID, owner: { kind: 'team', name: 'devops' } },
    });
  });

  it('a rule names a username or a team, not both', () => {
    expect(
      normalizeConfig({
        ...VALID,
        routes: [{ match: { a: 'b' }, resource: UUID, team: 'devops' }],
      }).routes[0]?.owner,
    ).toEqual({ kind: 'team', name: 'devops' });
    expect(
      thrown(() =>
        normalizeConfig({
          ...VALID,
          routes: [{ match: { a: 'b' }, resource: UUID, team: 'devops', username: 'alice' }],
        }),
      ).option,
    ).toBe('routes[0]');
    expect(
      thrown(() =>
        normalizeConfig({
          ...VALID,
          routes: [{ match: { a: 'b' }, resource: UUID, team: 'Dev Ops' }],
        }),
      ).option,
    ).toBe('routes[0].team');
  });

  it('accepts an acting user in any case and refuses one that is not a username', () => {
    expect(normalizeConfig({ ...VALID, user: 'Bob' }).user).toBe('Bob');
    expect(thrown(() => normalizeConfig({ ...VALID, user: 'bob smith' })).option).toBe('user');
  });

  it('turns minLevel into a rank, none into nothing at all', () => {
    expect(normalizeConfig({ ...VALID, minLevel: 'alert' }).minLevelRank).toBe(45);
    expect(normalizeConfig({ ...VALID, minLevel: 'none' }).minLevelRank).toBe(
      Number.POSITIVE_INFINITY,
    );
    expect(thrown(() => normalizeConfig({ ...VALID, minLevel: 'loud' as 'info' })).option).toBe(
      'minLevel',
    );
  });

  it('a bad ALSHIVAL_CLOUD_LEVEL warns and sends everything', () => {
    vi.stubEnv('ALSHIVAL_CLOUD_LEVEL', 'LOUD');
    expect(normalizeConfig(VALID).minLevelRank).toBe(0);
    expect(warnings()).toContain('ALSHIVAL_CLOUD_LEVEL');
  });

  it('ALSHIVAL_API_KEY is never shown in a warning', () => {
    vi.stubEnv('ALSHIVAL_API_KEY', SECRET);
    vi.stubEnv('ALSHIVAL_RESOURCE', `not a url ${SECRET}`);
    normalizeConfig({ baseUrl: 'https://h.example' });
    expect(warnings()).toContain('ALSHIVAL_RESOURCE');
    expect(warnings()).not.toContain(SECRET);
  });
});
