import { ownerLabel } from '../config/owner.js';
import type { ExportableLogRecord, LogResource } from './otel-types.js';
import { hasRoutingOverride, type ResourceRouter, type RouteDecision } from './resource-router.js';
import { encodeValue } from './safe-json.js';
import { encodeResourceAttributes } from './sdk-extra.js';

/** What the exporter knows about one distinct set of resource attributes. */
export interface ResourceProfile {
  readonly fingerprint: string;
  /** Target of records that carry no routing attributes of their own. */
  readonly decision: RouteDecision;
  /** The batch's `resource` JSON, without routing attributes. */
  readonly resourceJson: string;
  /** Key of the group of records that follow `decision`. */
  readonly groupKey: string;
}

/** Records of one export that share a route decision and a resource. */
export interface RecordGroup {
  readonly decision: RouteDecision;
  readonly profile: ResourceProfile;
  readonly records: ExportableLogRecord[];
}

export interface RecordGrouper {
  group(records: readonly ExportableLogRecord[]): RecordGroup[];
}

const MAX_PROFILES = 1024;

/** Resource profiles, made once per distinct set of resource attributes. */
export interface ResourceProfiles {
  profileOf(resource: LogResource): ResourceProfile;
}

/**
 * Caches route decisions by a fingerprint of the resource attributes, so equal resources
 * share one decision even as distinct objects (and a resource whose attributes changed gets a
 * new one).
 */
export function createResourceProfiles(router: ResourceRouter): ResourceProfiles {
  const profiles = new Map<string, ResourceProfile>();
  return {
    profileOf(resource) {
      const attributes = resource.attributes;
      const fingerprint = fingerprintOf(attributes);
      let profile = profiles.get(fingerprint);
      if (!profile) {
        // Bounded: a process that mints endless distinct resources must not grow the cache forever.
        if (profiles.size >= MAX_PROFILES) profiles.clear();
        const decision = router.route(attributes);
        profile = {
          fingerprint,
          decision,
          resourceJson: encodeResourceAttributes(attributes),
          groupKey: `${decisionKey(decision)}\n${fingerprint}`,
        };
        profiles.set(fingerprint, profile);
      }
      return profile;
    },
  };
}

/**
 * Groups an export's records by target and resource (decisions from
 * {@link createResourceProfiles}). A record with its own routing attributes is routed on its own.
 */
export function createRecordGrouper(router: ResourceRouter): RecordGrouper {
  const { profileOf } = createResourceProfiles(router);

  return {
    group(records) {
      // Within one export each resource object is fingerprinted once.
      const byResource = new Map<LogResource, ResourceProfile>();
      const groups = new Map<string, RecordGroup>();
      const groupFor = (key: string, decision: RouteDecision, profile: ResourceProfile) => {
        let group = groups.get(key);
        if (!group) {
          group = { decision, profile, records: [] };
          groups.set(key, group);
        }
        return group;
      };
      let lastResource: LogResource | undefined;
      let profile: ResourceProfile | undefined;
      let lastGroup: RecordGroup | undefined;

      for (const record of records) {
        if (record.resource !== lastResource || !profile) {
          lastResource = record.resource;
          lastGroup = undefined;
          profile = byResource.get(lastResource);
          if (!profile) {
            profile = profileOf(lastResource);
            byResource.set(lastResource, profile);
          }
        }
        if (hasRoutingOverride(record.attributes)) {
          const decision = router.route(lastResource.attributes, record.attributes);
          groupFor(
            `${decisionKey(decision)}\n${profile.fingerprint}`,
            decision,
            profile,
          ).records.push(record);
          continue;
        }
        // The common case, a run of records of one resource, costs one push per record.
        lastGroup ??= groupFor(profile.groupKey, profile.decision, profile);
        lastGroup.records.push(record);
      }
      return [...groups.values()];
    },
  };
}

/** A key equal for equal decisions. */
export function decisionKey(decision: RouteDecision): string {
  switch (decision.kind) {
    case 'uuid':
      return `u:${ownerLabel(decision.owner)}/${decision.uuid}`;
    case 'key':
      return `k:${ownerLabel(decision.owner)}/${decision.key}`;
    case 'unmapped':
      return `x:${decision.why}`;
  }
}

/** Order-independent identity of a set of attributes. */
export function fingerprintOf(attributes: Readonly<Record<string, unknown>>): string {
  let out = '';
  for (const key of Object.keys(attributes).sort()) {
    out += `${JSON.stringify(key)}:${encodeValue(attributes[key]) ?? '~'},`;
  }
  return out;
}
