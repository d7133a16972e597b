import type { Owner } from '../config/owner.js';

/** What the user should check when a target refuses the exporter's credentials or path. */
export interface RefusedTarget {
  /** `<username>/<uuid>` or `team/<team>/<uuid>`. */
  readonly key: string;
  readonly owner: Owner;
  readonly uuid: string;
}

/**
 * The hint for a 401, 403 or 404 answer to an ingest request, else `undefined`. These come
 * from configuration, not from the records, so every later batch fails the same way.
 */
export function refusalHint(
  target: RefusedTarget,
  statusCode: number,
  serverCode: string | undefined,
): string | undefined {
  const owner =
    target.owner.kind === 'user' ? `owner "${target.owner.name}"` : `team "${target.owner.name}"`;
  switch (statusCode) {
    case 401:
      return serverCode === 'username_mismatch'
        ? 'the acting user (option user, RESLOG_USER or ALSHIVAL_USERNAME, sent as x-user-username) must name the account of the API key'
        : 'check the API key (option apiKey, RESLOG_API_KEY or ALSHIVAL_API_KEY): the service does not know it';
    case 403:
      return `the API key may read but not write resource ${target.uuid}: use a key of its owner or of an editor`;
    case 404:
      return `${owner} and resource ${target.uuid} do not match, or this API key may not see the resource: check the resource URL (/u/<owner>/resources/<uuid>/ for an account's resource, /team/<team>/resources/<uuid>/ for a team's) and the base URL's path prefix`;
    default:
      return undefined;
  }
}

export type WarningEmitter = (message: string, options: { type: string; code: string }) => void;

/** `process.emitWarning` code of the warnings below, for `--disable-warning` or a listener. */
export const MISCONFIGURED_WARNING_CODE = 'RESLOG_MISCONFIGURED';

/**
 * Tells the first 401, 403 or 404 of each target once through `process.emitWarning`, which
 * Node prints by default: OpenTelemetry's diag logger is off unless the app turns it on, so a
 * wrong key would otherwise drop every record in silence. Never includes the API key.
 */
export function createRefusalWarnings(
  emit: WarningEmitter = (message, options) => process.emitWarning(message, options),
): (target: RefusedTarget, statusCode: number, serverCode: string | undefined) => void {
  const warned = new Set<string>();
  return (target, statusCode, serverCode) => {
    const hint = refusalHint(target, statusCode, serverCode);
    if (hint === undefined || warned.has(target.key)) return;
    warned.add(target.key);
    const code = serverCode ? ` ${serverCode}` : '';
    try {
      emit(
        `reslog: the logging service answered ${statusCode}${code} for ${target.key}; its records are dropped as "rejected": ${hint}`,
        { type: 'ReslogWarning', code: MISCONFIGURED_WARNING_CODE },
      );
    } catch {
      // Warnings turned into exceptions (--throw-deprecation does not, but a listener may).
    }
  };
}
