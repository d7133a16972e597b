/** Median with the range of the samples it summarises, as every figure in the table is shown. */
export interface Spread {
  median: number;
  min: number;
  max: number;
  samples: number;
}

export function spread(values: readonly number[]): Spread {
  if (values.length === 0)
    return { median: Number.NaN, min: Number.NaN, max: Number.NaN, samples: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median =
    sorted.length % 2 === 1
      ? (sorted[mid] as number)
      : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return {
    median,
    min: sorted[0] as number,
    max: sorted[sorted.length - 1] as number,
    samples: sorted.length,
  };
}

/** Nearest-rank percentile (p in 0–100) of unsorted values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  // The epsilon keeps a rank that is whole on paper whole in floating point: (99.9 / 100) ×
  // 1000 is 999.0000000000001, whose ceiling would pick the maximum instead of the 999th.
  const exact = (p / 100) * sorted.length;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(exact - 1e-9) - 1));
  return sorted[rank] as number;
}

/** Ratio of two medians; NaN when either is missing. */
export function ratio(a: Spread | undefined, b: Spread | undefined): number {
  if (!a || !b || !(b.median > 0)) return Number.NaN;
  return a.median / b.median;
}
