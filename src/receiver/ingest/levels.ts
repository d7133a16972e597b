import { LEVEL_ALIASES, LEVEL_RANKS, LEVELS, type Level } from '../../contract/levels.js';

/**
 * Log levels as the receiver reads them (docs/protocol.md, "Levels"). Names, ranks and aliases
 * are the contract's (src/contract/levels.ts); the service's SDKs send any name Python's
 * `logging` has, so a name that is not canonical is kept as sent, with the rank of `info`,
 * `level N` or `notset`.
 */

/** Longest level name stored; a longer one rejects its record (`invalid_level`). */
export const MAX_LEVEL_NAME_LENGTH = 64;

/** Rank of Python's `NOTSET`. */
const NOTSET_RANK = 0;

const NAME_OF_RANK = new Map<number, Level>(LEVELS.map((level) => [LEVEL_RANKS[level], level]));

/** Python's name of a level it has no name for: `logging.getLevelName(25)` is `Level 25`. */
const NUMBERED = /^level (\d+)$/i;

/** A record's level: the name it reads back as and its rank. */
export interface LogLevel {
  name: string;
  rank: number;
}

/** The canonical level named by `text` (case-insensitive, aliases allowed), or `undefined`. */
export function parseLevel(text: string): Level | undefined {
  const lower = text.trim().toLowerCase();
  if ((LEVELS as readonly string[]).includes(lower)) return lower as Level;
  // An own-property check: `constructor` or `__proto__` must not read Object.prototype.
  return Object.hasOwn(LEVEL_ALIASES, lower) ? LEVEL_ALIASES[lower] : undefined;
}

function numberedRank(digits: string): number {
  // A rank is an SQLite integer compared with others: beyond 2^53 − 1 they all rank alike.
  return Math.min(Number(digits), Number.MAX_SAFE_INTEGER);
}

/**
 * The level of a record's `level` text: a canonical name or alias becomes the canonical
 * name; `level N` ranks N, `notset` 0 and any other name as `info`, each kept as sent.
 * `undefined` when the name is longer than {@link MAX_LEVEL_NAME_LENGTH}.
 */
export function readLevel(text: string): LogLevel | undefined {
  const canonical = parseLevel(text);
  if (canonical) return { name: canonical, rank: LEVEL_RANKS[canonical] };
  if (text.length > MAX_LEVEL_NAME_LENGTH) return undefined;
  const numbered = NUMBERED.exec(text.trim());
  if (numbered) return { name: text, rank: numberedRank(numbered[1] as string) };
  if (text.trim().toLowerCase() === 'notset') return { name: text, rank: NOTSET_RANK };
  return { name: text, rank: LEVEL_RANKS.info };
}

/** The rank of a canonical level. */
export function levelRank(level: Level): number {
  return LEVEL_RANKS[level];
}

/** The canonical name of a rank, or `undefined` when no canonical level has it. */
export function canonicalLevelOfRank(rank: number): Level | undefined {
  return NAME_OF_RANK.get(rank);
}

/**
 * The name a stored log reads back as when no name of its own was stored: its canonical
 * level (`level N` for a rank no canonical level has, as Python would name it).
 */
export function levelNameOfRank(rank: number): string {
  return NAME_OF_RANK.get(rank) ?? `level ${rank}`;
}

/**
 * The minimum rank a read filter (`?level=`) asks for: a canonical name or alias,
 * `level N`, `notset`, or a rank as a whole number; `undefined` for anything else.
 */
export function parseMinLevel(text: string): number | undefined {
  const canonical = parseLevel(text);
  if (canonical) return LEVEL_RANKS[canonical];
  const trimmed = text.trim();
  if (/^\d{1,16}$/.test(trimmed)) return numberedRank(trimmed);
  const numbered = NUMBERED.exec(trimmed);
  if (numbered) return numberedRank(numbered[1] as string);
  if (trimmed.toLowerCase() === 'notset') return NOTSET_RANK;
  return undefined;
}
