// Demo app for docker/compose.yaml: ships a few log batches to the receiver the way the
// service's existing SDKs do (logs[] of {level, message, logger, ts, extra} + resource_id),
// then waits until the receiver holds them. Node 24 built-ins only, so it runs on the receiver
// image itself (no extra image to pull or build).
const base = process.env.RESLOG_BASE_URL ?? 'http://receiver:8765';
const username = process.env.RESLOG_USERNAME ?? 'alice';
const resource = process.env.RESLOG_RESOURCE ?? '6f1d2c3b-8a4e-4f5a-9b6c-7d8e9f0a1b2c';
const apiKey = process.env.RESLOG_API_KEY ?? 'alice-dev-key-0000000001';
const batches = Number(process.env.DEMO_BATCHES ?? 5);
const url = `${base}/u/${username}/resources/${resource}/logs/`;

for (let b = 0; b < batches; b++) {
  const logs = Array.from({ length: 10 }, (_, i) => ({
    ts: new Date().toISOString(),
    level: i === 9 ? 'error' : 'info',
    message: `demo batch ${b} record ${i}`,
    logger: 'demo.app',
    extra: { batch: b, record: i },
  }));
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-key': apiKey,
      'idempotency-key': `demo-${b}`,
    },
    body: JSON.stringify({ resource_id: resource, sdk: 'demo', sdk_version: '1', logs }),
  });
  console.error(`batch ${b}: ${response.status} ${await response.text()}`);
  if (response.status !== 202) process.exit(1);
}
const check = await fetch(`${url}?limit=1`, { headers: { 'x-api-key': apiKey } });
console.error(`read back: ${check.status} ${(await check.text()).slice(0, 200)}`);
process.exit(check.ok ? 0 : 1);
