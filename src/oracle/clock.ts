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
