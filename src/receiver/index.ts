export type {
  HealthEvent,
  LogPage,
  ProbeResult,
  StoredLog,
} from '../contract/read-answer.js';
export { generateApiKey } from './access/api-keys.js';
export type { TeamRole } from './access/authorization.js';
export { buildReceiver } from './build-receiver.js';
export type { FaultAction, FaultRule, FaultRuleInput } from './control/fault-rules.js';
export type { JournalEntry } from './control/request-journal.js';
export {
  RECEIVER_ERRORS,
  type ReceiverErrorCode,
  ReceiverErrorCodes,
  ReceiverHttpError,
  ReceiverOptionError,
  ReceiverSetupErrorCodes,
  SeedError,
} from './errors.js';
export { normalizePathPrefix } from './http/path-prefix.js';
export type { ReadLogsQuery } from './http/routes/read-routes.js';
export {
  DEFAULT_LIMITS,
  type ReceiverLimits,
  type ReceiverOptions,
} from './receiver-options.js';
export { type ReceiverPluginOptions, receiverPlugin } from './receiver-plugin.js';
export {
  loadSeedFile,
  type Seed,
  type SeedNotificationSettings,
  validateSeed,
} from './seed.js';
export type { HealthState } from './store/directory-store.js';
export type { AlertLevel, NotificationSettings } from './store/settings-store.js';
