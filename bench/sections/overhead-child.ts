/**
 * Child process of the overhead section: runs the measurement in a fresh Node process and prints the
 * figures as one JSON line. `node dist/bench/sections/overhead-child.js <tmpDir> <quick 0|1> <reps>`
 */
import { measureOverhead } from "./overhead.js";

const [tmpDir, quick, reps] = process.argv.slice(2);
measureOverhead({ tmpDir: tmpDir!, quick: quick === "1", reps: Number(reps ?? 3) })
  .then((data) => process.stdout.write(JSON.stringify(data) + "\n"))
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
