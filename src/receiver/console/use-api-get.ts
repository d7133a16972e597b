import { useCallback, useEffect, useState } from 'preact/hooks';
import type { ApiClient, ApiError, Query } from './api-client.ts';

export interface Loaded<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  reload(): void;
}

/** GETs `path` when it (or the query) changes; `reload()` fetches it again. */
export function useApiGet<T>(api: ApiClient, path: string, query: Query = {}): Loaded<T> {
  const [state, setState] = useState<Omit<Loaded<T>, 'reload'>>({
    data: undefined,
    error: undefined,
    loading: true,
  });
  const [round, setRound] = useState(0);
  const queryKey = JSON.stringify(query);
  // queryKey stands for query (a new object each render); round is the reload trigger.
  useEffect(() => {
    const controller = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    api.get<T>(path, query, controller.signal).then(
      (data) => setState({ data, error: undefined, loading: false }),
      (error: ApiError) => {
        if (!controller.signal.aborted) setState({ data: undefined, error, loading: false });
      },
    );
    return () => controller.abort();
  }, [api, path, queryKey, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { ...state, reload };
}
