/**
 * Speculative execution of a sequential search: a search whose next test depends on the last answer
 * (ProbDD), run with parallel jobs to exactly the result of one job.
 *
 * The search is a state machine (`SequentialSearch`): a state proposes one test, and each answer
 * leads to a known next state. While a test runs, its two possible futures are known, and theirs in
 * turn: a binary tree of tests that may come. Each free slot goes to the untested node of that tree
 * the search is most likely to reach, by the search's own estimate of each answer (`chance`). When
 * the answer at the root arrives, the root moves to the child of that answer and every test in the
 * other subtree is aborted. The answers the search uses are those of the tests the one-job run makes,
 * in its order: the same commits and the same result; speculative tests that are not used are the
 * price of the jobs (`--stats` counts them as tests).
 *
 * Not from the papers (ProbDD is sequential there); the same idea as the speculative parallelism of
 * C-Reduce and Shrink Ray, with the tree ordered by the search's model instead of one fixed guess.
 */
import type { NextIf } from "../outcome.js";
import type { Configuration } from "./configuration.js";

/** One test a state of the search proposes. */
export interface Proposal {
  readonly candidate: Configuration;
  /** The search's estimate of the chance that the candidate is interesting, in [0, 1]. */
  readonly chance: number;
}

export interface SequentialSearch<S, P extends Proposal = Proposal> {
  /** The test this state proposes, or undefined when the search ends here. */
  propose(state: S): P | undefined;
  /** The state after the answer to the test `proposal` (this state's). */
  after(state: S, proposal: P, interesting: boolean): S;
}

export interface SpeculationHooks<P extends Proposal = Proposal, S = unknown> {
  /** Runs a test (a cache may answer it); must honour `signal`. `index` numbers the tests launched. */
  test(proposal: P, signal: AbortSignal, index: number): Promise<boolean>;
  /** A test the search used came back interesting: the search moves to its candidate. */
  commit(proposal: P): void;
  /**
   * Optional: the search moved from `from` to `to` on the answer to `proposal` (every answer the
   * one-job run uses, in its order; after `commit` when interesting). For events that follow the
   * one-job run's states.
   */
  moved?(from: S, proposal: P, interesting: boolean, to: S): void;
  /** Optional hint that `candidate` may be tested next, if the test running now answers `nextIf`. */
  prepare?(candidate: Configuration, nextIf: NextIf | undefined): boolean;
  /**
   * The least chance of being used that a test needs to start while others run (read whenever a
   * slot frees; default 0: every free slot is filled). The test the search needs now always starts.
   */
  minReach?(): number;
}

interface Node<S, P> {
  readonly state: S;
  /** Undefined: the search ends in this state. Made when the node is first looked at. */
  proposal: P | undefined | null;
  controller?: AbortController;
  answer?: boolean;
  /** The children by answer: [not interesting, interesting]. */
  children?: [Node<S, P>, Node<S, P>];
}

/** How many untested nodes past the running ones are weighed when a slot frees. */
const FRONTIER_LIMIT = 256;

/**
 * Runs `search` from `initial` to its end with up to `jobs` tests at once; returns the final state.
 * Every test it started has settled when it returns or throws. Aborting `signal` stops it: the
 * promise rejects with the signal's reason (the caller keeps the last committed state).
 */
