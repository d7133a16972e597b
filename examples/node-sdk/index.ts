// The NodeSDK with ResourceLogProcessor in `logRecordProcessors` (the setup docs/exporter.md
// recommends inside a service), configured only through the environment:
//   RESLOG_BASE_URL, RESLOG_API_KEY, RESLOG_USERNAME          where and as whom to send
//   OTEL_RESOURCE_ATTRIBUTES=service.name=checkout,reslog.resource.uuid=<uuid>   which resource
//   OTEL_TRACES_EXPORTER=none OTEL_METRICS_EXPORTER=none       no trace/metric exporters here
import { logs, SeverityNumber } from '@opentelemetry/api';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { ResourceLogProcessor } from 'reslog';

// In place of `new BatchLogRecordProcessor({ exporter: new ResourceLogExporter() })`.
const processor = new ResourceLogProcessor();
const sdk = new NodeSDK({ logRecordProcessors: [processor] });
sdk.start();

const logger = logs.getLogger('example.node-sdk');
for (const [severityNumber, severityText, body] of [
  [SeverityNumber.INFO, 'INFO', 'order received'],
  [SeverityNumber.INFO, 'INFO', 'order paid'],
  [SeverityNumber.ERROR, 'ERROR', 'shipping label failed'],
] as const) {
  logger.emit({ severityNumber, severityText, body, attributes: { 'order.id': 1042 } });
}

// shutdown() queues the open batches and sends them before it resolves.
await sdk.shutdown();
console.log(`node-sdk: exported ${processor.getStats().exported}`);
