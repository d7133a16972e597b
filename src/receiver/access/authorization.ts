import type { Role } from '../store/directory-store.js';

/**
 * Everything an API key may ask for. Account actions need only a valid key; resource
 * actions also need a role on the resource named by the path.
 */
export const ACCOUNT_ACTIONS = [
  'account.read',
  'resources.list',
  'resources.create',
  'notifications.read',
  'notifications.update',
  'teams.list',
  'teams.create',
] as const;

export const RESOURCE_ACTIONS = [
  'logs.read',
  'logs.write',
  'resource.read',
  'resource.update',
  'resource.delete',
  'collaborators.read',
  'collaborators.write',
  'collaborators.remove',
  'collaborators.leave',
  'settings.read',
  'settings.write',
  'health.read',
  'health.write',
  'healthcheck.write',
] as const;

/** Actions on a team named by the path, decided from the caller's role on the team. */
export const TEAM_ACTIONS = [
  'team.read',
  'team.members.write',
  'team.members.leave',
  'team.resources.create',
] as const;

/**
 * What the admin token may do without an API key (docs/receiver.md, "Admin token reads"):
 * read any resource, never write, and nothing of an account's own (settings, inbox, teams).
 */
export const ADMIN_READ_ACTIONS: ReadonlySet<Action> = new Set<Action>([
  'resources.list',
  'resource.read',
  'logs.read',
  'health.read',
  'collaborators.read',
]);

export type AccountAction = (typeof ACCOUNT_ACTIONS)[number];
export type ResourceAction = (typeof RESOURCE_ACTIONS)[number];
export type TeamAction = (typeof TEAM_ACTIONS)[number];
export type Action = AccountAction | ResourceAction | TeamAction;

/** A member's role on a team (docs/receiver.md, "Teams"). */
export type TeamRole = 'viewer' | 'editor' | 'admin';

/** `allow`, or the answer a refused request gets: 404 when the caller may not see the
 * resource at all (no enumeration), 403 when it may see it but not do this. */
export type Decision = 'allow' | 'not_found' | 'forbidden';

const ALL: readonly Role[] = ['owner', 'editor', 'viewer'];
const WRITERS: readonly Role[] = ['owner', 'editor'];
const OWNER: readonly Role[] = ['owner'];

/**
 * The permission matrix (docs/receiver.md, "Permissions"). `collaborators.leave` is a
 * collaborator removing themself; the owner cannot leave their own resource.
 */
export const PERMISSIONS: Readonly<Record<ResourceAction | TeamAction, readonly Role[]>> = {
  'logs.read': ALL,
  'logs.write': WRITERS,
  'resource.read': ALL,
  'resource.update': OWNER,
  'resource.delete': OWNER,
  'collaborators.read': OWNER,
  'collaborators.write': OWNER,
  'collaborators.remove': OWNER,
  'collaborators.leave': ['editor', 'viewer'],
  'settings.read': ALL,
  'settings.write': ALL,
  'health.read': ALL,
  'health.write': WRITERS,
  'healthcheck.write': WRITERS,
  // On a team, `owner` is the team's admin (roleFromTeam).
  'team.read': ALL,
  'team.members.write': OWNER,
  'team.members.leave': ALL,
  'team.resources.create': OWNER,
};

/**
 * A team role as a role on the team itself and on each of its resources: `viewer` and
 * `editor` as a collaborator with that role, `admin` as the owner.
 */
export function roleFromTeam(role: TeamRole): Role {
  return role === 'admin' ? 'owner' : role;
}

const RANK: Readonly<Record<Role, number>> = { viewer: 1, editor: 2, owner: 3 };

/**
 * The caller's role on a resource from everything it is there: the owning account, a direct
 * collaborator, a member of the owning team. The highest role wins; `undefined`: none.
 */
export function roleOnResource(membership: {
  owner: boolean;
  collaborator?: 'viewer' | 'editor' | undefined;
  team?: TeamRole | undefined;
}): Role | undefined {
  if (membership.owner) return 'owner';
  const team = membership.team && roleFromTeam(membership.team);
  const direct = membership.collaborator;
  if (!team) return direct;
  if (!direct) return team;
  return RANK[team] >= RANK[direct] ? team : direct;
}

const isAccountAction = (action: Action): action is AccountAction =>
  (ACCOUNT_ACTIONS as readonly string[]).includes(action);

/**
 * The one authorization function: every API-key request is decided here, from the caller's
 * role on the resource or team in the path ({@link roleOnResource}, {@link roleFromTeam};
 * `undefined` when it has none, or when the resource or team does not exist: both look the
 * same) and the action.
 */
export function authorize(role: Role | undefined, action: Action): Decision {
  if (isAccountAction(action)) return 'allow';
  if (role === undefined) return 'not_found';
  return PERMISSIONS[action].includes(role) ? 'allow' : 'forbidden';
}
