import { DatabaseSync } from 'node:sqlite';
import { migrate } from './migrations.js';

const WAL_CHECKPOINT_BYTES = 40 * 1024 * 1024;

/**
 * Opens the SQLite database (`:memory:` or a file), sets the pragmas the receiver relies on
 * and migrates the schema. Files use WAL with `synchronous=FULL`, so a commit is on disk
 * before the 202 that acknowledges it (docs/protocol.md, "Answers": acknowledge only after commit).
 */
export function openDatabase(path: string): DatabaseSync {
  const db = new DatabaseSync(path);
  try {
    db.exec('PRAGMA foreign_keys = ON');
    db.exec('PRAGMA busy_timeout = 5000');
    if (path !== ':memory:' && path !== '') {
      // Only a new database takes this page size (an existing one keeps its own). 16 KiB
      // pages: 4 KiB ones cost ≈ 5 % less CPU when logs arrive in time order, but ≈ 25 %
      // more when they do not (backfills, replays, clocks apart), where each record's index
      // entry lands on a different page and every such page is written at commit (docs/performance.md, "Profile").
      db.exec(`PRAGMA page_size = ${16 * 1024}`);
      db.exec('PRAGMA journal_mode = WAL');
      db.exec('PRAGMA synchronous = FULL');
      // Checkpoints run inside the commit that crosses the threshold. With SQLite's default
      // (1000 pages) a busy receiver checkpointed every few requests, writing the same index
      // pages to the database again and again; ≈ 40 MiB of WAL copies each page once per
      // checkpoint (docs/performance.md). Durability is the WAL's fsync at each commit either way; the
      // size limit trims the file after a checkpoint reset it.
      const { page_size: pageSize } = db.prepare('PRAGMA page_size').get() as {
        page_size: number;
      };
      db.exec(`PRAGMA wal_autocheckpoint = ${Math.ceil(WAL_CHECKPOINT_BYTES / pageSize)}`);
      db.exec(`PRAGMA journal_size_limit = ${64 * 1024 * 1024}`);
    }
    migrate(db);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/** Runs `work` in one transaction: committed when it returns, rolled back when it throws. */
export function transaction<T>(db: DatabaseSync, work: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}
