import { describe, expect, it } from 'vitest';
import {
  BacklogFullError,
  CircuitOpenError,
  ErrorCodes,
  ExpiredError,
  ExportFailedError,
  HttpError,
  InvalidOptionError,
  KeyLookupError,
  NetworkError,
  OversizeError,
  RejectedRecordsError,
  ReslogError,
  ShutdownError,
  SpoolCorruptError,
  TimeoutError,
  UnmappedError,
} from '../../src/index.js';

/** One instance of every error class the exporter reports, by the code it carries. */
const EXAMPLES: Record<string, ReslogError> = {
  [ErrorCodes.INVALID_OPTION]: new InvalidOptionError('timeoutMillis', 'a number', 'x'),
  [ErrorCodes.HTTP]: new HttpError(401, 'unauthorized', 'HTTP 401'),
  [ErrorCodes.NETWORK]: new NetworkError('ECONNREFUSED'),
  [ErrorCodes.TIMEOUT]: new TimeoutError('no answer within 10 ms'),
  [ErrorCodes.EXPORT_FAILED]: new ExportFailedError({ unmapped: 1 }, []),
  [ErrorCodes.SHUTDOWN]: new ShutdownError('export() called after shutdown()'),
  [ErrorCodes.UNMAPPED]: new UnmappedError('no resource'),
  [ErrorCodes.KEY_LOOKUP_FAILED]: new KeyLookupError('checkout-api', 'lookup failed'),
  [ErrorCodes.CIRCUIT_OPEN]: new CircuitOpenError('alice/6f1d', 1500),
  [ErrorCodes.OVERSIZE]: new OversizeError('a record is larger than maxBatchBytes (10)'),
  [ErrorCodes.BACKLOG_FULL]: new BacklogFullError('the backlog is full'),
  [ErrorCodes.EXPIRED]: new ExpiredError('a batch waited too long'),
  [ErrorCodes.SPOOL_CORRUPT]: new SpoolCorruptError('batch b could not be read back'),
  [ErrorCodes.RECORDS_REJECTED]: new RejectedRecordsError(202, 1, 3, []),
};

describe('error model', () => {
  it('every code has an example here, with the code it is listed under', () => {
    expect(Object.keys(EXAMPLES).sort()).toEqual(Object.values(ErrorCodes).sort());
    for (const [code, error] of Object.entries(EXAMPLES)) {
      expect(error.code, error.name).toBe(code);
      expect(error).toBeInstanceOf(ReslogError);
      expect(error).toBeInstanceOf(Error);
    }
  });

  it('instanceof tells every code apart: one class per code, named after itself', () => {
    const classes = Object.values(EXAMPLES).map((error) => error.constructor);
    expect(new Set(classes).size).toBe(classes.length);
    for (const error of Object.values(EXAMPLES)) {
      expect(error.name).toBe(error.constructor.name);
      const others = Object.values(EXAMPLES).filter((other) => other !== error);
      for (const other of others) {
        // TimeoutError is a NetworkError (an attempt that got no answer in time).
        if (error instanceof TimeoutError && other.constructor === NetworkError) continue;
        expect(error instanceof (other.constructor as typeof ReslogError), error.name).toBe(false);
      }
    }
  });

  it('a partly rejected batch is not an HTTP error and carries the per-record errors', () => {
    const error = new RejectedRecordsError(202, 2, 5, [
      { index: 1, code: 'invalid_level', message: 'level "loud" is not a level' },
      { index: 3, code: 'invalid_ts' },
    ]);
    expect(error).not.toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ statusCode: 202, rejected: 2 });
    expect(error.errors).toHaveLength(2);
    expect(error.message).toBe('service rejected 2 of 5 records: level "loud" is not a level');
  });

  it('a circuit-open error says how long the target stays paused', () => {
    const error = new CircuitOpenError('alice/6f1d', 1500);
    expect(error.pausedMillis).toBe(1500);
    expect(error.message).toBe('alice/6f1d is paused for 2 s after repeated permanent failures');
  });

  it('a key lookup error keeps the key and its cause', () => {
    const cause = new NetworkError('ECONNRESET');
    const error = new KeyLookupError('checkout-api', 'lookup failed', cause);
    expect(error).toMatchObject({ key: 'checkout-api', cause });
  });

  it('an export failure without a cause to hold still says why', () => {
    const thrown = new TypeError('boom');
    const error = new ExportFailedError({ rejected: 1 }, [], {
      detail: `a record could not be serialized: ${String(thrown)}`,
      cause: thrown,
    });
    expect(error.message).toBe(
      'export lost records (1 rejected): a record could not be serialized: TypeError: boom',
    );
    expect(error.cause).toBe(thrown);
    expect(new ExportFailedError({ unmapped: 2 }, []).message).toBe(
      'export lost records (2 unmapped)',
    );
  });
});
