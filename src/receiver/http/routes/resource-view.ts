import type { Resource, Role } from '../../store/directory-store.js';

/** `{owner}` for an account's resource, `{team}` for a team's. */
export function ownerOf(resource: Resource): { owner: string } | { team: string } {
  return resource.team !== null ? { team: resource.team } : { owner: resource.owner ?? '' };
}

/** A resource as the management API shows it to a caller with `role` (`apiResourceSchema`). */
export function resourceView(resource: Resource, role: Role) {
  return {
    uuid: resource.uuid,
    key: resource.key,
    name: resource.name,
    ...ownerOf(resource),
    role,
    health: resource.health,
    created_at: resource.createdAt,
  };
}
