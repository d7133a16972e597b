import { readFile } from 'node:fs/promises';
import {
  isResourceKey,
  isUsername,
  isUuid,
  RESOURCE_KEY_PATTERN,
  USERNAME_PATTERN,
} from '../contract/identifiers.js';
import type { TeamRole } from './access/authorization.js';
import { SeedError } from './errors.js';
import type { Store } from './store/create-store.js';
import type { HealthState } from './store/directory-store.js';
import { ALERT_LEVELS, type NotificationSettings } from './store/settings-store.js';

/** One member's settings for one resource, as the seed gives them (omitted fields: defaults). */
export type SeedNotificationSettings = {
  username: string;
  resource: string;
} & Partial<NotificationSettings>;

/** The seed file (docs/receiver.md, "Seed file"). */
export interface Seed {
  accounts: { username: string; api_keys: string[] }[];
  /** Teams with their members; applied after the accounts, before the resources. */
  teams: { name: string; members: { username: string; role: TeamRole }[] }[];
  resources: {
    /** The owning account; exactly one of `owner` and `team` is set. */
    owner?: string;
    /** The owning team. */
    team?: string;
    uuid: string;
    key: string;
    name: string;
    health?: HealthState;
    collaborators: { username: string; role: 'viewer' | 'editor' }[];
  }[];
  /** Every settings entry, with `resource` resolved to a UUID (nested entries included). */
  notification_settings: SeedNotificationSettings[];
}

/** Shortest accepted plaintext key: long enough not to be guessed by accident. */
const MIN_KEY_LENGTH = 16;
const ROOT_FIELDS = new Set([
  '$schema',
  'description',
  'accounts',
  'teams',
  'resources',
  'notification_settings',
]);
const TEAM_ROLES: readonly string[] = ['viewer', 'editor', 'admin'];
const SETTINGS_FIELDS = new Set([
  'username',
  'resource',
  'enabled',
  'health_changes',
  'log_alert_level',
  'webhook_url',
  // Older seed files' names, still read: min_log_level → log_alert_level; channels are ignored.
  'min_log_level',
  'channels',
]);

