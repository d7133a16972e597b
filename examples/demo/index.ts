// `npm start`: a receiver plus an instrumented app shipping logs to it, then a summary.
//   npm start                      in-memory receiver on 127.0.0.1:8765 (another free port if taken)
//   npm start -- --db demo.sqlite  keep the data in a file
//   npm start -- --keep-running    leave the receiver up to explore with curl (Ctrl-C stops it)
//   npm start -- --port 0          any free port
// Exit code 0 only when every emitted record was read back from the receiver.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { buildReceiver } from 'reslog-receiver';
import { createDemoApp } from './app.ts';
import { createProgress } from './progress.ts';
import { readBack, renderSummary } from './summary.ts';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string' },
    port: { type: 'string', default: '8765' },
    'keep-running': { type: 'boolean', default: false },
  },
});
const seed = JSON.parse(readFileSync(new URL('../demo-seed.json', import.meta.url), 'utf8'));
const API_KEY = 'demo-dev-key-0000000001';
const USERNAME = 'demo';

const receiver = buildReceiver({ seed, ...(args.db ? { db: args.db } : {}), logger: false });
const url = await listen(Number(args.port));
console.log(
  `reslog demo: receiver listening on ${url}${args.db ? ` (data in ${args.db})` : ' (in memory)'}`,
);
// The receiver's web console (docs/receiver.md, "Web console"), signed in with the demo key.
console.log(`reslog demo: web console at ${url}/ (sign in with the API key ${API_KEY})`);

const app = createDemoApp(url, API_KEY, USERNAME);
const progress = createProgress(() => ({
  emitted: Object.values(app.emitted).reduce((a, b) => a + b, 0),
  acknowledged: app.acknowledged(),
}));
await app.run(async () => {
  // The error burst takes checkout down a notch; it recovers once traffic is normal again.
  await setHealth('checkout-api', 'degraded', 'payment provider timing out');
});
await setHealth('checkout-api', 'healthy', 'payment provider recovered');
await setHealth('billing-worker', 'healthy', 'queue drained');
await setHealth('edge-host', 'healthy', 'serving');
await app.shutdown();
progress.stop();

const resources = seed.resources as { uuid: string; key: string; name: string }[];
const summary = await readBack(url, API_KEY, USERNAME, resources, app.emitted);
console.log(renderSummary(summary, app.stats(), url, API_KEY, USERNAME));

if (args['keep-running']) {
  console.log(`\nThe receiver stays up at ${url}; press Ctrl-C to stop.`);
  console.log(`Web console: ${url}/ (API key ${API_KEY})`);
  const stop = async () => {
    await receiver.close();
    process.exit(summary.complete ? 0 : 1);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} else {
  console.log(`\nRun npm start -- --keep-running to keep the receiver and its web console open.`);
  await receiver.close();
  process.exitCode = summary.complete ? 0 : 1;
}

async function listen(port: number): Promise<string> {
  try {
    return await receiver.listen({ host: '127.0.0.1', port });
  } catch (error) {
    if ((error as { code?: string }).code !== 'EADDRINUSE') throw error;
    console.log(`port ${port} is taken; using a free one`);
    return receiver.listen({ host: '127.0.0.1', port: 0 });
  }
}

async function setHealth(key: string, state: string, reason: string) {
  const uuid = (seed.resources as { uuid: string; key: string }[]).find((r) => r.key === key)?.uuid;
  const response = await fetch(`${url}/api/resources/${uuid}/health`, {
    method: 'PUT',
    headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ state, reason }),
  });
  if (!response.ok)
    throw new Error(`setting health of ${key} failed: ${response.status} ${await response.text()}`);
}
