import { charDiff, diffLines, type DiffOp } from "./diff.js";
import { escapeHtml } from "./text.js";

/** Bounds that keep the page small whatever the input. */
export const SIDE_LIMITS = {
  /** Larger originals are not diffed: the page says so and shows the result alone. */
  inputBytes: 16_000_000,
  /** Rows of the table, folds included; the rest is left out with a note. */
  rows: 2500,
  /** Characters of a line shown; the rest becomes "…". */
  lineChars: 400,
  /** Unchanged lines kept around a change; longer runs fold. */
  context: 3,
  /** Removed lines shown at each end of a longer run of them. */
  removedEnds: 5,
};

type Row =
  | { kind: "same" | "chg"; left: number; right: number }
  | { kind: "del"; left: number }
  | { kind: "add"; right: number }
  | { kind: "fold"; text: string };

const decoder = new TextDecoder("utf-8", { fatal: false });

/** The lines of a text (without their newlines; no empty last line after a final newline). */
export function splitLines(bytes: Uint8Array): string[] {
  if (bytes.length === 0) return [];
  const lines = decoder.decode(bytes).split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Runs of removed lines then added lines become changed pairs; long unchanged or removed runs fold. */
function rowsOf(ops: readonly DiffOp[], a: readonly string[], b: readonly string[]): Row[] {
  const rows: Row[] = [];
  // Without a change (a run stopped before its first improvement) nothing folds.
  const fold = ops.some((op) => op.kind !== "same");
  let k = 0;
  while (k < ops.length) {
    const op = ops[k]!;
    if (op.kind === "same") {
      const run: Row[] = [];
      while (k < ops.length && ops[k]!.kind === "same") {
        const o = ops[k++] as Extract<DiffOp, { kind: "same" }>;
        run.push({ kind: "same", left: o.left, right: o.right });
      }
      const c = SIDE_LIMITS.context;
      // Context before the next change and after the last one; none at the ends of the file.
      const keepHead = rows.length > 0 ? c : 0;
      const keepTail = k < ops.length ? c : 0;
      if (fold && run.length > keepHead + keepTail + 1) {
        rows.push(...run.slice(0, keepHead));
        rows.push({
          kind: "fold",
          text: `${(run.length - keepHead - keepTail).toLocaleString("en")} unchanged lines`,
        });
        rows.push(...run.slice(run.length - keepTail));
      } else rows.push(...run);
      continue;
    }
    const removed: number[] = [];
    const added: number[] = [];
    while (k < ops.length && ops[k]!.kind === "removed") removed.push((ops[k++] as { left: number }).left);
    while (k < ops.length && ops[k]!.kind === "added") added.push((ops[k++] as { right: number }).right);
    // Each added line beside the removed line it most resembles (in order), the rest alone.
    let from = 0;
    const picks = pairUp(
      removed.map((i) => a[i]!),
      added.map((j) => b[j]!),
    );
    for (const [j, r] of picks.entries()) {
      const right = added[j]!;
      if (r !== undefined) {
        pushRemoved(rows, removed.slice(from, r));
        rows.push({ kind: "chg", left: removed[r]!, right });
        from = r + 1;
      } else rows.push({ kind: "add", right });
    }
    pushRemoved(rows, removed.slice(from));
  }
  return rows;
}

/** Removed lines; a long run folds, showing its ends. */
function pushRemoved(rows: Row[], lines: readonly number[]): void {
  const e = SIDE_LIMITS.removedEnds;
  if (lines.length > 2 * e + 1) {
    for (const left of lines.slice(0, e)) rows.push({ kind: "del", left });
    rows.push({ kind: "fold", text: `${(lines.length - 2 * e).toLocaleString("en")} more removed lines` });
    for (const left of lines.slice(lines.length - e)) rows.push({ kind: "del", left });
  } else for (const left of lines) rows.push({ kind: "del", left });
}

/** Above this many comparisons, added lines pair with removed lines simply in order. */
const PAIRING_LIMIT = 2_000;

/**
 * For each added line, the index of the removed line shown beside it (increasing), or undefined:
 * the most alike of those after the previous pick (the most characters in common, in order), when
 * they share more than half of the longer.
 */
export function pairUp(removed: readonly string[], added: readonly string[]): (number | undefined)[] {
  if (removed.length * added.length > PAIRING_LIMIT)
    return added.map((_, j) => (j < removed.length ? j : undefined));
  const picks: (number | undefined)[] = [];
  let next = 0;
  for (const line of added) {
    let best: number | undefined;
    let bestScore = 0.5;
    for (let i = next; i < removed.length; i++) {
      const { matched } = charDiff(cut(removed[i]!), cut(line));
      const score =
        matched / Math.max(1, Math.min(removed[i]!.length, SIDE_LIMITS.lineChars), cut(line).length);
      if (score > bestScore) {
        best = i;
        bestScore = score;
      }
    }
    picks.push(best);
    if (best !== undefined) next = best + 1;
  }
  return picks;
}

function cut(line: string): string {
  return line.length > SIDE_LIMITS.lineChars ? line.slice(0, SIDE_LIMITS.lineChars) : line;
}

function cell(line: string): string {
  return escapeHtml(cut(line)) + (line.length > SIDE_LIMITS.lineChars ? '<span class="more">…</span>' : "");
}

/** A changed line with its differing characters marked (`differs`: per character of the shown part). */
function marked(line: string, differs: readonly boolean[]): string {
  const shown = cut(line);
  let html = "";
  let k = 0;
  while (k < shown.length) {
    const on = differs[k] === true;
    let end = k;
    while (end < shown.length && (differs[end] === true) === on) end++;
    const text = escapeHtml(shown.slice(k, end));
    html += on ? `<mark>${text}</mark>` : text;
    k = end;
  }
  return html + (line.length > SIDE_LIMITS.lineChars ? '<span class="more">…</span>' : "");
}

/** The original and the result side by side, removed lines and changed parts highlighted. */
export function renderSideBySide(original: Uint8Array, result: Uint8Array): string {
  if (original.length > SIDE_LIMITS.inputBytes) {
    return (
      `<p class="note">The original (${original.length.toLocaleString("en")} bytes) is too large to compare here; the result follows.</p>` +
      `<pre class="result">${splitLines(result).slice(0, SIDE_LIMITS.rows).map(cell).join("\n")}</pre>`
    );
  }
  const a = splitLines(original);
  const b = splitLines(result);
  const rows = rowsOf(diffLines(a, b), a, b);
  const shown = rows.slice(0, SIDE_LIMITS.rows);
  const html = shown.map((row) => {
    switch (row.kind) {
      case "fold":
        return `<tr class="fold"><td colspan="4">… ${row.text} …</td></tr>`;
      case "same":
        return `<tr class="same"><td class="n">${row.left + 1}</td><td>${cell(a[row.left]!)}</td><td class="n">${row.right + 1}</td><td>${cell(b[row.right]!)}</td></tr>`;
      case "del":
        return `<tr class="del"><td class="n">${row.left + 1}</td><td>${cell(a[row.left]!)}</td><td class="n"></td><td></td></tr>`;
      case "add":
        return `<tr class="add"><td class="n"></td><td></td><td class="n">${row.right + 1}</td><td>${cell(b[row.right]!)}</td></tr>`;
      case "chg": {
        const x = a[row.left]!;
        const y = b[row.right]!;
        const { left, right } = charDiff(cut(x), cut(y));
        return `<tr class="chg"><td class="n">${row.left + 1}</td><td>${marked(x, left)}</td><td class="n">${row.right + 1}</td><td>${marked(y, right)}</td></tr>`;
      }
    }
  });
  const note =
    rows.length > shown.length
      ? `<p class="note">The comparison is cut after ${shown.length.toLocaleString("en")} of its ${rows.length.toLocaleString("en")} rows.</p>`
      : "";
  return (
    `<table class="diff"><colgroup><col class="n"><col><col class="n"><col></colgroup>` +
    `<thead><tr><th></th><th>original: ${a.length.toLocaleString("en")} lines</th><th></th><th>result: ${b.length.toLocaleString("en")} lines</th></tr></thead>` +
    `<tbody>${html.join("")}</tbody></table>${note}`
  );
}
