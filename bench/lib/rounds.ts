/**
 * The rounds of a reduction, read from the `--events` file of its `-j 1` run (docs/events.md), and
 * the ideal parallel wall time they allow.
 *
 * A round is one scan in which the deterministic mode may test candidates at once (one call of
 * `findInteresting`, src/ddmin/round.ts): a ddmin round (subsets and complements together, as
 * `--combine`, the default, runs them), a round of adaptive deletion, a hoisting scan, a `replace`
 * scan. The `-j 1` run tests a round's candidates in order up to the first interesting one, and so
 * does the parallel run before it commits that one (later ones are cancelled), so the tests a round
 * could have run at once are exactly the `-j 1` run's tests of that round. With W workers and every
 * test taking the same time T, a round of k tests takes at least ceil(k / W) · T.
 *
 * The events do not name the scan a test belongs to; consecutive tests are taken as one round when
 * nothing but tests, cache hits and syntax skips came between them, they share the pass, the label's
 * level, round and granularity and its kind (subsets and complements being one kind), and the
 * earlier one was not interesting (an interesting test ends its round). Tests whittle makes one at a
 * time are rounds of their own: `empty` and `rewrite` candidates, the first tries of a pass (round
 * 0), the chain hoisting's bisection (pass `hdd:chain`). Where this merges tests of two scans, the
 * bound comes out too high, never too low.
 */

export interface RoundsSummary {
  /** Tests of the `-j 1` run (its test-start lines). */
  tests: number;
  /** The rounds' sizes, in order. */
  sizes: number[];
  /** Tests outside the rounds, one at a time: the check of the original, of the empty input, the final re-test. */
  sequential: number;
}

interface EventLine {
  type: string;
  pass?: string;
  id?: number;
  outcome?: string;
  what?: string;
  label?: { kind: string; round: number; granularity: number; level?: number };
}

/** Events that may fall between the tests of one round without ending it. */
const WITHIN = new Set(["test-start", "test-end", "cache-hit", "syntax-skip"]);

function alone(e: EventLine): boolean {
  const kind = e.label?.kind;
  return kind === "empty" || kind === "rewrite" || e.label?.round === 0 || e.pass === "hdd:chain";
}

function roundKey(e: EventLine): string {
  const l = e.label!;
  const kind = l.kind === "subset" || l.kind === "complement" ? "dd" : l.kind;
  return `${e.pass}|${l.level ?? ""}|${l.round}|${l.granularity}|${kind}`;
}

/**
 * Reads the rounds from an events file's text. `finalRetest`: whether the run tested its result once
 * more at the end (whittle does; it is not among the events' tests).
 */
export function roundsOf(eventsText: string, finalRetest = true): RoundsSummary {
  const events = eventsText
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as EventLine);
  const sizes: number[] = [];
  let open: { key: string; closed: boolean } | undefined;
  let tests = 0;
  let checks = 0;
  for (const e of events) {
    if (e.type === "check") {
      checks++;
      open = undefined;
    } else if (e.type === "test-start") {
      tests++;
      const key = roundKey(e);
      if (open && !open.closed && open.key === key && !alone(e)) sizes[sizes.length - 1]!++;
      else sizes.push(1);
      open = { key, closed: alone(e) };
    } else if (e.type === "test-end") {
      if (e.outcome === "interesting" && open) open.closed = true;
    } else if (!WITHIN.has(e.type)) {
      open = undefined;
    }
  }
  return { tests, sizes, sequential: checks + (finalRetest ? 1 : 0) };
}

/** The ideal wall time with `workers` workers, in test times: every round's ceil(k / W), the rest one at a time. */
export function idealTestTimes(rounds: RoundsSummary, workers: number): number {
  return rounds.sizes.reduce((sum, k) => sum + Math.ceil(k / workers), 0) + rounds.sequential;
}

/** The ideal speed-up over `-j 1` with `workers` workers: sequential test times over ideal ones. */
export function idealSpeedup(rounds: RoundsSummary, workers: number): number {
  return idealTestTimes(rounds, 1) / idealTestTimes(rounds, workers);
}
