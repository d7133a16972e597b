/** The service's path prefix, written into index.html by the receiver (docs/receiver.md, "Path prefix"). */
export function apiBase(): string {
  return document.querySelector('meta[name="reslog-api-base"]')?.getAttribute('content') ?? '';
}
