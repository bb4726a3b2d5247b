import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { isValidUtf8, joinAtoms, splitChars, splitLines, type Atoms } from "../../src/atoms/atoms.js";
import { Configuration, fullConfiguration } from "../../src/ddmin/configuration.js";

/** Every atom's bytes, as separate buffers (the representation the atoms replace). */
const list = (atoms: Atoms): Buffer[] =>
  Array.from({ length: atoms.count }, (_, i) => Buffer.from(atoms.atom(i)));
const text = (atoms: Atoms): string[] => list(atoms).map((a) => a.toString("latin1"));

/** A naive reference: lines by scanning byte by byte. */
function naiveLines(bytes: Uint8Array): Buffer[] {
  const lines: Buffer[] = [];
  let line: number[] = [];
  for (const b of bytes) {
    line.push(b);
    if (b === 0x0a) {
      lines.push(Buffer.from(line));
      line = [];
    }
  }
  if (line.length > 0) lines.push(Buffer.from(line));
  return lines;
}

/** A naive reference: code points of the decoded text, or single bytes when decoding fails. */
function naiveChars(bytes: Uint8Array): Buffer[] {
  let decoded: string;
  try {
    decoded = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return [...bytes].map((b) => Buffer.of(b));
  }
  return [...decoded].map((c) => Buffer.from(c, "utf8"));
}

test("lines keep their terminators exactly: LF, CRLF and a last line without one", () => {
  const input = Buffer.from("a\r\nb\n\nc", "latin1");
  assert.deepEqual(text(splitLines(input)), ["a\r\n", "b\n", "\n", "c"]);
  assert.deepEqual(text(splitLines(Buffer.from("x\n"))), ["x\n"]);
  assert.deepEqual(text(splitLines(Buffer.from("\r\n\r\n"))), ["\r\n", "\r\n"]);
  assert.deepEqual(text(splitLines(Buffer.from("no newline"))), ["no newline"]);
});

test("empty input has no atoms, of either kind, and joins to nothing", () => {
  for (const atoms of [splitLines(new Uint8Array()), splitChars(new Uint8Array())]) {
    assert.equal(atoms.count, 0);
    assert.equal(joinAtoms(atoms, fullConfiguration(0)).length, 0);
  }
});

test("characters are code points in UTF-8 text, so no character is cut in two", () => {
  const input = Buffer.from("aé€😀\r\n");
  const atoms = splitChars(input);
  assert.deepEqual(
    list(atoms).map((a) => a.toString("utf8")),
    ["a", "é", "€", "😀", "\r", "\n"],
  );
  assert.equal(atoms.singleBytes, false, "multi-byte text keeps a boundary table");
});

test("characters are single bytes, with no boundary table, when the input is not valid UTF-8", () => {
  const input = Uint8Array.from([0x61, 0xff, 0xc3, 0x00, 0x0a]);
  assert.equal(isValidUtf8(input), false);
  const atoms = splitChars(input);
  assert.equal(atoms.count, 5);
  assert.equal(atoms.singleBytes, true);
  assert.deepEqual(
    list(atoms),
    [...input].map((b) => Buffer.of(b)),
  );
  // A truncated multi-byte character at the end, and an overlong encoding, are invalid too.
  assert.equal(splitChars(Buffer.from([0x61, 0xe2, 0x82])).count, 3);
  assert.equal(splitChars(Buffer.from([0xc0, 0x80])).count, 2);
});

test("ASCII text needs no boundary table: one atom per byte", () => {
  const atoms = splitChars(Buffer.from("plain ASCII\n"));
  assert.equal(atoms.singleBytes, true);
  assert.equal(atoms.count, 12);
});

test("atoms match a naive byte-by-byte reference, for lines and characters, on any bytes", () => {
  const bytesOrText = fc.oneof(
    fc.uint8Array({ maxLength: 200 }),
    fc.string({ unit: "binary", maxLength: 60 }).map((s) => new Uint8Array(Buffer.from(s))),
    fc
      .array(fc.constantFrom("a", "\n", "\r\n", "é", "😀", "\r"), { maxLength: 60 })
      .map((a) => new Uint8Array(Buffer.from(a.join("")))),
  );
  fc.assert(
    fc.property(bytesOrText, (bytes) => {
      assert.deepEqual(list(splitLines(bytes)), naiveLines(bytes));
      assert.deepEqual(list(splitChars(bytes)), naiveChars(bytes));
    }),
    { numRuns: 500 },
  );
});

test("joining any configuration reproduces exactly the selected bytes (against a naive concatenation)", () => {
  fc.assert(
    fc.property(
      fc.oneof(
        fc.uint8Array({ maxLength: 300 }),
        fc.string({ unit: "binary", maxLength: 80 }).map((s) => new Uint8Array(Buffer.from(s))),
      ),
      fc.boolean(),
      fc.infiniteStream(fc.boolean()),
      (bytes, lines, keep) => {
        const atoms = lines ? splitLines(bytes) : splitChars(bytes);
        assert.deepEqual(Buffer.from(joinAtoms(atoms, fullConfiguration(atoms.count))), Buffer.from(bytes));
        const it = keep[Symbol.iterator]();
        const indices = Array.from({ length: atoms.count }, (_, i) => i).filter(
          () => it.next().value === true,
        );
        const expected = Buffer.concat(indices.map((i) => atoms.atom(i)));
        const config = Configuration.of(indices);
        assert.deepEqual(Buffer.from(joinAtoms(atoms, config)), expected);
        assert.equal(atoms.byteLength(config), expected.length);
      },
    ),
    { numRuns: 500 },
  );
});

test("valid UTF-8 text splits into its code points", () => {
  fc.assert(
    fc.property(fc.string({ unit: "grapheme", maxLength: 50 }), (s) => {
      const chars = splitChars(Buffer.from(s));
      assert.deepEqual(
        list(chars).map((c) => c.toString("utf8")),
        [...s],
      );
    }),
  );
});
