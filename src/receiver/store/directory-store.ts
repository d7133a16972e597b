import { randomBytes, randomUUID } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import type { HealthState } from '../../contract/read-answer.js';
import { digestKey, digestsEqual } from '../access/api-keys.js';
import { roleOnResource, type TeamRole } from '../access/authorization.js';

export type { HealthState };

export type Role = 'owner' | 'editor' | 'viewer';

export interface Account {
  id: number;
  username: string;
}

/** Who an API key belongs to. */
export interface Principal {
  accountId: number;
  username: string;
  keyId: number;
  /** Printable name of the key (`rlk_<id>` or a digest prefix); never the key itself. */
  keyLabel: string;
}

export interface Resource {
  id: number;
  uuid: string;
  key: string;
  name: string;
  /** The owning account, or `null` when a team owns the resource. */
  ownerId: number | null;
  owner: string | null;
  /** The owning team, or `null` when an account owns the resource. */
  teamId: number | null;
  team: string | null;
  health: HealthState;
  /** When the health state last changed; `null` while it never did. */
  healthChangedAt: string | null;
  createdAt: string;
}

/** A resource as the caller sees it, with their role. */
export interface ResourceWithRole extends Resource {
  role: Role;
}

interface ResourceRow {
  id: number;
  uuid: string;
  key: string;
  name: string;
  owner_id: number | null;
  owner: string | null;
  team_id: number | null;
  team: string | null;
  health_state: HealthState;
  health_changed_at: string | null;
  created_at: string;
}

const RESOURCE_COLUMNS =
  'r.id, r.uuid, r.key, r.name, r.owner_id, a.username AS owner, r.team_id, t.name AS team, r.health_state, r.health_changed_at, r.created_at';
/** A resource with its owner's name, whether an account or a team owns it. */
const RESOURCES = `resources r LEFT JOIN accounts a ON a.id = r.owner_id
  LEFT JOIN teams t ON t.id = r.team_id`;

function toResource(row: ResourceRow | undefined): Resource | undefined {
  if (!row) return undefined;
  return {
    id: row.id,
    uuid: row.uuid,
    key: row.key,
    name: row.name,
    ownerId: row.owner_id,
    owner: row.owner,
    teamId: row.team_id,
    team: row.team,
    health: row.health_state,
    healthChangedAt: row.health_changed_at,
    createdAt: row.created_at,
  };
}

/** Accounts, API keys, resources and their members. */
export type DirectoryStore = ReturnType<typeof createDirectoryStore>;

