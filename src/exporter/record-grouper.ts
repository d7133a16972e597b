import { encodeAttributes } from './log-serializer.js';
import type { ExportableLogRecord, LogResource } from './otel-types.js';
import { hasRoutingOverride, type ResourceRouter, type RouteDecision } from './resource-router.js';
import { encodeValue } from './safe-json.js';

/** What the exporter knows about one distinct set of resource attributes. */
export interface ResourceProfile {
  readonly fingerprint: string;
  /** Target of records that carry no routing attributes of their own. */
  readonly decision: RouteDecision;
  /** The batch's `resource` JSON, without routing attributes. */
  readonly resourceJson: string;
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

/**
 * Groups an export's records by target and resource. Decisions are cached by a fingerprint of
 * the resource attributes, so equal resources share one decision even as distinct objects;
 * within one export each resource object is fingerprinted once. A record with its own routing
 * attributes is routed on its own.
 */
export function createRecordGrouper(router: ResourceRouter): RecordGrouper {
  const profiles = new Map<string, ResourceProfile>();

  const profileOf = (resource: LogResource): ResourceProfile => {
    const attributes = resource.attributes;
    const fingerprint = fingerprintOf(attributes);
    let profile = profiles.get(fingerprint);
    if (!profile) {
      // Bounded: a process that mints endless distinct resources must not grow the cache forever.
      if (profiles.size >= MAX_PROFILES) profiles.clear();
      profile = {
        fingerprint,
        decision: router.route(attributes),
        resourceJson: encodeAttributes(attributes),
      };
      profiles.set(fingerprint, profile);
    }
    return profile;
  };

  return {
    group(records) {
      const byResource = new Map<LogResource, ResourceProfile>();
      const groups = new Map<string, RecordGroup>();
      let lastResource: LogResource | undefined;
      let lastProfile: ResourceProfile | undefined;

      for (const record of records) {
        if (record.resource !== lastResource || !lastProfile) {
          lastResource = record.resource;
          lastProfile = byResource.get(lastResource);
          if (!lastProfile) {
            lastProfile = profileOf(lastResource);
            byResource.set(lastResource, lastProfile);
          }
        }
        const decision = hasRoutingOverride(record.attributes)
          ? router.route(lastResource.attributes, record.attributes)
          : lastProfile.decision;
        const groupKey = `${decisionKey(decision)}\n${lastProfile.fingerprint}`;
        let group = groups.get(groupKey);
        if (!group) {
          group = { decision, profile: lastProfile, records: [] };
          groups.set(groupKey, group);
        }
        group.records.push(record);
      }
      return [...groups.values()];
    },
  };
}

function decisionKey(decision: RouteDecision): string {
  switch (decision.kind) {
    case 'uuid':
      return `u:${decision.username}/${decision.uuid}`;
    case 'key':
      return `k:${decision.username}/${decision.key}`;
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
