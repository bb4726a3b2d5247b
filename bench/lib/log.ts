const started = performance.now();

/** A progress line on stderr, stamped with the seconds since the benchmark started. */
export function progress(message: string): void {
  const seconds = ((performance.now() - started) / 1000).toFixed(1).padStart(6);
  process.stderr.write(`[bench ${seconds}s] ${message}\n`);
}
