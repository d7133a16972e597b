import { EventEmitter } from 'node:events';

/** Tells waiters (`/_receiver/logs/wait`) that a resource's logs were committed. */
export interface LogEvents {
  committed(resourceId: number): void;
  /** Calls `listener` after each commit to `resourceId`; returns the unsubscribe function. */
  subscribe(resourceId: number, listener: () => void): () => void;
}

export function createLogEvents(): LogEvents {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    committed(resourceId) {
      emitter.emit(String(resourceId));
    },
    subscribe(resourceId, listener) {
      emitter.on(String(resourceId), listener);
      return () => emitter.off(String(resourceId), listener);
    },
  };
}
