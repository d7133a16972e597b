// The smallest setup: LoggerProvider + BatchLogRecordProcessor + ResourceLogExporter.
// Configured through the environment (RESLOG_BASE_URL, RESLOG_API_KEY and RESLOG_RESOURCE,
// a resource URL or a UUID with RESLOG_USERNAME); see examples/README.md.
import { SeverityNumber } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { ResourceLogExporter } from 'reslog';

const exporter = new ResourceLogExporter();
const provider = new LoggerProvider({
  resource: resourceFromAttributes({ 'service.name': 'basic-example' }),
  processors: [new BatchLogRecordProcessor({ exporter })],
});
const logger = provider.getLogger('example.basic', '1.0.0');

logger.emit({ severityNumber: SeverityNumber.INFO, severityText: 'INFO', body: 'service started' });
logger.emit({
  severityNumber: SeverityNumber.WARN,
  severityText: 'WARN',
  body: 'cache miss rate high',
  attributes: { 'cache.name': 'sessions', 'cache.miss_ratio': 0.42 },
});
logger.emit({
  severityNumber: SeverityNumber.ERROR,
  severityText: 'ERROR',
  body: 'payment provider timed out',
  attributes: { 'peer.service': 'payments', 'retry.count': 3 },
});

// shutdown() flushes the processor and waits for the exporter's answer.
await provider.shutdown();
const stats = exporter.getStats();
console.log(`basic: exported ${stats.exported}, dropped ${JSON.stringify(stats.dropped)}`);
