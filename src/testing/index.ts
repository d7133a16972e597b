export { type BuildReceiverImageOptions, buildReceiverImage } from './receiver-image.js';
export type {
  CreatedAccount,
  CreateResourceInput,
  FaultAction,
  FaultRule,
  FaultRuleInput,
  JournalEntry,
  LogPage,
  ReadLogsQuery,
  ReceivedLog,
  ReceiverResource,
  StoredFaultRule,
  StoredLog,
} from './receiver-types.js';
export {
  DATA_PATH,
  RECEIVER_PORT,
  ReslogReceiverContainer,
  SEED_PATH,
} from './reslog-receiver-container.js';
export { StartedReslogReceiverContainer } from './started-reslog-receiver-container.js';
