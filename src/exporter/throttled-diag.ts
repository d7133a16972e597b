import { diag } from '@opentelemetry/api';
import { redact } from '../transport/http-transport.js';

export interface ThrottledDiag {
  /** Logs through OpenTelemetry's `diag` at most once per `intervalMillis` per topic. */
  warn(topic: string, message: string): void;
  error(topic: string, message: string): void;
}

/**
 * A failing service makes every export fail the same way; one line per topic and interval,
 * with the count of lines held back, keeps the application's own log readable. Every message
 * is scrubbed of the API key first.
 */
export function createThrottledDiag(
  secrets: readonly string[],
  intervalMillis = 10_000,
): ThrottledDiag {
  const last = new Map<string, { at: number; suppressed: number }>();

  const emit = (level: 'warn' | 'error', topic: string, message: string) => {
    const now = Date.now();
    const seen = last.get(topic);
    if (seen && now - seen.at < intervalMillis) {
      seen.suppressed++;
      return;
    }
    const held = seen?.suppressed ? ` (${seen.suppressed} similar messages suppressed)` : '';
    last.set(topic, { at: now, suppressed: 0 });
    diag[level](redact(`reslog: ${message}${held}`, secrets));
  };

  return {
    warn: (topic, message) => emit('warn', topic, message),
    error: (topic, message) => emit('error', topic, message),
  };
}
