/**
 * web-tree-sitter parses JavaScript strings, and its node offsets (`startIndex`, `endIndex`) count
 * UTF-16 code units of that string; the tree model counts UTF-8 bytes of the input. This decodes the
 * input itself so that every code unit knows the byte it came from, including bytes that are not
 * valid UTF-8 (each becomes one U+FFFD, so the input's bytes are still rendered as they were).
 */

export interface DecodedInput {
  readonly text: string;
  /** UTF-16 index → byte offset; one more entry than the text has code units (its end). */
  readonly byteAt: Uint32Array;
}

const REPLACEMENT_CHARACTER = 0xfffd;

export function decodeUtf8(bytes: Uint8Array): DecodedInput {
  const units: number[] = [];
  const byteAt: number[] = [];
  let i = 0;
  while (i < bytes.length) {
    const [codePoint, length] = readCodePoint(bytes, i);
    if (codePoint > 0xffff) {
      const v = codePoint - 0x10000;
      units.push(0xd800 + (v >> 10), 0xdc00 + (v & 0x3ff));
      byteAt.push(i, i);
    } else {
      units.push(codePoint);
      byteAt.push(i);
    }
    i += length;
  }
  byteAt.push(bytes.length);
  let text = "";
  const CHUNK = 8192;
  for (let k = 0; k < units.length; k += CHUNK) text += String.fromCharCode(...units.slice(k, k + CHUNK));
  return { text, byteAt: Uint32Array.from(byteAt) };
}

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
