/**
 * Time that counts toward a test's timeout: the monotonic clock minus the time whittle and its tests
 * spent suspended (Ctrl-Z until fg). Whoever stops and resumes the tests reports the pause here, so
 * a test resumed after a long stop does not time out at once.
 */
let suspendedMs = 0;

/** Milliseconds of the monotonic clock, without the time spent suspended. */
export function activeNow(): number {
  return performance.now() - suspendedMs;
}

/** Records that the tests were suspended for `ms` milliseconds. */
export function noteSuspended(ms: number): void {
  if (ms > 0) suspendedMs += ms;
}

/** A pending `setActiveTimeout`. */
export interface ActiveTimer {
  cancel(): void;
}

/**
 * Calls `fn` once `ms` milliseconds of active time have passed: like setTimeout, but time spent
 * suspended (reported through `noteSuspended`) does not count. When the timer fires early because of
 * a pause (or a millisecond early, as Node's timers may), it re-arms itself for the active time still
 * left.
 */
export function setActiveTimeout(fn: () => void, ms: number): ActiveTimer {
  const due = activeNow() + ms;
  let timer: NodeJS.Timeout;
  // Node's timers may fire up to a millisecond early against performance.now() (the loop's clock is
  // cached and whole milliseconds): re-arm until the time is really up, so a test killed at its limit
  // has run for at least the limit.
  const check = (): void => {
    const left = due - activeNow();
    if (left > 0) timer = setTimeout(check, Math.ceil(left));
    else fn();
  };
  timer = setTimeout(check, ms);
  return { cancel: () => clearTimeout(timer) };
}
