import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { buildReceiver } from '../../src/receiver/index.js';

const execFileAsync = promisify(execFile);

export const DEMO_SEED = JSON.parse(
  readFileSync(new URL('../../examples/demo-seed.json', import.meta.url), 'utf8'),
) as { resources: { uuid: string; key: string }[] };
export const DEMO_KEY = 'demo-dev-key-0000000001';
export const UUIDS = Object.fromEntries(DEMO_SEED.resources.map((r) => [r.key, r.uuid])) as Record<
  'checkout-api' | 'billing-worker' | 'edge-host',
  string
>;
const ADMIN_TOKEN = 'examples-admin-token-000001';
const root = new URL('../..', import.meta.url).pathname;

/** A real receiver on 127.0.0.1 with the demo seed, as `npx reslog-receiver --seed examples/demo-seed.json`. */
export async function startDemoReceiver() {
  const app: FastifyInstance = buildReceiver({ seed: DEMO_SEED, adminToken: ADMIN_TOKEN });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url,
    /** Every log of a resource, oldest first, as the read API returns it. */
    async logs(uuid: string): Promise<Record<string, any>[]> {
      const all: Record<string, any>[] = [];
      let cursor: string | null = null;
      do {
        const query = new URLSearchParams({
          order: 'asc',
          limit: '1000',
          ...(cursor ? { cursor } : {}),
        });
        const response = await fetch(`${url}/u/demo/resources/${uuid}/logs/?${query}`, {
          headers: { 'x-api-key': DEMO_KEY },
        });
        const page = (await response.json()) as {
          logs: Record<string, any>[];
          next_cursor: string | null;
        };
        all.push(...page.logs);
        cursor = page.next_cursor;
      } while (cursor);
      return all;
    },
    close: () => app.close(),
  };
}

/** Runs `node <args>` from the repository root, as `npm run example:<name>` does. */
export async function runNode(args: string[], env: Record<string, string>, timeoutMillis = 60_000) {
  const result = await execFileAsync(process.execPath, args, {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', NODE_NO_WARNINGS: '1', ...env },
    timeout: timeoutMillis,
  });
  return result;
}
