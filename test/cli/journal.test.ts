/** The journal file of --resume (cli/journal.ts): reading, refusing, recalling and appending. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { JournalFile, parseJournal, sha256Hex, type JournalPlan } from "../../src/cli/journal.js";
import { UsageError } from "../../src/cli/args.js";
import { scratch } from "../helpers/cli.js";

const HEADER = JSON.stringify({
  "whittle-journal": 1,
  input: sha256Hex(Buffer.from("input")),
  command: ["/bin/true"],
  fileName: "in.txt",
  timeoutMs: null,
  pipeline: ["ddmin:line"],
  options: {},
});
const A = Buffer.from("candidate a");
const B = Buffer.from("candidate b");

function refused(text: string, message: RegExp): void {
  assert.throws(
    () => parseJournal(Buffer.from(text), "j"),
    (error: unknown) => {
      assert.ok(error instanceof UsageError);
      assert.match(error.message, message);
      return true;
    },
  );
}

test("a file that is not a journal is refused, saying why", () => {
  refused("", /the journal j is empty \(not a journal of whittle\)/);
  refused(HEADER, /has no complete first line/);
  refused('{"x": 1}\n', /does not start with a journal header/);
  refused(
    HEADER.replace('"whittle-journal":1', '"whittle-journal":2') + "\n",
    /is of format version 2; this whittle reads version 1/,
  );
  refused(HEADER.replace('"fileName"', '"name"') + "\n", /has a header without "fileName"/);
  refused(
    `${HEADER}\n${sha256Hex(A)} interesting\n\n${sha256Hex(B)} timeout\n`,
    /is corrupt at line 3: .*found ""/,
  );
  refused(`${HEADER}\n${sha256Hex(A)} maybe\n`, /is corrupt at line 2/);
});

test("answers are read in order, a hash answered twice keeps both; a torn last line is left out", () => {
  const text = `${HEADER}\n${sha256Hex(A)} timeout\n${sha256Hex(B)} interesting\n${sha256Hex(A)} not-interesting\n${sha256Hex(B).slice(0, 20)}`;
  const read = parseJournal(Buffer.from(text), "j");
  assert.equal(read.entries, 3);
  assert.ok(read.torn);
  assert.deepEqual(read.answers.get(sha256Hex(A)), ["timeout", "not-interesting"]);
  assert.equal(read.keepBytes, text.lastIndexOf("\n") + 1);
  const whole = parseJournal(Buffer.from(text.slice(0, read.keepBytes)), "j");
  assert.ok(!whole.torn);
  assert.equal(whole.entries, 3);
});

test("a reopened journal recalls each answer once, in order, cuts off the torn line and appends after it", async () => {
  const path = join(scratch(), "out.txt.journal");
  const text = `${HEADER}\n${sha256Hex(A)} timeout\n${sha256Hex(A)} not-interesting\n${sha256Hex(B).slice(0, 7)}`;
  writeFileSync(path, text);
  const read = parseJournal(Buffer.from(text), "j");
  const plan: JournalPlan = {
    path,
    header: JSON.parse(HEADER) as JournalPlan["header"],
    answers: read.answers,
    entries: read.entries,
    keepBytes: read.keepBytes,
    keptResult: undefined,
    notice: undefined,
  };
  const journal = await JournalFile.open(plan, (error) => assert.fail(String(error)));
  assert.equal(journal.peek(A), "timeout");
  assert.equal(journal.recall(A), "timeout");
  assert.equal(journal.recall(A), "not-interesting");
  assert.equal(journal.recall(A), undefined);
  assert.equal(journal.peek(B), undefined);
  journal.record(B, "interesting");
  journal.close();
  const after = readFileSync(path, "utf8");
  assert.equal(after, `${text.slice(0, read.keepBytes)}${sha256Hex(B)} interesting\n`);
});

test("a journal that cannot be written is reported once; its answers are recalled all the same", async () => {
  const path = join(scratch(), "gone", "out.txt.journal");
  const answers = new Map([[sha256Hex(A), ["interesting" as const]]]);
  const plan: JournalPlan = {
    path,
    header: JSON.parse(HEADER) as JournalPlan["header"],
    answers: new Map(answers),
    entries: 1,
    keepBytes: undefined,
    keptResult: undefined,
    notice: undefined,
  };
  const errors: unknown[] = [];
  const journal = await JournalFile.open(plan, (error) => errors.push(error));
  assert.equal(errors.length, 1);
  assert.match(String(errors[0]), /ENOENT/);
  assert.equal(journal.recall(A), "interesting");
  journal.record(B, "not-interesting");
  journal.close();
  assert.equal(errors.length, 1);
});
