/** Whether two byte strings hold the same bytes. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a === b || (a.length === b.length && Buffer.compare(a, b) === 0);
}
