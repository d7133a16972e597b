/**
 * Splits a text stream into lines: `push` returns the lines a chunk completes and keeps the
 * rest until the next chunk. Empty lines (the follow stream's heartbeats) are dropped.
 */
export function createLineSplitter() {
  let pending = '';
  return {
    push(chunk: string): string[] {
      pending += chunk;
      const parts = pending.split('\n');
      pending = parts.pop() ?? '';
      return parts.map((line) => line.trim()).filter((line) => line !== '');
    },
  };
}
