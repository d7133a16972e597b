/**
 * `JSON.stringify(value, null, 2)` with arrays of numbers and strings on one line when they
 * fit in 100 columns: the layout Biome's formatter gives JSON, so committed results pass
 * `npm run lint` as written.
 */
export function formatJson(value: unknown): string {
  const text = JSON.stringify(value, null, 2);
  const collapsed = text.replace(
    /^( *)("[^"]*": )?\[\n([^[\]{}]*?)\n *\]/gm,
    (whole, indent: string, key = '', body: string) => {
      const items = body.split('\n').map((line) => line.trim());
      const line = `${indent}${key}[${items.join(' ')}]`;
      return line.length <= 100 ? line : whole;
    },
  );
  return `${collapsed}\n`;
}
