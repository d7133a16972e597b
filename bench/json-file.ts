const WIDTH = 100;

/**
 * `JSON.stringify(value, null, 2)` laid out as Biome's formatter lays out JSON, so committed
 * results pass `npm run lint` as written: an array of numbers or strings goes on one line
 * when it fits in 100 columns, and an array of numbers that does not fit is filled, as many
 * per line as fit.
 */
export function formatJson(value: unknown): string {
  const text = JSON.stringify(value, null, 2);
  const laidOut = text.replace(
    /^( *)("[^"]*": )?\[\n([^[\]{}]*?)\n *\]/gm,
    (whole, indent: string, key: string | undefined, body: string, at: number, all: string) => {
      const items = body.split('\n').map((line) => line.trim().replace(/,$/, ''));
      const line = `${indent}${key ?? ''}[${items.join(', ')}]`;
      // The comma after the array counts towards the line's width.
      const comma = all[at + whole.length] === ',' ? 1 : 0;
      if (line.length + comma <= WIDTH) return line;
      if (!items.every((item) => /^-?[\d.eE+-]+$/.test(item))) return whole;
      const inner = `${indent}  `;
      const rows: string[] = [];
      let row = '';
      for (const [i, item] of items.entries()) {
        const piece = i < items.length - 1 ? `${item},` : item;
        if (row && `${inner}${row} ${piece}`.length > WIDTH) {
          rows.push(`${inner}${row}`);
          row = piece;
        } else row = row ? `${row} ${piece}` : piece;
      }
      rows.push(`${inner}${row}`);
      return `${indent}${key ?? ''}[\n${rows.join('\n')}\n${indent}]`;
    },
  );
  return `${laidOut}\n`;
}
