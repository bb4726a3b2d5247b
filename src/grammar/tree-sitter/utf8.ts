/**
 * web-tree-sitter parses JavaScript strings, and its node offsets (`startIndex`, `endIndex`) count
 * UTF-16 code units of that string; the tree model counts UTF-8 bytes of the input. This decodes the
 * input itself so that every code unit knows the byte it came from, including bytes that are not
 * valid UTF-8 (each becomes one U+FFFD, so the input's bytes are still rendered as they were).
 */
import { Buffer, isAscii } from "node:buffer";

export interface DecodedInput {
  readonly text: string;
  /** UTF-16 index → byte offset; one more entry than the text has code units (its end). */
  readonly byteAt: Uint32Array;
}

const REPLACEMENT_CHARACTER = 0xfffd;

/**
 * Typed arrays, not lists of numbers: a list costs 8 bytes of V8's heap per code unit, twice (the
 * units and the offsets), and the tree of a large input needs that heap (see checkTreeMemory).
 */
export function decodeUtf8(bytes: Uint8Array): DecodedInput {
  if (isAscii(bytes)) {
    // Each byte is its own code unit. The offsets are made only when asked for: a syntax check asks
    // for none unless it finds an error, and 1.8 MB of them took as long as the check's parse.
    let identity: Uint32Array | undefined;
    return {
      text: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("latin1"),
      get byteAt(): Uint32Array {
        if (identity === undefined) {
          identity = new Uint32Array(bytes.length + 1);
          for (let i = 0; i <= bytes.length; i++) identity[i] = i;
        }
        return identity;
      },
    };
  }
  // Every byte gives at most one code unit (a 4-byte sequence gives two).
  const byteAt = new Uint32Array(bytes.length + 1);
  const units = new Uint16Array(bytes.length);
  let n = 0;
  let i = 0;
  while (i < bytes.length) {
    const [codePoint, length] = readCodePoint(bytes, i);
    if (codePoint > 0xffff) {
      const v = codePoint - 0x10000;
      units[n] = 0xd800 + (v >> 10);
      units[n + 1] = 0xdc00 + (v & 0x3ff);
      byteAt[n++] = i;
      byteAt[n++] = i;
    } else {
      units[n] = codePoint;
      byteAt[n++] = i;
    }
    i += length;
  }
  byteAt[n] = bytes.length;
  // No unpaired surrogates are made (they are not valid UTF-8), so UTF-16 decoding keeps every unit.
  return { text: utf16.decode(units.subarray(0, n)), byteAt: byteAt.subarray(0, n + 1) };
}

// ignoreBOM: a leading U+FEFF stays in the text (by default the decoder drops it, and every offset after it
// would be one code unit off).
const utf16 = new TextDecoder("utf-16le", { ignoreBOM: true });

/** The code point at `i` and its length in bytes; an invalid byte is U+FFFD of length 1. */
function readCodePoint(bytes: Uint8Array, i: number): [number, number] {
  const b0 = bytes[i]!;
  if (b0 < 0x80) return [b0, 1];
  let length: number;
  let min: number;
  let cp: number;
  if (b0 >= 0xc2 && b0 <= 0xdf) [length, min, cp] = [2, 0x80, b0 & 0x1f];
  else if (b0 >= 0xe0 && b0 <= 0xef) [length, min, cp] = [3, 0x800, b0 & 0x0f];
  else if (b0 >= 0xf0 && b0 <= 0xf4) [length, min, cp] = [4, 0x10000, b0 & 0x07];
  else return [REPLACEMENT_CHARACTER, 1];
  if (i + length > bytes.length) return [REPLACEMENT_CHARACTER, 1];
  for (let k = 1; k < length; k++) {
    const b = bytes[i + k]!;
    if ((b & 0xc0) !== 0x80) return [REPLACEMENT_CHARACTER, 1];
    cp = (cp << 6) | (b & 0x3f);
  }
  // Overlong forms, surrogates and code points past U+10FFFF are not valid UTF-8.
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return [REPLACEMENT_CHARACTER, 1];
  return [cp, length];
}
