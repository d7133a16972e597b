// Loaded with `node --import ./examples/pino/instrumentation.ts examples/pino/app.ts`, before
// the app, as OpenTelemetry's ESM instrumentation requires: registers the import hook that lets
// @opentelemetry/instrumentation-pino patch pino, then starts the NodeSDK with reslog.
import { register } from 'node:module';
import { PinoInstrumentation } from '@opentelemetry/instrumentation-pino';
import { BatchLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { ResourceLogExporter } from 'reslog';

register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);

export const exporter = new ResourceLogExporter();
const sdk = new NodeSDK({
  logRecordProcessors: [new BatchLogRecordProcessor({ exporter })],
  instrumentations: [new PinoInstrumentation()],
});
sdk.start();

// Flush on exit: beforeExit fires once the app has nothing left to do.
process.once('beforeExit', async () => {
  await sdk.shutdown();
  console.log(`pino: exported ${exporter.getStats().exported}`);
});