export function speculate<S, P extends Proposal>(
  search: SequentialSearch<S, P>,
  initial: S,
  hooks: SpeculationHooks<P, S>,
  jobs: number,
  signal: AbortSignal | undefined,
): Promise<S> {
  const slots = Math.max(1, Math.floor(jobs));
  const proposalOf = (node: Node<S, P>): P | undefined => {
    if (node.proposal === null) node.proposal = search.propose(node.state);
    return node.proposal;
  };
  const leaf = (state: S): Node<S, P> => ({ state, proposal: null });
  const childrenOf = (node: Node<S, P>): [Node<S, P>, Node<S, P>] => {
    const proposal = proposalOf(node)!;
    node.children ??= [
      leaf(search.after(node.state, proposal, false)),
      leaf(search.after(node.state, proposal, true)),
    ];
    return node.children;
  };

  let root = leaf(initial);
  let running = 0;
  let launched = 0;
  let failure: { error: unknown } | undefined;
  const settling = new Set<Promise<unknown>>();

  return new Promise<S>((resolve, reject) => {
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      signal?.removeEventListener("abort", onAbort);
      abortAll(root);
      void Promise.allSettled([...settling]).then(() => {
        if (failure) reject(failure.error);
        else if (signal?.aborted) reject(signal.reason);
        else resolve(root.state);
      });
    };
    const onAbort = (): void => finish();
    signal?.addEventListener("abort", onAbort, { once: true });

    /** Aborts every running test under `node` (it and its descendants). */
    const abortAll = (node: Node<S, P>): void => {
      const stack = [node];
      while (stack.length > 0) {
        const n = stack.pop()!;
        if (n.controller && n.answer === undefined) n.controller.abort(new Error("speculation not needed"));
        if (n.children) stack.push(...n.children);
      }
    };

    /**
     * The untested nodes the search may reach, most likely first: the chance of reaching a node is
     * the product of the estimates of the answers on the way from the root (a known answer: 1).
     */
    const frontier = (): { node: Node<S, P>; reach: number }[] => {
      const open: { node: Node<S, P>; reach: number }[] = [];
      const stack = [{ node: root, reach: 1 }];
      while (stack.length > 0 && open.length < FRONTIER_LIMIT) {
        const { node, reach } = stack.pop()!;
        const proposal = proposalOf(node);
        if (proposal === undefined) continue;
        if (node.controller === undefined) open.push({ node, reach });
        else if (node.answer !== undefined)
          stack.push({ node: childrenOf(node)[node.answer ? 1 : 0], reach });
        else {
          const chance = Math.min(1, Math.max(0, proposal.chance));
          const [no, yes] = childrenOf(node);
          stack.push({ node: no, reach: reach * (1 - chance) }, { node: yes, reach: reach * chance });
        }
      }
      return open.sort((a, b) => b.reach - a.reach);
    };

    const launch = (node: Node<S, P>): void => {
      const controller = new AbortController();
      node.controller = controller;
      running++;
      const index = launched++;
      let promise: Promise<boolean>;
      try {
        promise = hooks.test(proposalOf(node)!, controller.signal, index);
      } catch (error) {
        promise = Promise.reject(error);
      }
      const settled = promise.then(
        (interesting) => {
          running--;
          if (!controller.signal.aborted) node.answer = interesting;
          advance();
        },
        (error: unknown) => {
          running--;
          if (!controller.signal.aborted && !failure) {
            failure = { error };
            finish();
          }
          advance();
        },
      );
      settling.add(settled);
      void settled.then(() => settling.delete(settled));
    };

    const advance = (): void => {
      if (done) return;
      try {
        step();
      } catch (error) {
        // A hook or the search itself failed (a commit that cannot be written, say): the run ends
        // with that error once its tests have settled, as a failed test ends it.
        failure ??= { error };
        finish();
      }
    };

    const step = (): void => {
      // Move the root along the answers that are in.
      while (root.answer !== undefined) {
        const [no, yes] = childrenOf(root);
        const proposal = proposalOf(root)!;
        if (root.answer) hooks.commit(proposal);
        abortAll(root.answer ? no : yes);
        const from = root;
        root = root.answer ? yes : no;
        hooks.moved?.(from.state, proposal, from.answer!, root.state);
        // A hook may have ended the run (an abort from an event listener): nothing more starts.
        if (done) return;
      }
      if (proposalOf(root) === undefined) {
        finish();
        return;
      }
      while (running < slots) {
        // Each launch opens its node's two futures: the frontier is weighed again.
        const next = frontier()[0];
        if (next === undefined) break;
        if (running > 0 && next.reach < (hooks.minReach?.() ?? 0)) break;
        launch(next.node);
      }
      if (slots === 1 && hooks.prepare && root.controller && root.answer === undefined) {
        // One job: what comes next on either answer is got ready while the root's test runs (in a
        // later macrotask, so that the test's own start comes first).
        const running = root;
        setImmediate(() => {
          if (done || root !== running || running.answer !== undefined) return;
          try {
            const [no, yes] = childrenOf(running);
            const ifFound = proposalOf(yes);
            if (ifFound) hooks.prepare!(ifFound.candidate, "interesting");
            const next = proposalOf(no);
            if (next) hooks.prepare!(next.candidate, "not-interesting");
          } catch {
            // preparing is an optimization: the test itself will meet (and report) any failure
          }
        });
      }
    };

    if (signal?.aborted) finish();
    else advance();
  });
}
