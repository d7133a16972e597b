export { generateApiKey } from './api-keys.js';
export type { TeamRole } from './authorization.js';
export { buildReceiver } from './build-receiver.js';
export {
  RECEIVER_ERRORS,
  type ReceiverErrorCode,
  ReceiverErrorCodes,
  ReceiverHttpError,
  ReceiverOptionError,
  ReceiverSetupErrorCodes,
  SeedError,
} from './errors.js';
export type { FaultAction, FaultRule, FaultRuleInput } from './fault-rules.js';
export {
  DEFAULT_LIMITS,
  type ReceiverLimits,
  type ReceiverOptions,
} from './receiver-options.js';
export type { JournalEntry } from './request-journal.js';
export {
  loadSeedFile,
  type Seed,
  type SeedNotificationSettings,
  validateSeed,
} from './seed.js';
export type { HealthState } from './store/directory-store.js';
export type { StoredLog } from './store/log-store.js';
export type { AlertLevel, NotificationSettings } from './store/settings-store.js';
