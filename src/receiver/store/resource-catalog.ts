import type { DatabaseSync } from 'node:sqlite';
import type { DirectoryStore, Resource } from './directory-store.js';

/**
 * Every resource there is, for the admin token's `GET /api/resources` (docs/receiver.md,
 * "Admin token reads"): accounts' resources first, then teams', each by owner and key, the
 * order an account's own listing uses.
 */
export function createResourceCatalog(db: DatabaseSync, directory: DirectoryStore) {
  const ids = db.prepare(
    `SELECT r.id FROM resources r LEFT JOIN accounts a ON a.id = r.owner_id
       LEFT JOIN teams t ON t.id = r.team_id
     ORDER BY r.team_id IS NOT NULL, COALESCE(a.username, t.name), r.key`,
  );
  return {
    all(): Resource[] {
      const rows = ids.all() as { id: number }[];
      return rows.flatMap(({ id }) => directory.resourceById(id) ?? []);
    },
  };
}
