// Figures the bench scripts share.

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The p-th percentile of values already sorted ascending (nearest rank). */
export function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** "0.852x (0.86, 0.88, …)": a median ratio and each rep's. */
export function ratios(value, perRep) {
  return `${value.toFixed(3)}x (${perRep.map((x) => x.toFixed(2)).join(", ")})`;
}