function isHttpUrl(text: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

/** Checks one settings entry (the member and resource are checked by the caller). */
function settingsEntry(n: Record<string, unknown>, path: string): Partial<NotificationSettings> {
  for (const key of Object.keys(n)) {
    if (!SETTINGS_FIELDS.has(key)) fail(`${path}.${key}`, 'unknown field');
  }
  const out: Partial<NotificationSettings> = {};
  for (const flag of ['enabled', 'health_changes'] as const) {
    if (n[flag] === undefined) continue;
    if (typeof n[flag] !== 'boolean') fail(`${path}.${flag}`, 'must be a boolean');
    out[flag] = n[flag];
  }
  const levels = `one of ${ALERT_LEVELS.join(', ')} or null`;
  if (n.log_alert_level !== undefined) {
    if (n.log_alert_level !== null && !ALERT_LEVELS.includes(n.log_alert_level as never)) {
      fail(`${path}.log_alert_level`, `must be ${levels}`);
    }
    out.log_alert_level = n.log_alert_level as NotificationSettings['log_alert_level'];
  } else if (n.min_log_level !== undefined) {
    const legacy = n.min_log_level;
    if (typeof legacy !== 'string') fail(`${path}.min_log_level`, `must be ${levels}`);
    // Older seeds allowed debug and info; the lowest alert level is warning.
    out.log_alert_level = ALERT_LEVELS.includes(legacy as never)
      ? (legacy as NotificationSettings['log_alert_level'])
      : legacy === 'debug' || legacy === 'info'
        ? 'warning'
        : fail(`${path}.min_log_level`, `must be ${levels}`);
  }
  if (n.channels !== undefined) {
    const channels = list(n.channels, `${path}.channels`);
    if (channels.some((c) => typeof c !== 'string')) fail(`${path}.channels`, 'must be strings');
  }
  if (n.webhook_url !== undefined) {
    if (
      n.webhook_url !== null &&
      (typeof n.webhook_url !== 'string' || !isHttpUrl(n.webhook_url))
    ) {
      fail(`${path}.webhook_url`, 'must be an absolute http(s) URL or null');
    }
    out.webhook_url = n.webhook_url as string | null;
  }
  return out;
}
const HEALTH = ['unknown', 'healthy', 'degraded', 'down'];

function fail(path: string, message: string): never {
  throw new SeedError(`invalid seed: ${path}: ${message}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function list(value: unknown, path: string): unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) fail(path, 'must be an array');
  return value;
}

/** Checks a parsed seed and returns it typed, or throws a {@link SeedError}. */
export function validateSeed(input: unknown): Seed {
  if (!isObject(input)) fail('(root)', 'must be a JSON object with accounts and resources');
  for (const key of Object.keys(input)) {
    if (!ROOT_FIELDS.has(key)) fail(key, 'unknown field (expected accounts, teams, resources)');
  }
  const usernames = new Set<string>();
  const accounts = list(input.accounts, 'accounts').map((raw, i) => {
    const path = `accounts[${i}]`;
    if (!isObject(raw)) fail(path, 'must be an object');
    if (!isUsername(raw.username)) fail(`${path}.username`, `must match ${USERNAME_PATTERN}`);
    if (usernames.has(raw.username)) fail(`${path}.username`, `"${raw.username}" appears twice`);
    usernames.add(raw.username);
    const keys = list(raw.api_keys, `${path}.api_keys`).map((key, k) => {
      if (typeof key !== 'string' || key.length < MIN_KEY_LENGTH || /\s/.test(key)) {
        fail(
          `${path}.api_keys[${k}]`,
          `must be a string of at least ${MIN_KEY_LENGTH} non-space characters`,
        );
      }
      return key;
    });
    return { username: raw.username, api_keys: keys };
  });
  // Team names are their own namespace: a team may be called like an account.
  const teamNames = new Set<string>();
  const teams = list(input.teams, 'teams').map((raw, i) => {
    const path = `teams[${i}]`;
    if (!isObject(raw)) fail(path, 'must be an object');
    if (!isUsername(raw.name)) fail(`${path}.name`, `must match ${USERNAME_PATTERN}`);
    if (teamNames.has(raw.name)) fail(`${path}.name`, `"${raw.name}" appears twice`);
    teamNames.add(raw.name);
    const seen = new Set<string>();
    const members = list(raw.members, `${path}.members`).map((m, j) => {
      const mpath = `${path}.members[${j}]`;
      if (!isObject(m) || !isUsername(m.username)) fail(`${mpath}.username`, 'must be a username');
      if (seen.has(m.username)) fail(`${mpath}.username`, `"${m.username}" appears twice`);
      seen.add(m.username);
      if (!TEAM_ROLES.includes(m.role as string)) {
        fail(`${mpath}.role`, `must be one of ${TEAM_ROLES.join(', ')}`);
      }
      return { username: m.username, role: m.role as TeamRole };
    });
    return { name: raw.name, members };
  });
  const teamMembers = (name: string | undefined) =>
    teams.find((team) => team.name === name)?.members ?? [];
  const uuids = new Set<string>();
  const ownerKeys = new Set<string>();
  const settings: SeedNotificationSettings[] = [];
  const resources = list(input.resources, 'resources').map((raw, i): Seed['resources'][number] => {
    const path = `resources[${i}]`;
    if (!isObject(raw)) fail(path, 'must be an object');
    if ((raw.owner === undefined) === (raw.team === undefined)) {
      fail(path, 'needs exactly one of owner (an account) and team');
    }
    if (raw.owner !== undefined && !isUsername(raw.owner)) {
      fail(`${path}.owner`, 'must be a username');
    }
    if (raw.team !== undefined && !isUsername(raw.team))
      fail(`${path}.team`, 'must be a team name');
    // Keys are unique per owner; accounts and teams are separate namespaces.
    const ownerKey = raw.team !== undefined ? `team:${raw.team}` : `user:${raw.owner}`;
    const ownerName = (raw.team ?? raw.owner) as string;
    if (!isUuid(raw.uuid)) fail(`${path}.uuid`, 'must be a UUID');
    const uuid = raw.uuid.toLowerCase();
    if (uuids.has(uuid)) fail(`${path}.uuid`, `"${uuid}" appears twice`);
    uuids.add(uuid);
    if (!isResourceKey(raw.key)) fail(`${path}.key`, `must match ${RESOURCE_KEY_PATTERN}`);
    if (ownerKeys.has(`${ownerKey}/${raw.key}`)) {
      fail(`${path}.key`, `"${raw.key}" is used twice by ${ownerName}`);
    }
    ownerKeys.add(`${ownerKey}/${raw.key}`);
    const name = raw.name ?? raw.key;
    if (typeof name !== 'string' || name.length === 0 || name.length > 200) {
      fail(`${path}.name`, 'must be a string of 1 to 200 characters');
    }
    if (raw.health !== undefined && !HEALTH.includes(raw.health as string)) {
      fail(`${path}.health`, `must be one of ${HEALTH.join(', ')}`);
    }
    const collaborators = list(raw.collaborators, `${path}.collaborators`).map((c, j) => {
      const cpath = `${path}.collaborators[${j}]`;
      if (!isObject(c) || !isUsername(c.username)) fail(`${cpath}.username`, 'must be a username');
      if (c.role !== 'viewer' && c.role !== 'editor')
        fail(`${cpath}.role`, 'must be viewer or editor');
      if (c.username === raw.owner) fail(`${cpath}.username`, 'the owner cannot be a collaborator');
      return { username: c.username, role: c.role as 'viewer' | 'editor' };
    });
    list(raw.notification_settings, `${path}.notification_settings`).forEach((n, j) => {
      const npath = `${path}.notification_settings[${j}]`;
      if (!isObject(n) || !isUsername(n.username)) fail(`${npath}.username`, 'must be a username');
      if (
        n.username !== raw.owner &&
        !collaborators.some((c) => c.username === n.username) &&
        !teamMembers(raw.team as string | undefined).some((m) => m.username === n.username)
      ) {
        fail(
          `${npath}.username`,
          'must be the owner, a collaborator or a team member of this resource',
        );
      }
      if (n.resource !== undefined) fail(`${npath}.resource`, 'is implied by the resource');
      settings.push({ ...settingsEntry(n, npath), username: n.username, resource: uuid });
    });
    return {
      ...(raw.team !== undefined ? { team: raw.team as string } : { owner: raw.owner as string }),
      uuid,
      key: raw.key,
      name,
      ...(raw.health === undefined ? {} : { health: raw.health as HealthState }),
      collaborators,
    };
  });
  list(input.notification_settings, 'notification_settings').forEach((n, i) => {
    const path = `notification_settings[${i}]`;
    if (!isObject(n) || !isUsername(n.username)) fail(`${path}.username`, 'must be a username');
    if (typeof n.resource !== 'string') fail(`${path}.resource`, 'must be a UUID or resource key');
    let uuid: string;
    if (isUuid(n.resource)) {
      uuid = n.resource.toLowerCase();
    } else {
      // A key is accepted when it names exactly one resource of this seed.
      const matches = resources.filter((r) => r.key === n.resource);
      const match = matches[0];
      if (matches.length !== 1 || !match) {
        fail(`${path}.resource`, `"${n.resource}" is not the key of exactly one seed resource`);
      }
      uuid = match.uuid;
    }
    const seeded = resources.find((r) => r.uuid === uuid);
    if (
      seeded &&
      n.username !== seeded.owner &&
      !seeded.collaborators.some((c) => c.username === n.username) &&
      !teamMembers(seeded.team).some((m) => m.username === n.username)
    ) {
      fail(
        `${path}.username`,
        'must be the owner, a collaborator or a team member of the resource',
      );
    }
    settings.push({ ...settingsEntry(n, path), username: n.username, resource: uuid });
  });
  return { accounts, teams, resources, notification_settings: settings };
}

/** Reads and validates a seed file; errors name the file and the entry. */
export async function loadSeedFile(path: string): Promise<Seed> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new SeedError(`cannot read seed file ${path}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new SeedError(`seed file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  try {
    return validateSeed(parsed);
  } catch (error) {
    throw new SeedError(`${path}: ${(error as Error).message}`);
  }
}

/**
 * Creates what the seed describes, in one transaction. Existing accounts, keys, resources
 * and memberships are kept, so a seed can be applied again (on every start with a file DB).
 */
export function applySeed(
  store: Store,
  seed: Seed,
): { accounts: number; teams: number; resources: number } {
  const { directory, teams } = store;
  return store.transaction(() => {
    for (const account of seed.accounts) {
      const existing =
        directory.accountByUsername(account.username) ?? directory.createAccount(account.username);
      for (const key of account.api_keys) {
        if (directory.authenticate(key)?.accountId === existing.id) continue;
        if (directory.authenticate(key)) {
          throw new SeedError(
            `invalid seed: an API key of ${account.username} belongs to another account`,
          );
        }
        directory.addApiKey(existing.id, key, 'seeded');
      }
    }
    seed.teams.forEach((input, i) => {
      const team = teams.byName(input.name) ?? teams.create(input.name);
      input.members.forEach((m, j) => {
        const account = directory.accountByUsername(m.username);
        if (!account) {
          throw new SeedError(
            `invalid seed: teams[${i}].members[${j}].username: no account "${m.username}"`,
          );
        }
        teams.setMember(team.id, account.id, m.role);
      });
    });
    seed.resources.forEach((input, i) => {
      const owner =
        input.owner === undefined ? undefined : directory.accountByUsername(input.owner);
      const team = input.team === undefined ? undefined : teams.byName(input.team);
      if (input.owner !== undefined && !owner)
        throw new SeedError(`invalid seed: resources[${i}].owner: no account "${input.owner}"`);
      if (input.team !== undefined && !team)
        throw new SeedError(`invalid seed: resources[${i}].team: no team "${input.team}"`);
      const ownerName = input.team ?? input.owner;
      let resource = directory.resourceByUuid(input.uuid);
      const created = resource === undefined;
      if (
        resource &&
        (resource.ownerId !== (owner?.id ?? null) || resource.teamId !== (team?.id ?? null))
      ) {
        throw new SeedError(
          `invalid seed: resources[${i}].uuid: already owned by ${resource.team ?? resource.owner}`,
        );
      }
      if (!resource) {
        const clash = team
          ? directory.resourceByTeamKey(team.name, input.key)
          : directory.resourceByOwnerKey(input.owner ?? '', input.key);
        if (clash) {
          throw new SeedError(
            `invalid seed: resources[${i}].key: ${ownerName} already has "${input.key}"`,
          );
        }
        const common = { uuid: input.uuid, key: input.key, name: input.name };
        resource = team
          ? directory.createResource({ teamId: team.id, ...common })
          : directory.createResource({ ownerId: (owner as { id: number }).id, ...common });
      }
      // Only a resource this seed creates takes its health: a restart keeps the live state.
      if (input.health && created && input.health !== resource.health) {
        store.health.recordTransition(resource.id, {
          from: resource.health,
          to: input.health,
          reason: 'seed',
          source: 'seed',
          actor: null,
          probe: null,
          at: new Date().toISOString(),
        });
        directory.setHealth(resource.id, input.health);
      }
      input.collaborators.forEach((c, j) => {
        const account = directory.accountByUsername(c.username);
        if (!account) {
          throw new SeedError(
            `invalid seed: resources[${i}].collaborators[${j}].username: no account "${c.username}"`,
          );
        }
        directory.setCollaborator(resource.id, account.id, c.role);
      });
    });
    seed.notification_settings.forEach((entry, i) => {
      const path = `notification_settings[${i}]`;
      const resource = directory.resourceByUuid(entry.resource);
      const account = directory.accountByUsername(entry.username);
      if (!resource) throw new SeedError(`invalid seed: ${path}.resource: no such resource`);
      if (!account || !directory.roleOf(resource, account.id)) {
        throw new SeedError(`invalid seed: ${path}.username: not a member of the resource`);
      }
      // What a member chose through the API wins over a seed applied again at start.
      if (store.settings.changedByMember(resource.id, account.id)) return;
      const { username: _u, resource: _r, ...given } = entry;
      const current = store.settings.get(resource.id, account.id);
      store.settings.put(resource.id, account.id, { ...current, ...given }, false);
    });
    return directory.counts();
  });
}
