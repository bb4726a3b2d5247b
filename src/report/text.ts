/** Text as HTML: safe in element content and in double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}

/** A size in bytes, short: 950 B, 12.3 KB, 4.5 MB. */
export function formatSize(bytes: number): string {
  const b = Math.round(bytes);
  if (b < 1000) return `${b} B`;
  if (b < 1_000_000) return `${(b / 1000).toFixed(b < 10_000 ? 2 : 1)} KB`;
  return `${(b / 1_000_000).toFixed(b < 10_000_000 ? 2 : 1)} MB`;
}

/** A duration, short: 850 ms, 12.3 s, 4 min 05 s. */
export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
}
