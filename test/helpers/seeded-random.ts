/** A deterministic source of numbers for generated test data: the same seed, the same sequence. */
export interface SeededRandom {
  /** The next number in [0, 1]. */
  readonly next: () => number;
  /** An item of `items`, drawn with `next`. */
  readonly pick: <T>(items: readonly T[]) => T;
}

/**
 * A linear congruential generator (the C library's constants): small, fast and the same on every
 * machine, which is all test data needs.
 *
 * @example
 * const { next, pick } = seededRandom(7);
 */
export function seededRandom(seed: number): SeededRandom {
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  return { next, pick };
}
