/**
 * ANTLR's lookahead DFAs (the cache of adaptive LL(*) prediction, one DFA per decision), made exact
 * and bounded for whittle's interpreters.
 *
 * Exact: antlr4ng 3.0.16 finds a DFA state by the 32-bit hash of its ATN configuration set alone
 * (`DFA.states` is a Map from hash to state). When two different sets share a hash, prediction
 * continues from the wrong state and may predict the wrong alternative: syntax errors in valid
 * input, and error recovery loses the structure of what follows. On 579 KiB of csmith's C the
 * shared C.g4 gathers 121,000 states for one decision, the birthday bound makes collisions certain,
 * and 7 of them cost 4 false syntax errors; after the last (line 3,284 of 7,022) recovery skipped
 * the rest of the file, which reached the tree as one flat run of tokens. `ExactDFA` keeps the hash
 * as the first look-up and then compares the configurations themselves (as ANTLR's Java runtime
 * does: its DFA keeps states in a map keyed by the state, compared with `equals`).
 *
 * Bounded: the DFA only ever grows. On input whose lookahead rarely repeats (deeply nested
 * expressions: every prediction of C.g4's `assignmentExpression` scans its whole argument) it grows
 * into millions of configurations that are seldom used again: a 3.2 GiB peak for that C; the
 * JavaScript grammar's `singleExpression` holds 3.5 M configurations in 5,600 states after 130 KB
 * of JavaScript. `boundDfa` starts a decision's DFA afresh when its states hold more than a given
 * number of configurations, and with it the simulator's prediction-context cache, which would
 * otherwise keep every context those states held. The parse is the same (a DFA is a cache of what
 * the ATN simulation computes); only its speed depends on what is cached.
 */
import { DFA, PredictionContextCache, type ATNConfigSet, type DFAState } from "antlr4ng";

/** Whether two configuration sets hold the same configurations in the same order. */
function sameConfigs(a: ATNConfigSet, b: ATNConfigSet): boolean {
  const left = a.configs;
  const right = b.configs;
  if (left.length !== right.length) return false;
  for (let i = 0; i < left.length; i++) {
    if (left[i] !== right[i] && !left[i]!.equals(right[i]!)) return false;
  }
  return true;
}

/** A DFA whose states are found by their configurations, not by a hash of them alone. */
export class ExactDFA extends DFA {
  /** States by hash of their configuration set: one state, or the few that share a hash. */
  private readonly byHash = new Map<number, DFAState | DFAState[]>();
  /** States by state number. */
  private readonly numbered: DFAState[] = [];
  /** How many ATN configurations the states hold, all told: what the DFA's memory grows with. */
  configurations = 0;

  constructor(...args: ConstructorParameters<typeof DFA>) {
    super(...args);
    // The base class's iterator is an instance field over its own (here unused) map.
    this[Symbol.iterator] = () => this.numbered[Symbol.iterator]();
  }

  override getState(state: DFAState): DFAState | null {
    return this.getStateForConfigs(state.configs);
  }

  override getStateForConfigs(configs: ATNConfigSet): DFAState | null {
    const found = this.byHash.get(configs.hashCode());
    if (found === undefined) return null;
    if (!Array.isArray(found)) return sameConfigs(found.configs, configs) ? found : null;
    return found.find((s) => sameConfigs(s.configs, configs)) ?? null;
  }

  override addState(state: DFAState): void {
    if (this.getState(state) !== null) return;
    const hash = state.configs.hashCode();
    const found = this.byHash.get(hash);
    if (found === undefined) this.byHash.set(hash, state);
    else if (Array.isArray(found)) found.push(state);
    else this.byHash.set(hash, [found, state]);
    state.stateNumber = this.numbered.length;
    this.numbered.push(state);
    this.configurations += state.configs.length;
  }

  override getStates(): DFAState[] {
    return this.numbered.slice();
  }

  override get length(): number {
    return this.numbered.length;
  }
}

/** What a lexer or parser simulator shares with its recognizer: one DFA per decision. */
interface Simulator {
  readonly decisionToDFA: DFA[];
  readonly sharedContextCache?: PredictionContextCache;
}

/** Replaces every DFA of `simulator` by an empty ExactDFA. */
export function useExactDfas(simulator: Simulator): void {
  const dfas = simulator.decisionToDFA;
  for (let d = 0; d < dfas.length; d++) dfas[d] = new ExactDFA(dfas[d]!.atnStartState, d);
}

/** Starts every DFA of `simulator` afresh, and its prediction-context cache. */
export function resetDfas(simulator: Simulator): void {
  useExactDfas(simulator);
  newContextCache(simulator);
}

function newContextCache(simulator: Simulator): void {
  if (simulator.sharedContextCache !== undefined) {
    (simulator as { sharedContextCache: PredictionContextCache }).sharedContextCache =
      new PredictionContextCache();
  }
}

/**
 * Before a prediction of `decision`: if its DFA's states hold more than `maxConfigurations` ATN
 * configurations, it starts again empty, and so does the shared prediction-context cache (contexts
 * held by the other decisions' states stay alive through those states; new states no longer share
 * them, which costs nothing in correctness). Returns whether it did.
 */
export function boundDfa(simulator: Simulator, decision: number, maxConfigurations: number): boolean {
  const dfas = simulator.decisionToDFA;
  const dfa = dfas[decision]!;
  if (!(dfa instanceof ExactDFA) || dfa.configurations <= maxConfigurations) return false;
  dfas[decision] = new ExactDFA(dfa.atnStartState, decision);
  newContextCache(simulator);
  return true;
}
