/**
 * Strings stored without loss (docs/receiver.md, "Lossless read-back"). node:sqlite writes
 * TEXT as UTF-8, which has no lone surrogates (`"\ud800"` in JSON is a valid JS string), so
 * they would read back as U+FFFD. A string that is not well-formed UTF-16 is stored as a
 * BLOB of its UTF-16LE code units instead; reading tells the two apart by type, so no flag
 * is needed and well-formed strings (nearly all) stay plain TEXT.
 */

interface WellFormed {
  isWellFormed(): boolean;
}

/** The SQLite value of a string: itself, or a UTF-16LE BLOB when it has lone surrogates. */
export function sqlText(value: string): string | Uint8Array;
export function sqlText(value: string | null): string | Uint8Array | null;
export function sqlText(value: string | null): string | Uint8Array | null {
  if (value === null || (value as unknown as WellFormed).isWellFormed()) return value;
  return Buffer.from(value, 'utf16le');
}

/** The string a stored value of {@link sqlText} stands for. */
export function fromSqlText(value: string | Uint8Array): string;
export function fromSqlText(value: string | Uint8Array | null): string | null;
export function fromSqlText(value: string | Uint8Array | null): string | null {
  if (value === null || typeof value === 'string') return value;
  return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('utf16le');
}
