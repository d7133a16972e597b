import { describe, expect, it, vi } from 'vitest';
import { normalizeConfig } from '../../src/config/normalize-config.js';
import type { ResourceLogExporterOptions } from '../../src/config/options.js';
import { ROUTING_ATTRIBUTES } from '../../src/contract/routing-attributes.js';
import { createRecordGrouper } from '../../src/exporter/record-grouper.js';
import { createResourceRouter } from '../../src/exporter/resource-router.js';
import { logRecord, resource } from '../helpers/records.js';

const UUID_A = '11111111-1111-4111-8111-111111111111';
const UUID_B = '22222222-2222-4222-8222-222222222222';
const UUID_DEFAULT = 'dddddddd-dddd-4ddd-8ddd-dddddddddddd';

function grouperFor(options: ResourceLogExporterOptions) {
  const config = normalizeConfig(
    { baseUrl: 'https://logs.example.com', apiKey: 'rlk_1_secret', username: 'alice', ...options },
    {},
  );
  return createRecordGrouper(createResourceRouter(config));
}

/** `{ target: bodies }` of each group, to compare what goes where. */
function summary(groups: ReturnType<ReturnType<typeof grouperFor>['group']>) {
  return groups.map((g) => ({
    target: g.decision.kind === 'uuid' ? g.decision.uuid : g.decision.kind,
    bodies: g.records.map((r) => r.body),
  }));
}

describe('route decision cache (by attribute fingerprint, not object identity)', () => {
  it('two resource objects with equal attributes in different key order share one decision', () => {
    const match = vi.fn((value: unknown) => value === 'checkout');
    const grouper = grouperFor({
      routes: [{ match: { 'service.name': match }, resource: UUID_A }],
    });
    const first = resource({ 'service.name': 'checkout', 'host.name': 'web-1' });
    const second = resource({ 'host.name': 'web-1', 'service.name': 'checkout' });

    const groups = grouper.group([
      logRecord({ resource: first, body: 'one' }),
      logRecord({ resource: second, body: 'two' }),
    ]);
    grouper.group([logRecord({ resource: resource({ ...second.attributes }), body: 'three' })]);

    expect(match).toHaveBeenCalledTimes(1);
    expect(summary(groups)).toEqual([{ target: UUID_A, bodies: ['one', 'two'] }]);
  });

  it('changed attributes get a new decision', () => {
    const match = vi.fn((value: unknown) => value === 'checkout');
    const grouper = grouperFor({
      resource: UUID_DEFAULT,
      routes: [{ match: { 'service.name': match }, resource: UUID_A }],
    });
    const attributes: Record<string, unknown> = { 'service.name': 'checkout' };
    const res = resource(attributes);

    expect(summary(grouper.group([logRecord({ resource: res, body: 'before' })]))).toEqual([
      { target: UUID_A, bodies: ['before'] },
    ]);
    // The same resource object after its async attributes settled differently.
    attributes['service.name'] = 'billing';
    expect(summary(grouper.group([logRecord({ resource: res, body: 'after' })]))).toEqual([
      { target: UUID_DEFAULT, bodies: ['after'] },
    ]);
    expect(match).toHaveBeenCalledTimes(2);
  });

  it('keeps resources with different attributes apart even when they share a target', () => {
    const grouper = grouperFor({ resource: UUID_DEFAULT });
    const groups = grouper.group([
      logRecord({ resource: resource({ 'service.name': 'a' }), body: 'a1' }),
      logRecord({ resource: resource({ 'service.name': 'b' }), body: 'b1' }),
      logRecord({ resource: resource({ 'service.name': 'a' }), body: 'a2' }),
    ]);
    expect(summary(groups)).toEqual([
      { target: UUID_DEFAULT, bodies: ['a1', 'a2'] },
      { target: UUID_DEFAULT, bodies: ['b1'] },
    ]);
    expect(groups.map((g) => JSON.parse(g.profile.resourceJson))).toEqual([
      { 'service.name': 'a' },
      { 'service.name': 'b' },
    ]);
  });

  it('sends the batch resource without routing attributes', () => {
    const grouper = grouperFor({});
    const [group] = grouper.group([
      logRecord({
        resource: resource({
          'service.name': 'checkout',
          [ROUTING_ATTRIBUTES.uuid]: UUID_A,
          [ROUTING_ATTRIBUTES.key]: 'checkout-api',
          [ROUTING_ATTRIBUTES.username]: 'bob',
        }),
      }),
    ]);
    expect(JSON.parse(group?.profile.resourceJson ?? '')).toEqual({ 'service.name': 'checkout' });
  });
});

describe('per-record override', () => {
  it('routes a record with its own routing attributes on its own, keeping order in each group', () => {
    const grouper = grouperFor({ resource: UUID_DEFAULT });
    const shared = resource({ 'service.name': 'checkout' });
    const groups = grouper.group([
      logRecord({ resource: shared, body: 'd1' }),
      logRecord({
        resource: shared,
        body: 'a1',
        attributes: { [ROUTING_ATTRIBUTES.uuid]: UUID_A },
      }),
      logRecord({ resource: shared, body: 'd2' }),
      logRecord({
        resource: shared,
        body: 'b1',
        attributes: { [ROUTING_ATTRIBUTES.uuid]: UUID_B },
      }),
      logRecord({
        resource: shared,
        body: 'a2',
        attributes: { [ROUTING_ATTRIBUTES.uuid]: UUID_A },
      }),
    ]);
    expect(summary(groups)).toEqual([
      { target: UUID_DEFAULT, bodies: ['d1', 'd2'] },
      { target: UUID_A, bodies: ['a1', 'a2'] },
      { target: UUID_B, bodies: ['b1'] },
    ]);
  });

  it('a record-level reslog.username splits the owner but not the resource', () => {
    const grouper = grouperFor({ resource: UUID_DEFAULT });
    const groups = grouper.group([
      logRecord({ body: 'alice' }),
      logRecord({ body: 'bob', attributes: { [ROUTING_ATTRIBUTES.username]: 'bob' } }),
    ]);
    expect(
      groups.map((g) => ({
        decision: g.decision,
        bodies: g.records.map((r) => r.body),
      })),
    ).toEqual([
      {
        decision: { kind: 'uuid', owner: { kind: 'user', name: 'alice' }, uuid: UUID_DEFAULT },
        bodies: ['alice'],
      },
      {
        decision: { kind: 'uuid', owner: { kind: 'user', name: 'bob' }, uuid: UUID_DEFAULT },
        bodies: ['bob'],
      },
    ]);
  });

  it('a malformed record override becomes its own unmapped group', () => {
    const grouper = grouperFor({ resource: UUID_DEFAULT });
    const groups = grouper.group([
      logRecord({ body: 'ok' }),
      logRecord({ body: 'bad', attributes: { [ROUTING_ATTRIBUTES.uuid]: 'nope' } }),
    ]);
    expect(summary(groups)).toEqual([
      { target: UUID_DEFAULT, bodies: ['ok'] },
      { target: 'unmapped', bodies: ['bad'] },
    ]);
  });
});
