import type { StoredLog } from '../api-types.ts';
import { formatTs } from '../format.ts';
import { LevelBadge } from './level-badge.tsx';

/** Logs newest first; a row opens its record's detail. Everything is a text node. */
export function LogTable(props: {
  logs: StoredLog[];
  selectedId: number | undefined;
  onSelect(log: StoredLog): void;
}) {
  return (
    <table class="logs">
      <thead>
        <tr>
          <th class="col-ts">Time (UTC)</th>
          <th class="col-level">Level</th>
          <th class="col-logger">Logger</th>
          <th>Message</th>
        </tr>
      </thead>
      <tbody>
        {props.logs.map((log) => (
          <tr
            key={log.id}
            data-log-id={log.id}
            class={log.id === props.selectedId ? 'selected' : undefined}
            tabIndex={0}
            onClick={() => props.onSelect(log)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') props.onSelect(log);
            }}
          >
            <td class="mono col-ts">{formatTs(log.ts)}</td>
            <td class="col-level">
              <LevelBadge level={log.level} />
            </td>
            <td class="mono col-logger">{log.logger ?? ''}</td>
            <td class="message">{log.message}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
