import { describe, expect, it, vi } from 'vitest';
import { normalizeConfig } from '../../src/config/normalize-config.js';
import type { ResourceLogExporterOptions } from '../../src/config/options.js';
import { ROUTING_ATTRIBUTES } from '../../src/contract/routing-attributes.js';
import { createResourceRouter } from '../../src/exporter/resource-router.js';

const BASE = { baseUrl: 'https://logs.example.com', apiKey: 'rlk_1_secret' };
const UUID_A = '11111111-1111-4111-8111-111111111111';
const UUID_B = '22222222-2222-4222-8222-222222222222';
const UUID_C = '33333333-3333-4333-8333-333333333333';
const UUID_DEFAULT = 'dddddddd-dddd-4ddd-8ddd-dddddddddddd';

const { uuid: UUID_ATTR, key: KEY_ATTR, username: USER_ATTR } = ROUTING_ATTRIBUTES;

/** A router over options normalised without any environment. */
function routerFor(options: ResourceLogExporterOptions = {}) {
  return createResourceRouter(normalizeConfig({ ...BASE, ...options }, {}));
}

describe('routing attributes', () => {
  const router = routerFor({ username: 'alice' });

  it('sends a record with reslog.resource.uuid to that resource', () => {
    expect(router.route({}, { [UUID_ATTR]: UUID_A })).toEqual({
      kind: 'uuid',
      owner: { kind: 'user', name: 'alice' },
      uuid: UUID_A,
    });
  });

  it('sends a resource with reslog.resource.uuid to that resource', () => {
    expect(router.route({ [UUID_ATTR]: UUID_A })).toEqual({
      kind: 'uuid',
      owner: { kind: 'user', name: 'alice' },
      uuid: UUID_A,
    });
  });

  it('accepts an upper-case UUID attribute and sends it lower-case', () => {
    expect(router.route({ [UUID_ATTR]: UUID_A.toUpperCase() })).toMatchObject({ uuid: UUID_A });
  });

  it('resolves reslog.resource.key on the record through a key lookup', () => {
    expect(router.route({}, { [KEY_ATTR]: 'checkout-api' })).toEqual({
      kind: 'key',
      owner: { kind: 'user', name: 'alice' },
      key: 'checkout-api',
    });
  });

  it('resolves reslog.resource.key on the resource through a key lookup', () => {
    expect(router.route({ [KEY_ATTR]: 'billing.worker_1' })).toEqual({
      kind: 'key',
      owner: { kind: 'user', name: 'alice' },
      key: 'billing.worker_1',
    });
  });

  it('takes the owner from reslog.username on the record, then on the resource', () => {
    expect(router.route({ [UUID_ATTR]: UUID_A, [USER_ATTR]: 'bob' })).toMatchObject({
      owner: { kind: 'user', name: 'bob' },
    });
    expect(
      router.route({ [UUID_ATTR]: UUID_A, [USER_ATTR]: 'bob' }, { [USER_ATTR]: 'carol' }),
    ).toMatchObject({ owner: { kind: 'user', name: 'carol' } });
  });

  it('lets reslog.username alone change the owner of the default target', () => {
    const withDefault = routerFor({ username: 'alice', resource: UUID_DEFAULT });
    expect(withDefault.route({}, { [USER_ATTR]: 'bob' })).toEqual({
      kind: 'uuid',
      owner: { kind: 'user', name: 'bob' },
      uuid: UUID_DEFAULT,
    });
  });

  describe('a malformed routing attribute makes the record unmapped, never a fallback', () => {
    const withFallbacks = routerFor({
      username: 'alice',
      resource: UUID_DEFAULT,
      routes: [{ match: { 'service.name': 'checkout' }, resource: UUID_C }],
    });
    const resource = { 'service.name': 'checkout' };

    it.each([
      ['uuid that is not a UUID', { [UUID_ATTR]: 'not-a-uuid' }],
      ['uuid that is a number', { [UUID_ATTR]: 42 }],
      ['key that is not a slug', { [KEY_ATTR]: 'Checkout API' }],
      ['key that is empty', { [KEY_ATTR]: '' }],
      ['username that is not a username', { [USER_ATTR]: 'Alice Smith' }],
      ['username that is an array', { [USER_ATTR]: ['alice'] }],
    ])('on the record: %s', (_, attributes) => {
      expect(withFallbacks.route(resource, attributes)).toMatchObject({ kind: 'unmapped' });
    });

    it.each([
      ['uuid', { [UUID_ATTR]: 'nope' }],
      ['key', { [KEY_ATTR]: '-leading-dash' }],
      ['username', { [USER_ATTR]: '' }],
    ])('on the resource: %s', (_, attributes) => {
      expect(withFallbacks.route({ ...resource, ...attributes })).toMatchObject({
        kind: 'unmapped',
      });
    });

    it('a malformed record attribute is not rescued by a valid resource attribute', () => {
      expect(
        withFallbacks.route({ ...resource, [UUID_ATTR]: UUID_A }, { [UUID_ATTR]: 'broken' }),
      ).toMatchObject({ kind: 'unmapped' });
    });
  });
});

