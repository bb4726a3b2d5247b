/**
 * Child process of test/reduce/memory.test.ts: a character-level reduction of a one-line input of
 * `megabytes` MB, alone in its process so that its peak RSS is the reduction's. Prints one JSON line.
 * Without arguments (as when the test runner loads every file under test/) it does nothing.
 *
 *   node dist/test/helpers/memory-child.js <megabytes> <jobs>
 */
import { reduce } from "../../src/index.js";

export interface MemoryChildResult {
  atoms: number;
  rssBefore: number;
  maxRss: number;
  output: string;
  tests: number;
}

async function main(megabytes: number, jobs: number): Promise<void> {
  // One line of mixed ASCII and two-byte characters (so the atoms need a boundary table), with a
  // marker in the middle that the oracle looks for.
  const unit = Buffer.from("abcdéfghij"); // 10 characters, 11 bytes
  const input = Buffer.alloc(Math.floor((megabytes * 1e6) / unit.length) * unit.length, unit);
  const marker = Buffer.from("<MARK>");
  marker.copy(input, Math.floor(input.length / 2 / unit.length) * unit.length);
  let atoms = 0;
  for (const b of input) if ((b & 0xc0) !== 0x80) atoms++;
  const rssBefore = process.memoryUsage.rss();
  const result = await reduce(input, (c) => Buffer.from(c.buffer, c.byteOffset, c.length).includes(marker), {
    atom: "char",
    jobs,
    assumeInteresting: true,
  });
  const out: MemoryChildResult = {
    atoms,
    rssBefore,
    maxRss: process.resourceUsage().maxRSS * 1024,
    output: Buffer.from(result.output).toString(),
    tests: result.stats.tests,
  };
  process.stdout.write(JSON.stringify(out) + "\n");
}

if (process.argv[2] !== undefined) {
  main(Number(process.argv[2]), Number(process.argv[3] ?? 2)).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
