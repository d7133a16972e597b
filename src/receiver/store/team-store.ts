import type { DatabaseSync } from 'node:sqlite';
import type { TeamRole } from '../access/authorization.js';

export interface Team {
  id: number;
  name: string;
  createdAt: string;
}

export interface TeamMember {
  username: string;
  role: TeamRole;
}

interface TeamRow {
  id: number;
  name: string;
  created_at: string;
}

const toTeam = (row: TeamRow | undefined): Team | undefined =>
  row && { id: row.id, name: row.name, createdAt: row.created_at };

export type TeamStore = ReturnType<typeof createTeamStore>;

/** Teams and their members (docs/receiver.md, "Teams"); resources live in the directory. */
export function createTeamStore(db: DatabaseSync, now: () => string) {
  const s = {
    insert: db.prepare('INSERT INTO teams (name, created_at) VALUES (?, ?)'),
    byName: db.prepare('SELECT id, name, created_at FROM teams WHERE name = ?'),
    role: db.prepare('SELECT role FROM team_members WHERE team_id = ? AND account_id = ?'),
    upsertMember: db.prepare(
      `INSERT INTO team_members (team_id, account_id, role, created_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (team_id, account_id) DO UPDATE SET role = excluded.role`,
    ),
    deleteMember: db.prepare('DELETE FROM team_members WHERE team_id = ? AND account_id = ?'),
    members: db.prepare(
      `SELECT a.username, m.role FROM team_members m JOIN accounts a ON a.id = m.account_id
        WHERE m.team_id = ? ORDER BY a.username`,
    ),
    admins: db.prepare(
      "SELECT COUNT(*) AS n FROM team_members WHERE team_id = ? AND role = 'admin'",
    ),
    teamsOf: db.prepare(
      `SELECT t.id, t.name, t.created_at, m.role FROM team_members m JOIN teams t ON t.id = m.team_id
        WHERE m.account_id = ? ORDER BY t.name`,
    ),
    // A former member keeps settings and inbox only where a direct share still gives access.
    deleteSettings: db.prepare(
      `DELETE FROM notification_settings WHERE account_id = ?
          AND resource_id IN (SELECT id FROM resources WHERE team_id = ?)
          AND NOT EXISTS (SELECT 1 FROM collaborators c
                WHERE c.resource_id = notification_settings.resource_id AND c.account_id = ?)`,
    ),
    deleteNotifications: db.prepare(
      `DELETE FROM notifications WHERE account_id = ?
          AND resource_id IN (SELECT id FROM resources WHERE team_id = ?)
          AND NOT EXISTS (SELECT 1 FROM collaborators c
                WHERE c.resource_id = notifications.resource_id AND c.account_id = ?)`,
    ),
  };

  return {
    create(name: string): Team {
      const at = now();
      const id = Number(s.insert.run(name, at).lastInsertRowid);
      return { id, name, createdAt: at };
    },

    byName(name: string): Team | undefined {
      return toTeam(s.byName.get(name) as TeamRow | undefined);
    },

    /** The account's role on the team, or `undefined` when it is not a member. */
    roleOf(teamId: number, accountId: number): TeamRole | undefined {
      return (s.role.get(teamId, accountId) as { role: TeamRole } | undefined)?.role;
    },

    setMember(teamId: number, accountId: number, role: TeamRole): void {
      s.upsertMember.run(teamId, accountId, role, now());
    },

    /**
     * Removes a member; their settings and notifications (and so pending webhooks) for the
     * team's resources go in the same transaction, except where they are a collaborator.
     */
    removeMember(teamId: number, accountId: number): boolean {
      const removed = s.deleteMember.run(teamId, accountId).changes > 0;
      if (removed) {
        s.deleteSettings.run(accountId, teamId, accountId);
        s.deleteNotifications.run(accountId, teamId, accountId);
      }
      return removed;
    },

    members(teamId: number): TeamMember[] {
      return s.members.all(teamId) as unknown as TeamMember[];
    },

    adminCount(teamId: number): number {
      return (s.admins.get(teamId) as { n: number }).n;
    },

    /** Teams the account is a member of, with its role, by name. */
    teamsOf(accountId: number): (Team & { role: TeamRole })[] {
      return (s.teamsOf.all(accountId) as unknown as (TeamRow & { role: TeamRole })[]).map(
        (row) => ({ ...(toTeam(row) as Team), role: row.role }),
      );
    },
  };
}
