/**
 * The anchors: what other reducers (Picire, Picireny, C-Vise) reach on the shared cases, read from
 * `../shared/bench/anchors.md` (one `## case` heading per case, then a Markdown table with the columns
 * reducer, non-ws chars, bytes, lines, oracle runs, wall s).
 */

export interface AnchorRow {
  readonly reducer: string;
  readonly nonWsChars: number;
  readonly bytes: number;
  readonly lines: number;
  readonly oracleRuns: number;
  readonly wallS: number;
}

/** Rows by case name, in the order of the file. Lines that are not such table rows are skipped. */
export function parseAnchors(markdown: string): Map<string, AnchorRow[]> {
  const out = new Map<string, AnchorRow[]>();
  let current: AnchorRow[] | undefined;
  for (const raw of markdown.split("\n")) {
    const line = raw.trim();
    const heading = /^##\s+(\S+)\s*$/.exec(line);
    if (heading) {
      current = [];
      out.set(heading[1]!, current);
      continue;
    }
    if (!current || !line.startsWith("|")) continue;
    const cells = line
      .slice(1, line.endsWith("|") ? -1 : undefined)
      .split("|")
      .map((c) => c.trim());
    if (cells.length < 6) continue;
    const numbers = cells.slice(1, 6).map((c) => Number(c.replace(/,/g, "")));
    if (numbers.some((n) => !Number.isFinite(n)) || cells[1] === "") continue; // header, separator
    const [nonWsChars, bytes, lines, oracleRuns, wallS] = numbers as [number, number, number, number, number];
    current.push({ reducer: cells[0]!, nonWsChars, bytes, lines, oracleRuns, wallS });
  }
  for (const [name, rows] of out) if (rows.length === 0) out.delete(name);
  return out;
}

/** The papers' size metric: characters that are not whitespace (the bytes read as UTF-8). */
export function nonWhitespaceChars(content: Uint8Array): number {
  const text = Buffer.from(content.buffer, content.byteOffset, content.length).toString("utf8");
  let n = 0;
  for (const ch of text) if (!/\s/u.test(ch)) n++;
  return n;
}

/** The smallest anchor row among those whose reducer starts with `prefix` (e.g. "Picireny"). */
export function smallestOf(rows: readonly AnchorRow[], prefix: string): AnchorRow | undefined {
  let best: AnchorRow | undefined;
  for (const r of rows) {
    if (!r.reducer.startsWith(prefix)) continue;
    if (!best || r.nonWsChars < best.nonWsChars) best = r;
  }
  return best;
}
