import { receiverError } from '../errors.js';
import type { Store } from '../store/create-store.js';
import type { Resource } from '../store/directory-store.js';
import type { Team } from '../store/team-store.js';

/**
 * The rules of an account's resources (docs/receiver.md, "Management API"): a resource key is
 * unique per owner (account or team), on creation and on re-keying alike.
 */

const conflict = (owner: string, key: string) =>
  receiverError('conflict', `${owner} already has a resource with key ${key}`);

/** Creates a resource owned by the account `owner` under `key`, unique among its resources. */
export function createAccountResource(
  store: Store,
  owner: { accountId: number; username: string },
  input: { key: string; name: string },
): Resource {
  const { directory } = store;
  return store.transaction(() => {
    if (directory.resourceByOwnerKey(owner.username, input.key)) {
      throw conflict(owner.username, input.key);
    }
    return directory.createResource({ ownerId: owner.accountId, key: input.key, name: input.name });
  });
}

/** Renames and/or re-keys `resource`; a key another resource of the same owner has is a conflict. */
export function updateResource(
  store: Store,
  resource: Resource,
  changes: { name?: string; key?: string },
): Resource {
  const { directory } = store;
  return store.transaction(() => {
    const key = changes.key ?? resource.key;
    const clash = directory.resourceBySameOwnerKey(resource, key);
    if (clash && clash.id !== resource.id) {
      throw conflict(resource.team ?? resource.owner ?? '', key);
    }
    directory.updateResource(resource.id, changes.name ?? resource.name, key);
    return directory.resourceById(resource.id) ?? resource;
  });
}

/** Creates a resource owned by `team` under `key`, unique within the team. */
export function createTeamResource(
  store: Store,
  team: Team,
  input: { key: string; name: string },
): Resource {
  const { directory } = store;
  return store.transaction(() => {
    if (directory.resourceByTeamKey(team.name, input.key)) {
      throw conflict(`team ${team.name}`, input.key);
    }
    return directory.createResource({ teamId: team.id, key: input.key, name: input.name });
  });
}
