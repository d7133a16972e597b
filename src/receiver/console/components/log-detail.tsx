import type { StoredLog } from '../api-types.ts';
import { formatTs, prettyJson } from '../format.ts';
import { CopyButton } from './copy-button.tsx';
import { JsonBlock } from './json-block.tsx';
import { LevelBadge } from './level-badge.tsx';

function Field({ name, value }: { name: string; value: string | number | null | undefined }) {
  return (
    <>
      <dt>{name}</dt>
      <dd class="mono">{value === null || value === undefined || value === '' ? '—' : value}</dd>
    </>
  );
}

/** One record in full: fields, message, trace context and its JSON parts, each copyable. */
export function LogDetail(props: {
  log: StoredLog;
  onClose(): void;
  onTrace(traceId: string): void;
}) {
  const { log } = props;
  return (
    <aside class="log-detail" aria-label="Record detail">
      <header class="section-head">
        <h3>
          Record {log.id} <LevelBadge level={log.level} />
        </h3>
        <CopyButton text={prettyJson(log)} label="Copy record JSON" />
        <button type="button" onClick={props.onClose} aria-label="Close detail">
          Close
        </button>
      </header>
      <section aria-label="Message">
        <header class="section-head">
          <h4>Message</h4>
          <CopyButton text={log.message} />
        </header>
        <pre class="detail-message">{log.message}</pre>
      </section>
      <dl class="fields">
        <Field name="time" value={log.ts} />
        <Field name="observed" value={log.observed_ts} />
        <Field name="received" value={formatTs(log.received_at)} />
        <Field name="severity number" value={log.severity_number} />
        <Field name="logger" value={log.logger} />
        <Field name="event name" value={log.event_name} />
        <Field name="record id" value={log.record_id} />
        <Field name="written by" value={log.user} />
        <Field name="sdk" value={[log.sdk, log.sdk_version].filter(Boolean).join(' ')} />
        <Field name="request id" value={log.request_id} />
      </dl>
      <section aria-label="Trace context" class="trace">
        <header class="section-head">
          <h4>Trace context</h4>
        </header>
        <dl class="fields">
          <Field name="trace id" value={log.trace_id} />
          <Field name="span id" value={log.span_id} />
        </dl>
        {log.trace_id !== null && (
          <div class="row-actions">
            <CopyButton text={log.trace_id} label="Copy trace id" />
            <button type="button" onClick={() => props.onTrace(log.trace_id ?? '')}>
              Show this trace
            </button>
          </div>
        )}
      </section>
      <JsonBlock title="Extra" value={log.extra} />
      <JsonBlock title="Attributes" value={log.attributes} />
      <JsonBlock title="Resource" value={log.resource} />
      {log.body !== null && log.body !== undefined && <JsonBlock title="Body" value={log.body} />}
      {log.unknown_fields !== undefined && Object.keys(log.unknown_fields).length > 0 && (
        <JsonBlock title="Unknown fields" value={log.unknown_fields} />
      )}
    </aside>
  );
}
