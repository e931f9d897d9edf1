/**
 * The search's settings: SISR's own (Christiaens & Vanden Berghe 2020), the temperatures scaled to
 * the problem. Variants were compared on iteration budgets (docs/benchmarks.md, route quality).
 */
export interface SearchParameters {
  /** Mean number of stops removed per iteration (SISR's c̄). */
  averageRemoved: number;
  /** Longest string (SISR's L^max). */
  maxString: number;
  /** Chance that a ruined route loses a split string rather than a string. */
  splitRate: number;
  /** Chance to stop growing the kept part of a split string at each step (SISR's β). */
  splitDepth: number;
  /** Chance to skip a position when inserting (SISR's blink rate). */
  blinkRate: number;
  /** Start and final temperatures, in mean nearest-neighbour costs. */
  startTemperature: number;
  finalTemperature: number;
  /** Weights of the recreate orders: random, largest first, farthest first, closest first. */
  orderWeights: readonly [number, number, number, number];
}

export const DEFAULT_PARAMETERS: SearchParameters = {
  averageRemoved: 10,
  maxString: 10,
  splitRate: 0.5,
  splitDepth: 0.01,
  blinkRate: 0.01,
  startTemperature: 10,
  finalTemperature: 0.1,
  orderWeights: [4, 4, 2, 1],
};
