import { describe, expect, expectTypeOf, it } from 'vitest';
import type {
  AttributeMatcher,
  AttributeValue,
  DropEvent,
  DropReason,
  ErrorCode,
  ExportableLogRecord,
  ExporterStats,
  ExportResult,
  HrTime,
  LogResource,
  MinLevel,
  RecordError,
  ResourceLogExporter,
  ResourceLogExporterOptions,
  ResourceLogProcessor,
  ResourceLogProcessorOptions,
  ResourceUrl,
  RouteRule,
  SpoolStats,
  TargetStats,
} from '../../src/index.js';
import * as reslog from '../../src/index.js';
import type * as receiverTypes from '../../src/receiver/index.js';
import * as receiver from '../../src/receiver/index.js';
import type * as testingTypes from '../../src/testing/index.js';
import * as testing from '../../src/testing/index.js';

/**
 * The runtime names each entry point exports (package.json "exports"). A name added or removed
 * here is a change to the public API: make it on purpose, and say so in the changelog.
 */
const RUNTIME_EXPORTS = {
  reslog: [
    'BacklogFullError',
    'CircuitOpenError',
    'ErrorCodes',
    'ExpiredError',
    'ExportFailedError',
    'HttpError',
    'InvalidOptionError',
    'KeyLookupError',
    'NetworkError',
    'OversizeError',
    'ROUTING_ATTRIBUTES',
    'RejectedRecordsError',
    'ReslogError',
    'ResourceLogExporter',
    'ResourceLogProcessor',
    'ShutdownError',
    'SpoolCorruptError',
    'TimeoutError',
    'UnmappedError',
    'VERSION',
    'parseResourceUrl',
  ],
  'reslog-receiver': [
    'DEFAULT_LIMITS',
    'RECEIVER_ERRORS',
    'ReceiverErrorCodes',
    'ReceiverHttpError',
    'ReceiverOptionError',
    'ReceiverSetupErrorCodes',
    'SeedError',
    'buildReceiver',
    'generateApiKey',
    'loadSeedFile',
    'normalizePathPrefix',
    'receiverPlugin',
    'validateSeed',
  ],
  'reslog-testcontainers': [
    'DATA_PATH',
    'RECEIVER_PORT',
    'ReslogReceiverContainer',
    'SEED_PATH',
    'StartedReslogReceiverContainer',
    'buildReceiverImage',
  ],
};

