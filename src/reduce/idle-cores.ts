import { availableParallelism, cpus } from "node:os";

/** CPU time of the whole machine, summed over its cores, in ms. */
export interface CpuTimes {
  readonly idle: number;
  readonly total: number;
}

/** The machine's CPU times now (os.cpus(): every core's user, nice, sys, idle and irq time). */
export function sampleCpuTimes(): CpuTimes {
  let idle = 0;
  let total = 0;
  for (const { times } of cpus()) {
    idle += times.idle;
    total += times.user + times.nice + times.sys + times.idle + times.irq;
  }
  return { idle, total };
}

/**
 * How many of the machine's cores were idle lately: the idle share of the CPU time over the last
 * interval of at least `intervalMs`, times the number of cores. Speculative tests ask it (see
 * `spare`): a test that may not be needed is cheap on a core nobody uses, and slows the tests that
 * are needed when it takes a share of a busy one.
 */
export class IdleCores {
  #last: { at: number; times: CpuTimes } | undefined;
  #idle: number | undefined;

  constructor(
    private readonly cores: number,
    private readonly sample: () => CpuTimes = sampleCpuTimes,
    private readonly now: () => number = () => performance.now(),
    private readonly intervalMs = 250,
  ) {}

  /** Idle cores over the last full interval; every core before one has passed. */
  idle(): number {
    const at = this.now();
    if (this.#last === undefined) {
      this.#last = { at, times: this.sample() };
    } else if (at - this.#last.at >= this.intervalMs) {
      const times = this.sample();
      const total = times.total - this.#last.times.total;
      if (total > 0) this.#idle = (this.cores * (times.idle - this.#last.times.idle)) / total;
      this.#last = { at, times };
    }
    return this.#idle ?? this.cores;
  }

  /** Whether a test started now would likely have a core to itself: a whole core was idle lately. */
  spare(): boolean {
    return this.idle() >= 1;
  }
}

/**
 * The default answer to "would a speculative test have a core to itself" for a run of `jobs` tests
 * at once. More jobs than this process may use cores (`parallelism`, the default `-j`) says the
 * tests mostly wait (on a sleep, a network, another machine): every slot is filled whatever the
 * machine's load, as the `jobs` benchmark's sleeping tests need. Otherwise the machine's idle time
 * decides (IdleCores, over the cores whose times os.cpus() gives).
 */
export function defaultSpare(
  jobs: number,
  parallelism: number = availableParallelism(),
  cores: number = cpus().length,
): () => boolean {
  if (jobs > parallelism) return () => true;
  const idle = new IdleCores(cores);
  return () => idle.spare();
}
