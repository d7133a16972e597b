import { isUsername } from '../../contract/identifiers.js';
import { receiverError } from '../errors.js';
import type { Store } from '../store/create-store.js';
import type { Resource } from '../store/directory-store.js';

/** The role a collaborator is given; the owner is no collaborator. */
export type CollaboratorRole = 'viewer' | 'editor';

function account(store: Store, username: string) {
  return isUsername(username) ? store.directory.accountByUsername(username) : undefined;
}

/**
 * Shares `resource` with `username` as `role`, or changes the role it has (docs/receiver.md,
 * "Permissions"). The owner cannot be a collaborator. Returns whether the account is new to
 * the resource.
 */
export function shareResource(
  store: Store,
  resource: Resource,
  username: string,
  role: CollaboratorRole,
): { added: boolean } {
  const found = account(store, username);
  if (!found) throw receiverError('not_found', 'account not found');
  if (found.id === resource.ownerId) {
    throw receiverError('invalid_request', 'the owner cannot be a collaborator');
  }
  return store.transaction(() => {
    const existed = store.directory.isCollaborator(resource.id, found.id);
    store.directory.setCollaborator(resource.id, found.id, role);
    return { added: !existed };
  });
}

/**
 * Ends `username`'s access to `resource`: its role, its own notification settings, its
 * notifications and pending webhooks, in one transaction. A name that is no collaborator is
 * `not_found`, the same as an unknown account.
 */
export function unshareResource(store: Store, resource: Resource, username: string): void {
  const found = account(store, username);
  const removed =
    found !== undefined &&
    store.transaction(() => store.directory.removeCollaborator(resource, found.id));
  if (!removed) throw receiverError('not_found', 'collaborator not found');
}