describe('public API', () => {
  it.each([
    ['reslog', reslog],
    ['reslog-receiver', receiver],
    ['reslog-testcontainers', testing],
  ] as const)('%s exports exactly the listed runtime names', (entry, module) => {
    expect(Object.keys(module).sort()).toEqual([...RUNTIME_EXPORTS[entry]].sort());
  });

  it('keeps internals out of the receiver entry point', () => {
    expect(receiver).not.toHaveProperty('normalizeLimits');
    // It writes to the receiver's internal store, which no user can hold: seed through
    // `buildReceiver({ seed })` or `POST /_receiver/seed` instead.
    expect(receiver).not.toHaveProperty('applySeed');
    // @ts-expect-error the receiver's context holds the database handle: not public
    expectTypeOf<receiverTypes.ReceiverContext>().toBeObject();
  });

  it('every type in a public signature is exported (checked by the compiler)', () => {
    // These fail to compile when one of the types above stops being exported.
    expectTypeOf<Parameters<ResourceLogExporter['export']>[0]>().toEqualTypeOf<
      readonly ExportableLogRecord[]
    >();
    expectTypeOf<Parameters<ResourceLogExporter['export']>[1]>().toEqualTypeOf<
      (result: ExportResult) => void
    >();
    expectTypeOf<
      Parameters<ResourceLogProcessor['onEmit']>[0]
    >().toEqualTypeOf<ExportableLogRecord>();
    expectTypeOf<ReturnType<ResourceLogExporter['getStats']>>().toEqualTypeOf<ExporterStats>();
    expectTypeOf<ReturnType<ResourceLogProcessor['getStats']>>().toEqualTypeOf<ExporterStats>();
    expectTypeOf<ExporterStats['spool']>().toEqualTypeOf<SpoolStats | undefined>();
    expectTypeOf<ExporterStats['targets']>().toEqualTypeOf<Record<string, TargetStats>>();
    expectTypeOf<ExporterStats['dropped']>().toEqualTypeOf<Record<DropReason, number>>();
    expectTypeOf<NonNullable<ResourceLogExporterOptions['onDrop']>>().toEqualTypeOf<
      (event: DropEvent) => void
    >();
    expectTypeOf<ResourceLogProcessorOptions>().toExtend<ResourceLogExporterOptions>();
    expectTypeOf<
      NonNullable<ResourceLogExporterOptions['routes']>[number]
    >().toEqualTypeOf<RouteRule>();
    expectTypeOf<RouteRule['match'][string]>().toEqualTypeOf<AttributeMatcher>();
    expectTypeOf<ExportableLogRecord['hrTime']>().toEqualTypeOf<HrTime>();
    expectTypeOf<ExportableLogRecord['resource']>().toEqualTypeOf<LogResource>();
    expectTypeOf<reslog.RejectedRecordsError['errors']>().toEqualTypeOf<readonly RecordError[]>();
    expectTypeOf<reslog.ReslogError['code']>().toEqualTypeOf<ErrorCode>();
    expectTypeOf<ReturnType<typeof reslog.parseResourceUrl>>().toEqualTypeOf<ResourceUrl>();
    expectTypeOf<'circuit_open'>().toExtend<DropReason>();
    expectTypeOf<MinLevel>().toExtend<string>();
    expectTypeOf<AttributeValue>().toExtend<unknown>();
    // What a seed (reslog-receiver) is written in.
    type SeedTeamRole = receiverTypes.Seed['teams'][number]['members'][number]['role'];
    expectTypeOf<SeedTeamRole>().toEqualTypeOf<receiverTypes.TeamRole>();
    type SeedResource = receiverTypes.Seed['resources'][number];
    expectTypeOf<SeedResource['health']>().toEqualTypeOf<receiverTypes.HealthState | undefined>();
    expectTypeOf<
      receiverTypes.Seed['notification_settings'][number]
    >().toEqualTypeOf<receiverTypes.SeedNotificationSettings>();
    expectTypeOf<receiverTypes.SeedNotificationSettings>().toExtend<
      Partial<receiverTypes.NotificationSettings>
    >();
    expectTypeOf<
      receiverTypes.NotificationSettings['log_alert_level']
    >().toEqualTypeOf<receiverTypes.AlertLevel | null>();
  });

  it('one name means one shape in reslog-receiver and reslog-testcontainers', () => {
    expectTypeOf<testingTypes.FaultRule>().toEqualTypeOf<receiverTypes.FaultRule>();
    expectTypeOf<testingTypes.FaultRuleInput>().toEqualTypeOf<receiverTypes.FaultRuleInput>();
    expectTypeOf<testingTypes.FaultAction>().toEqualTypeOf<receiverTypes.FaultAction>();
    expectTypeOf<testingTypes.JournalEntry>().toEqualTypeOf<receiverTypes.JournalEntry>();
    expectTypeOf<testingTypes.StoredLog>().toEqualTypeOf<receiverTypes.StoredLog>();
    expectTypeOf<testingTypes.LogPage['logs']>().toEqualTypeOf<receiverTypes.StoredLog[]>();
    expectTypeOf<testingTypes.LogPage>().toEqualTypeOf<receiverTypes.LogPage>();
    // Kept for code written against the earlier testing module: the same shape, another name.
    expectTypeOf<testingTypes.StoredFaultRule>().toEqualTypeOf<receiverTypes.FaultRule>();
    expectTypeOf<testingTypes.ReceivedLog>().toEqualTypeOf<receiverTypes.StoredLog>();
  });
});
