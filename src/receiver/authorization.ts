import type { Role } from './store/directory-store.js';

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

export type AccountAction = (typeof ACCOUNT_ACTIONS)[number];
export type ResourceAction = (typeof RESOURCE_ACTIONS)[number];
export type Action = AccountAction | ResourceAction;

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
export const PERMISSIONS: Readonly<Record<ResourceAction, readonly Role[]>> = {
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
};

const isAccountAction = (action: Action): action is AccountAction =>
  (ACCOUNT_ACTIONS as readonly string[]).includes(action);

/**
 * The one authorization function: every API-key request is decided here, from the caller's
 * role on the resource (`undefined` when it is neither owner nor collaborator, or when the
 * resource does not exist: both look the same) and the action.
 */
export function authorize(role: Role | undefined, action: Action): Decision {
  if (isAccountAction(action)) return 'allow';
  if (role === undefined) return 'not_found';
  return PERMISSIONS[action].includes(role) ? 'allow' : 'forbidden';
}
