/**
 * Scenario 6's check that the backlog dropped the oldest records of the outage first. The
 * bench's messages end in `#<n>`, the record's number in emit order; the stored numbers are
 * read straight from the receiver's SQLite file (read-only), so the check depends on no API
 * of the receiver's and sees duplicates too.
 */
import { DatabaseSync } from 'node:sqlite';

/** Record numbers `first … last`, both included. */
export interface RecordRange {
  first: number;
  last: number;
}

export interface StoredNumbers {
  /** `stored[n]` is 1 when record `#n` was stored once or more (n < emitted). */
  stored: Uint8Array;
  rows: number;
  /** Rows whose record number was already stored. */
  duplicates: number;
  /** Rows without a number below `emitted`: records this run did not emit. */
  foreign: number;
}

export interface DropOrder {
  /** Records the receiver had stored when it went away: `#0 … #n-1` must all be stored. */
  storedBeforeOutage: number;
  /** Records the app had emitted when the outage was announced. */
  emittedAtOutage: number;
  /** The first missing ranges, in record order (at most 10 listed). */
  missing: RecordRange[];
  /**
   * A batch stored from inside the dropped range: the backlog never drops the batch it is
   * sending, so when the receiver comes back, exports queued while that first request is in
   * flight drop the batches behind it instead. At most one batch, always the outage's last.
   */
  keptInFlight?: RecordRange;
  missingRanges: number;
  missingRecords: number;
  duplicates: number;
  foreign: number;
  /**
   * The records missing are one range that begins at or after `storedBeforeOutage`, as long
   * as the exporter's drops (but for `keptInFlight`); every record after it is stored, but
   * for as many as the processor's queue dropped; no record is stored twice.
   */
  oldestFirst: boolean;
  /** Why `oldestFirst` is false. */
  failure?: string;
}

const openReadOnly = (db: string) => new DatabaseSync(db, { readOnly: true });

/** Rows in the `logs` table (the bench stores one resource only). */
export function countStoredRows(db: string): number {
  const database = openReadOnly(db);
  try {
    const row = database.prepare('SELECT count(*) AS n FROM logs').get() as { n: number };
    return Number(row.n);
  } finally {
    database.close();
  }
}

export function readStoredNumbers(db: string, emitted: number): StoredNumbers {
  const stored = new Uint8Array(emitted);
  let rows = 0;
  let duplicates = 0;
  let foreign = 0;
  const database = openReadOnly(db);
  try {
    const numbers = database.prepare(
      `SELECT CASE WHEN instr(message, '#') > 0
         THEN CAST(substr(message, instr(message, '#') + 1) AS INTEGER) END AS n FROM logs`,
    );
    for (const row of numbers.iterate() as Iterable<{ n: number | null }>) {
      rows++;
      const n = row.n;
      if (n === null || n < 0 || n >= emitted) foreign++;
      else if (stored[n] === 1) duplicates++;
      else stored[n] = 1;
    }
  } finally {
    database.close();
  }
  return { stored, rows, duplicates, foreign };
}

export function missingRanges(stored: Uint8Array): RecordRange[] {
  const ranges: RecordRange[] = [];
  for (let n = 0; n < stored.length; n++) {
    if (stored[n] === 1) continue;
    const first = n;
    while (n + 1 < stored.length && stored[n + 1] === 0) n++;
    ranges.push({ first, last: n });
  }
  return ranges;
}

const length = (range: RecordRange) => range.last - range.first + 1;

export function dropOrder(input: {
  numbers: StoredNumbers;
  storedBeforeOutage: number;
  emittedAtOutage: number;
  droppedByExporter: number;
  droppedByQueue: number;
  /** Records per export (the processor's `maxExportBatchSize`): the most one batch holds. */
  batchRecords: number;
}): DropOrder {
  const { numbers, storedBeforeOutage, droppedByExporter, droppedByQueue } = input;
  const ranges = missingRanges(numbers.stored);
  let [oldest, ...rest] = ranges;
  let keptInFlight: RecordRange | undefined;
  const [next] = rest;
  if (
    oldest &&
    next &&
    next.first - oldest.last - 1 <= input.batchRecords &&
    length(oldest) + length(next) === droppedByExporter
  ) {
    keptInFlight = { first: oldest.last + 1, last: next.first - 1 };
    oldest = { first: oldest.first, last: next.last };
    rest = rest.slice(1);
  }
  const afterOldest = rest.reduce((sum, range) => sum + length(range), 0);
  let failure: string | undefined;
  if (numbers.duplicates > 0 || numbers.foreign > 0) {
    failure = `${numbers.duplicates} records stored twice, ${numbers.foreign} not from this run`;
  } else if (droppedByExporter === 0) {
    failure = 'the exporter dropped nothing: the outage did not outgrow the backlog';
  } else if (!oldest || oldest.first < storedBeforeOutage) {
    failure = `record #${oldest?.first} is missing, though stored before the outage`;
  } else if (length(oldest) - (keptInFlight ? length(keptInFlight) : 0) !== droppedByExporter) {
    failure = `the first missing range holds ${length(oldest)} records, the exporter dropped ${droppedByExporter}`;
  } else if (afterOldest !== droppedByQueue) {
    failure = `${afterOldest} records missing after #${oldest.last}, the processor's queue dropped ${droppedByQueue}`;
  }
  return {
    storedBeforeOutage,
    emittedAtOutage: input.emittedAtOutage,
    missing: ranges.slice(0, 10),
    ...(keptInFlight ? { keptInFlight } : {}),
    missingRanges: ranges.length,
    missingRecords: ranges.reduce((sum, range) => sum + length(range), 0),
    duplicates: numbers.duplicates,
    foreign: numbers.foreign,
    oldestFirst: failure === undefined,
    ...(failure === undefined ? {} : { failure }),
  };
}
