import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createAccountResource,
  createTeamResource,
  updateResource,
} from '../../src/receiver/manage/resource-management.js';
import { shareResource, unshareResource } from '../../src/receiver/manage/resource-sharing.js';
import {
  createTeam,
  removeTeamMember,
  setTeamMember,
} from '../../src/receiver/manage/team-management.js';
import { createStore, type Store } from '../../src/receiver/store/create-store.js';

/** The management rules, without HTTP (docs/receiver.md, "Permissions" and "Teams"). */
let store: Store;
beforeEach(() => {
  store = createStore(':memory:', () => new Date(0).toISOString());
});
afterEach(() => store.close());

describe('resource sharing', () => {
  it('adds, then changes the role of, a collaborator; the owner is none', () => {
    const alice = store.directory.createAccount('alice');
    store.directory.createAccount('bob');
    const resource = store.directory.createResource({ ownerId: alice.id, key: 'api', name: 'API' });
    expect(shareResource(store, resource, 'bob', 'viewer')).toEqual({ added: true });
    expect(shareResource(store, resource, 'bob', 'editor')).toEqual({ added: false });
    expect(store.directory.collaborators(resource.id)).toEqual([
      expect.objectContaining({ username: 'bob', role: 'editor' }),
    ]);
    expect(() => shareResource(store, resource, 'alice', 'viewer')).toThrow(
      expect.objectContaining({ code: 'invalid_request' }),
    );
    expect(() => shareResource(store, resource, 'nobody', 'viewer')).toThrow(
      expect.objectContaining({ code: 'not_found' }),
    );
  });

  it('removes a collaborator once; a second time or an unknown name is not_found', () => {
    const alice = store.directory.createAccount('alice');
    store.directory.createAccount('bob');
    const resource = store.directory.createResource({ ownerId: alice.id, key: 'api', name: 'API' });
    shareResource(store, resource, 'bob', 'viewer');
    unshareResource(store, resource, 'bob');
    expect(store.directory.collaborators(resource.id)).toEqual([]);
    for (const name of ['bob', 'Not A Name']) {
      expect(() => unshareResource(store, resource, name)).toThrow(
        expect.objectContaining({ code: 'not_found' }),
      );
    }
  });
});

describe('team management', () => {
  it('makes the creator admin and refuses a second team of the same name', () => {
    const alice = store.directory.createAccount('alice');
    const team = createTeam(store, alice.id, 'payments');
    expect(store.teams.roleOf(team.id, alice.id)).toBe('admin');
    expect(() => createTeam(store, alice.id, 'payments')).toThrow(
      expect.objectContaining({ code: 'conflict' }),
    );
  });

  it('keeps one admin: the last one can neither be demoted nor leave', () => {
    const alice = store.directory.createAccount('alice');
    store.directory.createAccount('bob');
    const team = createTeam(store, alice.id, 'payments');
    expect(() => setTeamMember(store, team, 'alice', 'editor')).toThrow(/at least one admin/);
    expect(() => removeTeamMember(store, team, 'alice')).toThrow(/at least one admin/);
    expect(setTeamMember(store, team, 'bob', 'admin')).toEqual({ added: true });
    removeTeamMember(store, team, 'alice');
    expect(store.teams.roleOf(team.id, alice.id)).toBeUndefined();
    expect(() => removeTeamMember(store, team, 'alice')).toThrow(
      expect.objectContaining({ code: 'not_found' }),
    );
  });

  it("keeps a team's resource keys unique within the team", () => {
    const alice = store.directory.createAccount('alice');
    const team = createTeam(store, alice.id, 'payments');
    const resource = createTeamResource(store, team, { key: 'ledger', name: 'Ledger' });
    expect(resource.team).toBe('payments');
    expect(() => createTeamResource(store, team, { key: 'ledger', name: 'Again' })).toThrow(
      expect.objectContaining({ code: 'conflict' }),
    );
  });
});

describe('resource management', () => {
  it("keeps an account's resource keys unique, on creation and on re-keying", () => {
    const alice = store.directory.createAccount('alice');
    const owner = { accountId: alice.id, username: 'alice' };
    const api = createAccountResource(store, owner, { key: 'api', name: 'API' });
    const web = createAccountResource(store, owner, { key: 'web', name: 'Web' });
    expect(() => createAccountResource(store, owner, { key: 'api', name: 'Again' })).toThrow(
      'alice already has a resource with key api',
    );
    expect(() => updateResource(store, web, { key: 'api' })).toThrow(
      expect.objectContaining({ code: 'conflict' }),
    );
    // Its own key again is no clash; a rename keeps the key.
    expect(updateResource(store, api, { key: 'api', name: 'Public API' })).toMatchObject({
      key: 'api',
      name: 'Public API',
    });
    expect(updateResource(store, web, { key: 'www' }).key).toBe('www');
  });
});