describe('routes', () => {
  it('matches a string exactly', () => {
    const router = routerFor({
      username: 'alice',
      routes: [{ match: { 'service.name': 'checkout' }, resource: UUID_A }],
    });
    expect(router.route({ 'service.name': 'checkout' })).toMatchObject({ uuid: UUID_A });
    expect(router.route({ 'service.name': 'checkout-v2' })).toMatchObject({ kind: 'unmapped' });
    expect(router.route({})).toMatchObject({ kind: 'unmapped' });
  });

  it('matches a RegExp against string values only', () => {
    const router = routerFor({
      username: 'alice',
      routes: [{ match: { 'service.name': /^worker-/ }, resource: UUID_A }],
    });
    expect(router.route({ 'service.name': 'worker-7' })).toMatchObject({ uuid: UUID_A });
    expect(router.route({ 'service.name': 'api' })).toMatchObject({ kind: 'unmapped' });
    expect(router.route({ 'service.name': ['worker-7'] })).toMatchObject({ kind: 'unmapped' });
  });

  it('matches a global RegExp every time, not every other time', () => {
    const pattern = /^worker-/g;
    const router = routerFor({
      username: 'alice',
      routes: [{ match: { 'service.name': pattern }, resource: UUID_A }],
    });
    for (let i = 0; i < 5; i++) {
      expect(router.route({ 'service.name': `worker-${i}` })).toMatchObject({ uuid: UUID_A });
    }
    expect(pattern.lastIndex).toBe(0);
  });

  it('calls a function matcher with the attribute value', () => {
    const match = vi.fn((value: unknown) => value === 3);
    const router = routerFor({
      username: 'alice',
      routes: [{ match: { 'service.instance': match }, resource: UUID_A }],
    });
    expect(router.route({ 'service.instance': 3 })).toMatchObject({ uuid: UUID_A });
    expect(router.route({})).toMatchObject({ kind: 'unmapped' });
    expect(match.mock.calls).toEqual([[3], [undefined]]);
  });

  it('treats a function matcher that throws or returns a truthy non-boolean as no match', () => {
    const router = routerFor({
      username: 'alice',
      resource: UUID_DEFAULT,
      routes: [
        {
          match: {
            'service.name': () => {
              throw new Error('boom');
            },
          },
          resource: UUID_A,
        },
        { match: { 'service.name': (() => 'yes') as never }, resource: UUID_B },
      ],
    });
    expect(router.route({ 'service.name': 'x' })).toMatchObject({ uuid: UUID_DEFAULT });
  });

  it('requires every match entry to hold', () => {
    const router = routerFor({
      username: 'alice',
      routes: [
        {
          match: { 'service.name': 'checkout', 'deployment.environment': /^prod/ },
          resource: UUID_A,
        },
      ],
    });
    expect(
      router.route({ 'service.name': 'checkout', 'deployment.environment': 'production' }),
    ).toMatchObject({ uuid: UUID_A });
    expect(
      router.route({ 'service.name': 'checkout', 'deployment.environment': 'staging' }),
    ).toMatchObject({ kind: 'unmapped' });
    expect(router.route({ 'deployment.environment': 'production' })).toMatchObject({
      kind: 'unmapped',
    });
  });

  it('uses the first matching rule', () => {
    const router = routerFor({
      username: 'alice',
      routes: [
        { match: { 'service.name': 'api' }, resource: UUID_A },
        { match: { 'service.name': /./ }, resource: UUID_B },
        { match: { 'service.name': 'checkout' }, resource: UUID_C },
      ],
    });
    expect(router.route({ 'service.name': 'api' })).toMatchObject({ uuid: UUID_A });
    expect(router.route({ 'service.name': 'checkout' })).toMatchObject({ uuid: UUID_B });
  });

  it('routes by key when the rule names a key', () => {
    const router = routerFor({
      username: 'alice',
      routes: [{ match: { 'service.name': 'checkout' }, key: 'checkout-api' }],
    });
    expect(router.route({ 'service.name': 'checkout' })).toEqual({
      kind: 'key',
      owner: { kind: 'user', name: 'alice' },
      key: 'checkout-api',
    });
  });

  it('takes the owner from reslog.username, then the rule, then the username option', () => {
    const router = routerFor({
      username: 'alice',
      routes: [{ match: { 'service.name': 'checkout' }, resource: UUID_A, username: 'bob' }],
    });
    expect(router.route({ 'service.name': 'checkout' })).toMatchObject({
      owner: { kind: 'user', name: 'bob' },
    });
    expect(router.route({ 'service.name': 'checkout', [USER_ATTR]: 'carol' })).toMatchObject({
      owner: { kind: 'user', name: 'carol' },
    });
    const noRuleOwner = routerFor({
      username: 'alice',
      routes: [{ match: { 'service.name': 'checkout' }, resource: UUID_A }],
    });
    expect(noRuleOwner.route({ 'service.name': 'checkout' })).toMatchObject({
      owner: { kind: 'user', name: 'alice' },
    });
  });

  it('a rule username is enough without a username option', () => {
    const router = routerFor({
      routes: [{ match: { 'service.name': 'checkout' }, resource: UUID_A, username: 'bob' }],
    });
    expect(router.route({ 'service.name': 'checkout' })).toEqual({
      kind: 'uuid',
      owner: { kind: 'user', name: 'bob' },
      uuid: UUID_A,
    });
  });

  it('matches resource attributes, not record attributes', () => {
    const router = routerFor({
      username: 'alice',
      routes: [{ match: { 'service.name': 'checkout' }, resource: UUID_A }],
    });
    expect(router.route({}, { 'service.name': 'checkout' })).toMatchObject({ kind: 'unmapped' });
  });
});

