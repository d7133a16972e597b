import { useLayoutEffect, useState } from 'preact/hooks';
import { FILTER_LEVELS, filterProblem, type LogFilters, NO_FILTERS } from '../log-filters.ts';

/**
 * The log filters. Text fields apply on Enter or "Apply"; the level applies at once. Every
 * filter is a query parameter of the read API, so the server does the filtering.
 */
export function LogFilterBar(props: { filters: LogFilters; onApply(filters: LogFilters): void }) {
  const [draft, setDraft] = useState(props.filters);
  // Filters set from outside (Clear, "Show this trace") replace the draft before the next
  // paint, so typing that follows at once is not overwritten by a late effect.
  useLayoutEffect(() => setDraft(props.filters), [props.filters]);
  const problem = filterProblem(draft);
  const field = (name: keyof LogFilters) => (event: Event & { currentTarget: HTMLInputElement }) =>
    setDraft({ ...draft, [name]: event.currentTarget.value });

  return (
    <form
      class="filters"
      aria-label="Log filters"
      onSubmit={(event) => {
        event.preventDefault();
        if (problem === undefined) props.onApply(draft);
      }}
    >
      <label>
        Minimum level
        <select
          name="level"
          value={draft.level}
          onChange={(event) => {
            const next = { ...draft, level: event.currentTarget.value };
            setDraft(next);
            if (filterProblem(next) === undefined) props.onApply(next);
          }}
        >
          <option value="">any</option>
          {FILTER_LEVELS.map((level) => (
            <option key={level} value={level}>
              {level}
            </option>
          ))}
        </select>
      </label>
      <label>
        Logger
        <input
          name="logger"
          value={draft.logger}
          onInput={field('logger')}
          placeholder="exact name"
        />
      </label>
      <label class="grow">
        Message contains
        <input name="q" value={draft.q} onInput={field('q')} placeholder="text" />
      </label>
      <label>
        Since (UTC)
        <input
          type="datetime-local"
          step={1}
          name="since"
          value={draft.since}
          onInput={field('since')}
        />
      </label>
      <label>
        Until (UTC)
        <input
          type="datetime-local"
          step={1}
          name="until"
          value={draft.until}
          onInput={field('until')}
        />
      </label>
      <label>
        Trace id
        <input
          name="trace_id"
          class="mono"
          value={draft.traceId}
          onInput={field('traceId')}
          placeholder="32 hex"
          size={34}
        />
      </label>
      <div class="filter-actions">
        <button type="submit" disabled={problem !== undefined}>
          Apply
        </button>
        <button type="button" onClick={() => props.onApply(NO_FILTERS)}>
          Clear
        </button>
      </div>
      {problem !== undefined && <p class="error-note">{problem}</p>}
    </form>
  );
}
