/**
 * The process groups of the tests that are running now. Every way of starting a test reports the
 * group it made (`started`) and its end (`ended`, once no member of the group is alive). Trackers
 * use this to act on all running tests at once: stop and resume them with whittle (Ctrl-Z, fg), or
 * kill them from outside when whittle itself dies (the watchdog).
 */
export interface GroupTracker {
  started(pgid: number): void;
  ended(pgid: number): void;
}

/** Tracks nothing: for oracles run without a tracker. */
export const NO_TRACKER: GroupTracker = { started() {}, ended() {} };

/** Forwards to several trackers, in order. */
export function allTrackers(...trackers: readonly GroupTracker[]): GroupTracker {
  return {
    started: (pgid) => trackers.forEach((t) => t.started(pgid)),
    ended: (pgid) => trackers.forEach((t) => t.ended(pgid)),
  };
}
