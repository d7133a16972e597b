import type { NormalizedConfig, NormalizedRoute } from '../config/normalize-config.js';
import type { AttributeValue } from '../config/options.js';
import { type Owner, userOwner } from '../config/owner.js';
import { isResourceKey, isUsername, normalizeUuid } from '../contract/identifiers.js';
import { ROUTING_ATTRIBUTES } from '../contract/routing-attributes.js';

// Re-exported because the package entry point (src/index.ts) exports it from here.
export { ROUTING_ATTRIBUTES };

type Attributes = Readonly<Record<string, AttributeValue | unknown>>;

/** Where a record goes: a UUID now, a key still to be turned into a UUID, or nowhere. */
export type RouteDecision =
  | { readonly kind: 'uuid'; readonly owner: Owner; readonly uuid: string }
  | { readonly kind: 'key'; readonly owner: Owner; readonly key: string }
  | { readonly kind: 'unmapped'; readonly why: string };

export interface ResourceRouter {
  /**
   * Decides the target from the resource attributes and, when the record carries any of
   * {@link ROUTING_ATTRIBUTES}, from those first. Pure: the same input gives the same answer.
   */
  route(resourceAttributes: Attributes, recordAttributes?: Attributes): RouteDecision;
}

/** True when a record carries its own routing attributes (three property reads, no loop). */
export function hasRoutingOverride(attributes: Attributes): boolean {
  return (
    attributes[ROUTING_ATTRIBUTES.uuid] !== undefined ||
    attributes[ROUTING_ATTRIBUTES.key] !== undefined ||
    attributes[ROUTING_ATTRIBUTES.username] !== undefined
  );
}

/**
 * Routing order (docs/exporter.md, "Routing"): `reslog.resource.uuid` (record, then resource),
 * then `reslog.resource.key` (record, then resource), then the `routes` rules in order, then
 * the default `resource`, else unmapped. The owner (an account or a team) is the
 * `reslog.username` attribute's account, else the rule's, else the default resource's or the
 * `username` option's. An explicit routing attribute that is malformed makes the
 * record unmapped rather than sending it to a fallback resource whose members may differ.
 */
export function createResourceRouter(config: NormalizedConfig): ResourceRouter {
  return {
    route(resource, record) {
      const explicitUsername =
        record?.[ROUTING_ATTRIBUTES.username] ?? resource[ROUTING_ATTRIBUTES.username];
      if (explicitUsername !== undefined && !isUsername(explicitUsername)) {
        return unmapped(`${ROUTING_ATTRIBUTES.username} is not a valid username`);
      }
      const username =
        explicitUsername === undefined ? undefined : userOwner(explicitUsername as string);

      const uuidAttr = record?.[ROUTING_ATTRIBUTES.uuid] ?? resource[ROUTING_ATTRIBUTES.uuid];
      if (uuidAttr !== undefined) {
        const uuid = normalizeUuid(uuidAttr);
        if (!uuid) return unmapped(`${ROUTING_ATTRIBUTES.uuid} is not a UUID`);
        return withOwner({ kind: 'uuid', uuid }, username, config.owner);
      }

      const keyAttr = record?.[ROUTING_ATTRIBUTES.key] ?? resource[ROUTING_ATTRIBUTES.key];
      if (keyAttr !== undefined) {
        if (!isResourceKey(keyAttr))
          return unmapped(`${ROUTING_ATTRIBUTES.key} is not a resource key`);
        return withOwner({ kind: 'key', key: keyAttr }, username, config.owner);
      }

      for (const rule of config.routes) {
        if (!matches(rule, resource)) continue;
        const target = rule.uuid
          ? ({ kind: 'uuid', uuid: rule.uuid } as const)
          : ({ kind: 'key', key: rule.key as string } as const);
        return withOwner(target, username ?? rule.owner, config.owner);
      }

      if (config.defaultResource) {
        const owner = username ?? config.defaultResource.owner;
        return withOwner({ kind: 'uuid', uuid: config.defaultResource.uuid }, owner, config.owner);
      }
      return unmapped('no routing attribute, rule or default resource matched');
    },
  };
}

function matches(rule: NormalizedRoute, attributes: Attributes): boolean {
  for (const [attribute, test] of rule.matchers) {
    if (!test(attributes[attribute] as AttributeValue)) return false;
  }
  return true;
}

function withOwner(
  target: { kind: 'uuid'; uuid: string } | { kind: 'key'; key: string },
  owner: Owner | undefined,
  fallback: Owner | undefined,
): RouteDecision {
  const chosen = owner ?? fallback;
  if (!chosen) {
    return unmapped(
      'no owner (set reslog.username, a rule username or team, the username option, or a resource URL)',
    );
  }
  return { ...target, owner: chosen };
}

function unmapped(why: string): RouteDecision {
  return { kind: 'unmapped', why };
}
