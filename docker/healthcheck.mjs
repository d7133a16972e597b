// HEALTHCHECK probe: the image has no curl (and the local base has no shell), node is enough.
// Exits 0 when /_receiver/health/ready answers 200 (the database answers a query), else 1.
const port = process.env.RESLOG_RECEIVER_PORT || '8765';
try {
  const response = await fetch(`http://127.0.0.1:${port}/_receiver/health/ready`, {
    signal: AbortSignal.timeout(2000),
  });
  process.exit(response.ok ? 0 : 1);
} catch {
  process.exit(1);
}
