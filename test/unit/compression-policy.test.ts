import { describe, expect, it } from 'vitest';
import { createCompressionPolicy, IDENTITY_MILLIS } from '../../src/exporter/compression-policy.js';

const T = 'alice/3f1c2b4a-9d8e-4f7a-8b6c-5d4e3f2a1b0c';

describe('compression policy', () => {
  it("'auto' gzips until a target takes the plain resend of a refused batch, then tries gzip again after an hour", () => {
    const policy = createCompressionPolicy('auto');
    expect(policy.gzipFor(T, 0)).toBe(true);
    expect(policy.refusedGzip(415)).toBe(true);
    expect(policy.refusedGzip(400)).toBe(true);
    policy.plainAnswered(T, 202, 1_000);
    expect(policy.gzipFor(T, 1_000)).toBe(false);
    expect(policy.gzipFor(T, 1_000 + IDENTITY_MILLIS - 1)).toBe(false);
    expect(policy.gzipFor('other', 1_000)).toBe(true);
    expect(policy.gzipFor(T, 1_000 + IDENTITY_MILLIS)).toBe(true);
  });

  it.each([400, 415, 0])(
    'remembers nothing when the plain resend got %i: the encoding was not the problem, or nothing is known',
    (status) => {
      const policy = createCompressionPolicy('auto');
      policy.plainAnswered(T, status, 0);
      expect(policy.gzipFor(T, 1)).toBe(true);
    },
  );

  it.each([401, 403, 404, 413, 422, 429, 500, 503])(
    'a %i to a gzipped body is not a refusal of the encoding',
    (status) => {
      expect(createCompressionPolicy('auto').refusedGzip(status)).toBe(false);
    },
  );

  it("'gzip' and 'none' force one encoding and never fall back", () => {
    for (const mode of ['gzip', 'none'] as const) {
      const policy = createCompressionPolicy(mode);
      expect(policy.refusedGzip(415)).toBe(false);
      policy.plainAnswered(T, 202, 0);
      expect(policy.gzipFor(T, 1)).toBe(mode === 'gzip');
    }
  });
});
