import { DEFAULTS } from "../../src/reduce/options.js";

/** whittle's current defaults in words, for the settings lines of the report (read at run time). */
export function describeDefaults(): string {
  const d = DEFAULTS;
  const nu = d.splitFactor === Infinity ? "∞" : String(d.splitFactor);
  const orders =
    d.strategy === "complements-only"
      ? `complements ${d.complementOrder}`
      : `subsets ${d.subsetOrder}, complements ${d.complementOrder}`;
  const cache = `${d.cache} cache${d.cacheFail ? " (all outcomes" : " (passing outcomes only"}${d.cacheEvict ? ", eviction)" : ")"}`;
  return [
    `${d.strategy} (${orders})`,
    `ν = ${nu}`,
    d.ddStar ? "DD*" : "no DD*",
    cache,
    `atom ${d.atom}`,
    d.combine ? "combined rounds" : "parallel rounds",
    d.firstWins ? "first-wins" : "deterministic",
  ].join(", ");
}