describe('default resource and unmapped records', () => {
  it('sends records no rule matches to the default resource UUID', () => {
    const router = routerFor({
      username: 'alice',
      resource: UUID_DEFAULT,
      routes: [{ match: { 'service.name': 'checkout' }, resource: UUID_A }],
    });
    expect(router.route({ 'service.name': 'billing' })).toEqual({
      kind: 'uuid',
      owner: { kind: 'user', name: 'alice' },
      uuid: UUID_DEFAULT,
    });
  });

  it('takes the owner of the default resource from its resource URL', () => {
    const router = routerFor({
      baseUrl: undefined,
      resource: `https://logs.example.com/u/dora/resources/${UUID_DEFAULT}/`,
    });
    expect(router.route({ 'service.name': 'billing' })).toEqual({
      kind: 'uuid',
      owner: { kind: 'user', name: 'dora' },
      uuid: UUID_DEFAULT,
    });
  });

  it('keeps the resource URL owner for the default resource even when username names another account', () => {
    const router = routerFor({
      username: 'alice',
      resource: `https://logs.example.com/u/dora/resources/${UUID_DEFAULT}/`,
      routes: [{ match: { 'service.name': 'checkout' }, resource: UUID_A }],
    });
    expect(router.route({})).toMatchObject({
      owner: { kind: 'user', name: 'dora' },
      uuid: UUID_DEFAULT,
    });
    expect(router.route({ 'service.name': 'checkout' })).toMatchObject({
      owner: { kind: 'user', name: 'alice' },
      uuid: UUID_A,
    });
  });

  it('leaves a record unmapped when nothing maps it, with or without a username', () => {
    expect(routerFor({ username: 'alice' }).route({ 'service.name': 'x' })).toMatchObject({
      kind: 'unmapped',
      why: expect.stringContaining('no routing attribute'),
    });
    expect(routerFor().route({ 'service.name': 'x' })).toMatchObject({ kind: 'unmapped' });
  });

  it('leaves a record unmapped when its target has no owner username', () => {
    const router = routerFor({ resource: UUID_DEFAULT });
    expect(router.route({})).toMatchObject({
      kind: 'unmapped',
      why: expect.stringContaining('username'),
    });
    expect(router.route({ [UUID_ATTR]: UUID_A })).toMatchObject({ kind: 'unmapped' });
    expect(router.route({ [UUID_ATTR]: UUID_A, [USER_ATTR]: 'bob' })).toMatchObject({
      kind: 'uuid',
      owner: { kind: 'user', name: 'bob' },
    });
  });
});

describe('routing order: record uuid > resource uuid > record key > resource key > routes > default', () => {
  const router = routerFor({
    username: 'alice',
    resource: UUID_DEFAULT,
    routes: [{ match: { 'service.name': 'checkout' }, resource: UUID_C }],
  });
  const fullResource = {
    'service.name': 'checkout',
    [UUID_ATTR]: UUID_B,
    [KEY_ATTR]: 'resource-key',
  };

  it('record uuid beats everything', () => {
    expect(
      router.route(fullResource, { [UUID_ATTR]: UUID_A, [KEY_ATTR]: 'record-key' }),
    ).toMatchObject({ kind: 'uuid', uuid: UUID_A });
  });

  it('resource uuid beats a record key', () => {
    expect(router.route(fullResource, { [KEY_ATTR]: 'record-key' })).toMatchObject({
      kind: 'uuid',
      uuid: UUID_B,
    });
  });

  it('record key beats a resource key', () => {
    const { [UUID_ATTR]: _, ...resource } = fullResource;
    expect(router.route(resource, { [KEY_ATTR]: 'record-key' })).toMatchObject({
      kind: 'key',
      key: 'record-key',
    });
  });

  it('resource key beats the routes', () => {
    const { [UUID_ATTR]: _, ...resource } = fullResource;
    expect(router.route(resource)).toMatchObject({ kind: 'key', key: 'resource-key' });
  });

  it('routes beat the default resource', () => {
    expect(router.route({ 'service.name': 'checkout' })).toMatchObject({ uuid: UUID_C });
  });

  it('the default resource comes last', () => {
    expect(router.route({ 'service.name': 'billing' })).toMatchObject({ uuid: UUID_DEFAULT });
  });
});
