import type { Spread } from "./stats.js";

/** A Markdown table. Cells are escaped for pipes. */
export function table(headers: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const esc = (cell: string | number): string => String(cell).replace(/\|/g, "\\|").replace(/\n/g, " ");
  const lines = [
    `| ${headers.map(esc).join(" | ")} |`,
    `| ${headers.map(() => "---").join(" | ")} |`,
    ...rows.map((row) => `| ${row.map(esc).join(" | ")} |`),
  ];
  return lines.join("\n") + "\n";
}

export function fixed(value: number, digits = 2): string {
  return Number.isFinite(value) ? value.toFixed(digits) : "–";
}

/** 0.234 → "23.4 %" */
export function percent(value: number, digits = 1): string {
  return Number.isFinite(value) ? `${(value * 100).toFixed(digits)} %` : "–";
}

/** "1.02 (0.97–1.10)": median (min–max). */
export function spreadText(s: Spread, digits = 2, scale = 1): string {
  if (!Number.isFinite(s.median)) return "–";
  return `${(s.median * scale).toFixed(digits)} (${(s.min * scale).toFixed(digits)}–${(s.max * scale).toFixed(digits)})`;
}

/** Percent with spread: "75.3 % (74.0–77.1)". */
export function percentSpread(s: Spread, digits = 1): string {
  if (!Number.isFinite(s.median)) return "–";
  const p = (v: number): string => (v * 100).toFixed(digits);
  return `${p(s.median)} % (${p(s.min)}–${p(s.max)})`;
}

export function bytes(n: number): string {
  if (!Number.isFinite(n)) return "–";
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 2 ** 20).toFixed(1)} MiB`;
}

export function ms(n: number): string {
  if (!Number.isFinite(n)) return "–";
  if (n < 10) return `${n.toFixed(2)} ms`;
  if (n < 10_000) return `${Math.round(n)} ms`;
  return `${(n / 1000).toFixed(1)} s`;
}

/** Shows a (short) reduction result readably in a table cell. */
export function snippet(content: Uint8Array, limit = 40): string {
  const text = Buffer.from(content).toString("utf8");
  const shown = text.length > limit ? `${text.slice(0, limit)}…` : text;
  return "`" + JSON.stringify(shown).slice(1, -1).replace(/`/g, "'") + "`";
}
