import { EventEmitter } from 'node:events';

/**
 * Tells waiters (`/_receiver/logs/wait`) and follow streams that a resource's logs were
 * committed, and follow streams that the resource was deleted.
 */
export interface LogEvents {
  committed(resourceId: number): void;
  /** Calls `listener` after each commit to `resourceId`; returns the unsubscribe function. */
  subscribe(resourceId: number, listener: () => void): () => void;
  /** Tells follow streams of `resourceId` that it was deleted. */
  removed(resourceId: number): void;
  /** Calls `listener` when `resourceId` is deleted; returns the unsubscribe function. */
  onRemoved(resourceId: number, listener: () => void): () => void;
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
    removed(resourceId) {
      emitter.emit(`removed ${resourceId}`);
    },
    onRemoved(resourceId, listener) {
      emitter.on(`removed ${resourceId}`, listener);
      return () => emitter.off(`removed ${resourceId}`, listener);
    },
  };
}
