// A node:http server whose request logs carry trace context: the NodeSDK creates a span per
// request, and every log emitted while handling it gets that span's trace_id and span_id, so
// a log line in the receiver can be found by trace (GET .../logs/?trace_id=...).
// Environment: RESLOG_* and OTEL_RESOURCE_ATTRIBUTES as in examples/node-sdk, OTEL_TRACES_EXPORTER=none.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { logs, SeverityNumber, trace } from '@opentelemetry/api';
import { BatchLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { ResourceLogExporter } from 'reslog';

const exporter = new ResourceLogExporter();
// The NodeSDK registers a tracer provider only when it has a span processor. Spans here exist to
// give logs their context; to export them too, put your trace exporter's processor here instead.
const keepSpansLocal = {
  onStart() {},
  onEnd() {},
  forceFlush: async () => {},
  shutdown: async () => {},
};
const sdk = new NodeSDK({
  logRecordProcessors: [new BatchLogRecordProcessor({ exporter })],
  spanProcessors: [keepSpansLocal],
});
sdk.start();

const tracer = trace.getTracer('example.http-server');
const logger = logs.getLogger('example.http-server');

const server = createServer((request, response) => {
  tracer.startActiveSpan(`${request.method} ${request.url}`, (span) => {
    const attributes = {
      'http.request.method': request.method ?? '',
      'url.path': request.url ?? '',
    };
    logger.emit({ severityNumber: SeverityNumber.INFO, body: 'request received', attributes });
    const ok = request.url !== '/fail';
    response.statusCode = ok ? 200 : 500;
    logger.emit({
      severityNumber: ok ? SeverityNumber.INFO : SeverityNumber.ERROR,
      body: ok ? 'request served' : 'request failed',
      attributes: { ...attributes, 'http.response.status_code': response.statusCode },
    });
    response.end(`trace ${span.spanContext().traceId}\n`);
    span.end();
  });
});

// Serve two requests to ourselves (on 127.0.0.1), then stop: a self-contained run.
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as AddressInfo;
for (const path of ['/pay', '/fail']) {
  const answer = await fetch(`http://127.0.0.1:${port}${path}`);
  console.log(`${path} → ${answer.status} ${(await answer.text()).trim()}`);
}
server.close();
await sdk.shutdown();
console.log(`http-server: exported ${exporter.getStats().exported}`);
