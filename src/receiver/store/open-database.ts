import { DatabaseSync } from 'node:sqlite';
import { migrate } from './migrations.js';

/**
 * Opens the SQLite database (`:memory:` or a file), sets the pragmas the receiver relies on
 * and migrates the schema. Files use WAL with `synchronous=FULL`, so a commit is on disk
 * before the 202 that acknowledges it (DESIGN.md §2: acknowledge only after commit).
 */
export function openDatabase(path: string): DatabaseSync {
  const db = new DatabaseSync(path);
  try {
    db.exec('PRAGMA foreign_keys = ON');
    db.exec('PRAGMA busy_timeout = 5000');
    if (path !== ':memory:' && path !== '') {
      db.exec('PRAGMA journal_mode = WAL');
      db.exec('PRAGMA synchronous = FULL');
      // Checkpoints run inside the commit that crosses the threshold. With SQLite's default
      // (1000 pages, 4 MiB) a busy receiver checkpointed every few requests, writing the
      // same index pages to the database again and again; 10 000 pages (≈ 40 MiB of WAL)
      // copy each page once per checkpoint (issue 7). Durability is the WAL's fsync at
      // each commit either way; the limit trims the file after a checkpoint reset it.
      db.exec('PRAGMA wal_autocheckpoint = 10000');
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
