// Small figures helpers of the crowd benchmark: percentiles and the markdown table.
export function percentile(xs: number[], p: number): number | undefined {
  if (xs.length === 0) return undefined;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

export const fmt = (v: number | undefined, digits = 0, unit = '') =>
  v === undefined || Number.isNaN(v) ? '-' : `${v.toFixed(digits)}${unit}`;

export { table } from '../lifecycle/report.ts';
