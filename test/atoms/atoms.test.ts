import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { isValidUtf8, joinAtoms, splitChars, splitLines } from "../../src/atoms/atoms.js";
import { fullConfiguration } from "../../src/ddmin/configuration.js";

const text = (atoms: Uint8Array[]): string[] => atoms.map((a) => Buffer.from(a).toString("latin1"));

test("lines keep their terminators exactly: LF, CRLF and a last line without one", () => {
  const input = Buffer.from("a\r\nb\n\nc", "latin1");
  assert.deepEqual(text(splitLines(input)), ["a\r\n", "b\n", "\n", "c"]);
  assert.deepEqual(text(splitLines(Buffer.from("x\n"))), ["x\n"]);
  assert.deepEqual(splitLines(new Uint8Array()), []);
});

test("characters are code points in UTF-8 text, so no character is cut in two", () => {
  const input = Buffer.from("aé€😀");
  assert.deepEqual(
    splitChars(input).map((a) => Buffer.from(a).toString("utf8")),
    ["a", "é", "€", "😀"],
  );
});

test("characters are single bytes when the input is not valid UTF-8", () => {
  const input = Uint8Array.from([0x61, 0xff, 0xc3, 0x00, 0x0a]);
  assert.equal(isValidUtf8(input), false);
  assert.equal(splitChars(input).length, 5);
});

test("joining any configuration reproduces exactly the selected bytes", () => {
  fc.assert(
    fc.property(
      fc.uint8Array({ maxLength: 200 }),
      fc.boolean(),
      fc.infiniteStream(fc.boolean()),
      (bytes, lines, keep) => {
        const atoms = lines ? splitLines(bytes) : splitChars(bytes);
        assert.deepEqual(Buffer.from(joinAtoms(atoms, fullConfiguration(atoms.length))), Buffer.from(bytes));
        const it = keep[Symbol.iterator]();
        const config = fullConfiguration(atoms.length).filter(() => it.next().value === true);
        const expected = Buffer.concat(config.map((i) => atoms[i]!));
        assert.deepEqual(Buffer.from(joinAtoms(atoms, config)), expected);
      },
    ),
  );
});

test("valid UTF-8 text splits into its code points", () => {
  fc.assert(
    fc.property(fc.string({ unit: "grapheme", maxLength: 50 }), (s) => {
      const chars = splitChars(Buffer.from(s));
      assert.deepEqual(
        chars.map((c) => Buffer.from(c).toString("utf8")),
        [...s],
      );
    }),
  );
});
