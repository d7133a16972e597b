import { describe, expect, it } from 'vitest';
import { runNode } from './harness.js';

describe('the demo (npm start)', () => {
  it('ships a mix of logs for three services and reads every one back', async () => {
    const { stdout } = await runNode(['examples/demo/index.ts', '--port', '0'], {}, 90_000);

    expect(stdout).toMatch(/receiver listening on http:\/\/127\.0\.0\.1:\d+ \(in memory\)/);
    expect(stdout).toMatch(
      /web console at http:\/\/127\.0\.0\.1:\d+\/ \(sign in with the API key demo-dev-key-0000000001\)/,
    );
    const rows = Object.fromEntries(
      stdout
        .split('\n')
        .map((line) => line.trim().split(/\s+/))
        .filter((cells) => ['checkout-api', 'billing-worker', 'edge-host'].includes(cells[0] ?? ''))
        .map((cells) => [cells[0], cells]),
    );
    // resource, emitted, read back, debug, info, warning, error, critical, alert, health, changes, notifications
    for (const key of ['checkout-api', 'billing-worker', 'edge-host']) {
      const row = rows[key] as string[];
      expect(row[1]).toBe(row[2]);
      expect(row[9]).toBe('healthy');
    }
    expect(Number(rows['checkout-api']?.[6])).toBeGreaterThan(0); // the error burst
    expect(rows['checkout-api']?.[10]).toBe('2'); // degraded, then healthy again
    expect(Number(rows['checkout-api']?.[11])).toBeGreaterThan(0); // notifications for its owner
    expect(stdout).toMatch(/all \d+ emitted records were read back from the receiver/);
    expect(stdout).toContain("curl -H 'X-API-Key: demo-dev-key-0000000001'");
  }, 120_000);
});