export function createDirectoryStore(db: DatabaseSync, now: () => string) {
  const s = {
    insertAccount: db.prepare('INSERT INTO accounts (username, created_at) VALUES (?, ?)'),
    accountByName: db.prepare('SELECT id, username FROM accounts WHERE username = ?'),
    insertKey: db.prepare(
      'INSERT INTO api_keys (account_id, digest, label, created_at) VALUES (?, ?, ?, ?)',
    ),
    keyByDigest: db.prepare(
      `SELECT k.id AS key_id, k.digest, k.label, a.id AS account_id, a.username
         FROM api_keys k JOIN accounts a ON a.id = k.account_id
        WHERE k.digest = ? AND k.revoked_at IS NULL`,
    ),
    insertResource: db.prepare(
      'INSERT INTO resources (uuid, owner_id, team_id, key, name, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    resourceByUuid: db.prepare(`SELECT ${RESOURCE_COLUMNS} FROM ${RESOURCES} WHERE r.uuid = ?`),
    resourceByOwnerKey: db.prepare(
      `SELECT ${RESOURCE_COLUMNS} FROM ${RESOURCES} WHERE a.username = ? AND r.key = ?`,
    ),
    resourceByTeamKey: db.prepare(
      `SELECT ${RESOURCE_COLUMNS} FROM ${RESOURCES} WHERE t.name = ? AND r.key = ?`,
    ),
    resourceById: db.prepare(`SELECT ${RESOURCE_COLUMNS} FROM ${RESOURCES} WHERE r.id = ?`),
    upsertCollaborator: db.prepare(
      `INSERT INTO collaborators (resource_id, account_id, role, created_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (resource_id, account_id) DO UPDATE SET role = excluded.role`,
    ),
    memberships: db.prepare(
      `SELECT (SELECT role FROM collaborators WHERE resource_id = ? AND account_id = ?) AS direct,
              (SELECT role FROM team_members WHERE team_id = ? AND account_id = ?) AS team`,
    ),
    collaborators: db.prepare(
      `SELECT a.username, c.role FROM collaborators c JOIN accounts a ON a.id = c.account_id
        WHERE c.resource_id = ? ORDER BY a.username`,
    ),
    ensureSettings: db.prepare(
      `INSERT OR IGNORE INTO notification_settings (resource_id, account_id, updated_at)
       VALUES (?, ?, ?)`,
    ),
    deleteCollaborator: db.prepare(
      'DELETE FROM collaborators WHERE resource_id = ? AND account_id = ?',
    ),
    deleteSettings: db.prepare(
      'DELETE FROM notification_settings WHERE resource_id = ? AND account_id = ?',
    ),
    deleteNotifications: db.prepare(
      'DELETE FROM notifications WHERE resource_id = ? AND account_id = ?',
    ),
    resourcesOf: db.prepare(
      `SELECT ${RESOURCE_COLUMNS}, r.owner_id IS ? AS is_owner, c.role AS direct, m.role AS team_role
         FROM ${RESOURCES}
         LEFT JOIN collaborators c ON c.resource_id = r.id AND c.account_id = ?
         LEFT JOIN team_members m ON m.team_id = r.team_id AND m.account_id = ?
        WHERE r.owner_id = ? OR c.account_id IS NOT NULL OR m.account_id IS NOT NULL
        ORDER BY r.team_id IS NOT NULL, COALESCE(a.username, t.name), r.key`,
    ),
    updateResource: db.prepare('UPDATE resources SET name = ?, key = ? WHERE id = ?'),
    deleteResource: db.prepare('DELETE FROM resources WHERE id = ?'),
    accountById: db.prepare('SELECT id, username, created_at FROM accounts WHERE id = ?'),
    secretOf: db.prepare('SELECT webhook_secret FROM accounts WHERE id = ?'),
    setSecret: db.prepare('UPDATE accounts SET webhook_secret = ? WHERE id = ?'),
    setHealth: db.prepare(
      'UPDATE resources SET health_state = ?, health_changed_at = ? WHERE id = ?',
    ),
    counts: db.prepare(
      `SELECT (SELECT COUNT(*) FROM accounts) AS accounts,
              (SELECT COUNT(*) FROM teams) AS teams,
              (SELECT COUNT(*) FROM resources) AS resources`,
    ),
  };

  return {
    createAccount(username: string): Account {
      const result = s.insertAccount.run(username, now());
      return { id: Number(result.lastInsertRowid), username };
    },

    accountByUsername(username: string): Account | undefined {
      return s.accountByName.get(username) as Account | undefined;
    },

    /** Stores a key's digest; `label` is what journals and listings may show. */
    addApiKey(accountId: number, key: string, label: string): number {
      return Number(s.insertKey.run(accountId, digestKey(key), label, now()).lastInsertRowid);
    },

    /** The account of an API key, or `undefined` for an unknown or revoked key. */
    authenticate(key: string): Principal | undefined {
      const digest = digestKey(key);
      const row = s.keyByDigest.get(digest) as
        | {
            key_id: number;
            digest: Uint8Array;
            label: string;
            account_id: number;
            username: string;
          }
        | undefined;
      if (!row || !digestsEqual(row.digest, digest)) return undefined;
      return {
        accountId: row.account_id,
        username: row.username,
        keyId: row.key_id,
        keyLabel: row.label,
      };
    },

    /** Creates a resource owned by an account (`ownerId`) or a team (`teamId`). */
    createResource(
      input: ({ ownerId: number; teamId?: never } | { teamId: number; ownerId?: never }) & {
        key: string;
        name: string;
        uuid?: string;
      },
    ): Resource {
      const uuid = (input.uuid ?? randomUUID()).toLowerCase();
      const ownerId = input.ownerId ?? null;
      const teamId = input.teamId ?? null;
      const id = Number(
        s.insertResource.run(uuid, ownerId, teamId, input.key, input.name, now()).lastInsertRowid,
      );
      // Team members get default settings lazily (settings-store reads them as defaults).
      if (ownerId !== null) s.ensureSettings.run(id, ownerId, now());
      return toResource(s.resourceById.get(id) as ResourceRow | undefined) as Resource;
    },

    resourceByUuid(uuid: string): Resource | undefined {
      return toResource(s.resourceByUuid.get(uuid.toLowerCase()) as ResourceRow | undefined);
    },

    resourceByOwnerKey(owner: string, key: string): Resource | undefined {
      return toResource(s.resourceByOwnerKey.get(owner, key) as ResourceRow | undefined);
    },

    resourceByTeamKey(team: string, key: string): Resource | undefined {
      return toResource(s.resourceByTeamKey.get(team, key) as ResourceRow | undefined);
    },

    /** The resource with `key` of the same owner (account or team) as `resource`. */
    resourceBySameOwnerKey(resource: Resource, key: string): Resource | undefined {
      return resource.team !== null
        ? this.resourceByTeamKey(resource.team, key)
        : this.resourceByOwnerKey(resource.owner ?? '', key);
    },

    resourceById(id: number): Resource | undefined {
      return toResource(s.resourceById.get(id) as ResourceRow | undefined);
    },

    setCollaborator(resourceId: number, accountId: number, role: 'viewer' | 'editor'): void {
      s.upsertCollaborator.run(resourceId, accountId, role, now());
      s.ensureSettings.run(resourceId, accountId, now());
    },

    /**
     * The role of an account on a resource, or `undefined` when it may not see it: owner,
     * direct collaborator and team member combined by {@link roleOnResource}.
     */
    roleOf(resource: Resource, accountId: number): Role | undefined {
      const row = s.memberships.get(resource.id, accountId, resource.teamId, accountId) as {
        direct: 'viewer' | 'editor' | null;
        team: TeamRole | null;
      };
      return roleOnResource({
        owner: resource.ownerId === accountId,
        collaborator: row.direct ?? undefined,
        team: row.team ?? undefined,
      });
    },

    /** Whether the account is a direct collaborator (not counting the owner or teams). */
    isCollaborator(resourceId: number, accountId: number): boolean {
      const row = s.memberships.get(resourceId, accountId, null, accountId) as {
        direct: string | null;
      };
      return row.direct !== null;
    },

    collaborators(resourceId: number): { username: string; role: 'viewer' | 'editor' }[] {
      return s.collaborators.all(resourceId) as { username: string; role: 'viewer' | 'editor' }[];
    },

    /**
     * Removes a collaborator with their settings and notifications (and so their pending
     * webhooks): access and notifications end in the same transaction. A member of the
     * owning team keeps both, since they keep access.
     */
    removeCollaborator(resource: Resource, accountId: number): boolean {
      const resourceId = resource.id;
      const removed = s.deleteCollaborator.run(resourceId, accountId).changes > 0;
      if (removed && this.roleOf(resource, accountId) === undefined) {
        s.deleteSettings.run(resourceId, accountId);
        s.deleteNotifications.run(resourceId, accountId);
      }
      return removed;
    },

    /**
     * Resources an account owns, collaborates on or sees through a team, with its role on
     * each: accounts' resources first, then teams', each by owner and key.
     */
    resourcesOf(accountId: number): ResourceWithRole[] {
      const rows = s.resourcesOf.all(
        accountId,
        accountId,
        accountId,
        accountId,
      ) as unknown as (ResourceRow & {
        is_owner: number;
        direct: 'viewer' | 'editor' | null;
        team_role: TeamRole | null;
      })[];
      return rows.map((row) => ({
        ...(toResource(row) as Resource),
        role: roleOnResource({
          owner: row.is_owner === 1,
          collaborator: row.direct ?? undefined,
          team: row.team_role ?? undefined,
        }) as Role,
      }));
    },

    updateResource(resourceId: number, name: string, key: string): void {
      s.updateResource.run(name, key, resourceId);
    },

    /** Deletes a resource; its logs, members, settings, notifications, checks cascade. */
    deleteResource(resourceId: number): void {
      s.deleteResource.run(resourceId);
    },

    accountById(accountId: number): (Account & { createdAt: string }) | undefined {
      const row = s.accountById.get(accountId) as
        | { id: number; username: string; created_at: string }
        | undefined;
      return row && { id: row.id, username: row.username, createdAt: row.created_at };
    },

    /** The account's webhook signing secret, created on first use. */
    webhookSecret(accountId: number): string {
      const row = s.secretOf.get(accountId) as { webhook_secret: string | null } | undefined;
      if (row?.webhook_secret) return row.webhook_secret;
      const secret = `whsec_${randomBytes(32).toString('base64url')}`;
      s.setSecret.run(secret, accountId);
      return secret;
    },

    /** Sets the state on the resource record only; history is the health store's job. */
    setHealth(resourceId: number, health: HealthState): void {
      s.setHealth.run(health, now(), resourceId);
    },

    counts(): { accounts: number; teams: number; resources: number } {
      return s.counts.get() as { accounts: number; teams: number; resources: number };
    },
  };
}
