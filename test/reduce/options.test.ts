/**
 * The options of the reduction are declared once, in REDUCE_OPTIONS: DEFAULTS and resolveOptions()
 * come from that table, and a value an option does not accept is refused with the option's name.
 */
import assert from "node:assert/strict";
import { availableParallelism } from "node:os";
import { test } from "node:test";
import { resolveOptions } from "../../src/engine.js";
import { DEFAULTS } from "../../src/index.js";
import { ComputedDefault } from "../../src/reduce/option-spec.js";
import { OPTION_LIST, REDUCE_OPTIONS } from "../../src/reduce/options.js";

test("DEFAULTS holds the table's default of every option, but those computed at resolution (jobs)", () => {
  const fixed = OPTION_LIST.filter(([, spec]) => !(spec.default instanceof ComputedDefault));
  assert.deepEqual(DEFAULTS, Object.fromEntries(fixed.map(([name, spec]) => [name, spec.default])));
  assert.deepEqual(
    Object.keys(REDUCE_OPTIONS).filter((name) => !(name in DEFAULTS)),
    ["jobs"],
  );
});

test("resolveOptions() fills in DEFAULTS, and computes jobs from the machine", () => {
  const jobs = availableParallelism();
  assert.deepEqual(resolveOptions(), { ...DEFAULTS, jobs });
  assert.deepEqual(resolveOptions({ jobs: 3, splitFactor: "inf" }), {
    ...DEFAULTS,
    jobs: 3,
    splitFactor: Infinity,
  });
  // null asks for a computed default, as --stats records it; elsewhere it is no value.
  assert.equal(resolveOptions({ jobs: null } as never).jobs, jobs);
  assert.throws(() => resolveOptions({ atom: null } as never), { code: "invalid-option", option: "atom" });
});

test("every option refuses a value it does not accept, naming the option and what it expects", () => {
  for (const [name, spec] of OPTION_LIST) {
    assert.throws(
      () => resolveOptions({ [name]: { not: "a value" } }),
      (error: Error & { code?: string; option?: string }) => {
        assert.equal(error.code, "invalid-option");
        assert.equal(error.option, name);
        assert.equal(error.message, `${name}: expected ${spec.expected}, got {"not":"a value"}`);
        return true;
      },
    );
  }
  assert.throws(
    () => resolveOptions({ splitFactor: 1 }),
    /^InvalidOptionError: splitFactor: expected .*, got 1$/,
  );
  assert.throws(() => resolveOptions({ jobs: Infinity }), /jobs: expected a whole number ≥ 1, got Infinity$/);
});
