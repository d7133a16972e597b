import { isUsername } from '../../contract/identifiers.js';
import type { TeamRole } from '../access/authorization.js';
import { receiverError } from '../errors.js';
import type { Store } from '../store/create-store.js';
import type { Team } from '../store/team-store.js';

/**
 * The rules of teams (docs/receiver.md, "Teams"): names are unique, the creator is the first
 * admin and a team always keeps one admin (its resources: resource-management.ts).
 */

const conflict = (message: string) => receiverError('conflict', message);
const lastAdmin = () =>
  conflict('a team keeps at least one admin: make another member admin first');

/** Creates team `name` with `accountId` as its admin. */
export function createTeam(store: Store, accountId: number, name: string): Team {
  const { teams } = store;
  return store.transaction(() => {
    if (teams.byName(name)) throw conflict(`team ${name} exists`);
    const created = teams.create(name);
    teams.setMember(created.id, accountId, 'admin');
    return created;
  });
}

/** Adds `username` to `team` as `role`, or changes its role; returns whether it was added. */
export function setTeamMember(
  store: Store,
  team: Team,
  username: string,
  role: TeamRole,
): { added: boolean } {
  const { teams } = store;
  const account = isUsername(username) ? store.directory.accountByUsername(username) : undefined;
  if (!account) throw receiverError('not_found', 'account not found');
  return store.transaction(() => {
    const current = teams.roleOf(team.id, account.id);
    if (current === 'admin' && role !== 'admin' && teams.adminCount(team.id) === 1) {
      throw lastAdmin();
    }
    teams.setMember(team.id, account.id, role);
    return { added: current === undefined };
  });
}

/**
 * Removes `username` from `team` (or the member leaves): access, settings, notifications and
 * pending webhooks end in one transaction. The last admin cannot go.
 */
export function removeTeamMember(store: Store, team: Team, username: string): void {
  const { teams } = store;
  const account = isUsername(username) ? store.directory.accountByUsername(username) : undefined;
  const removed =
    account !== undefined &&
    store.transaction(() => {
      const current = teams.roleOf(team.id, account.id);
      if (current === 'admin' && teams.adminCount(team.id) === 1) throw lastAdmin();
      return teams.removeMember(team.id, account.id);
    });
  if (!removed) throw receiverError('not_found', 'member not found');
}
