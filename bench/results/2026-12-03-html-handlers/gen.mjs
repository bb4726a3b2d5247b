// The page of ../2026-12-03-html-islands/gen.mjs with its script started from the markup: `<body
// onload="init()">`, and a quoted event handler on each row's button and link (no listeners added
// by the script), as pages written by hand and fuzzers' pages have them.
let s = 7;
const r = (n) => { s = (s * 1103515245 + 12345) % 2147483648; return s % n; };
const out = [];
out.push("<!doctype html>", "<html lang=\"en\">", "<head>", "<meta charset=\"utf-8\">", "<title>Inventory</title>", "<style>");
for (let i = 0; i < 30; i++) out.push(`  .c${i} { margin: ${r(20)}px; padding: ${r(9)}px ${r(9)}px; color: #${(r(4096)).toString(16).padStart(3, "0")}; }`);
out.push("</style>", "</head>", "<body onload=\"init()\">", "<header><h1>Inventory</h1><nav><a href=\"#a\">All</a> | <a href=\"#b\">Low</a></nav></header>", "<table id=\"items\">");
for (let i = 0; i < 40; i++) out.push(`  <tr class="c${r(30)}"><td>item ${i}</td><td>${r(500)}</td><td><button onclick="edit(this, ${i}); return false;">edit</button> <a href="#" onmouseover="highlight(this.parentNode, 'c${r(30)}')">show</a></td></tr>`);
out.push("</table>", "<script>");
out.push("var settings = { currency: 'EUR', locale: 'de-DE', limits: { low: 5, high: 90 } };");
for (let i = 0; i < 25; i++) {
  out.push(`function f${i}(rows, k) {`, `  var acc = ${r(10)};`, `  for (var j = 0; j < rows.length; j++) { if (rows[j].qty > k) { acc += rows[j].qty * ${r(7) + 1}; } }`, `  return acc + settings.limits.low;`, `}`);
}
out.push("function readRows() {", "  var rows = [];", "  var trs = document.querySelectorAll('#items tr');", "  for (var i = 0; i < trs.length; i++) { rows.push({ name: trs[i].cells[0].textContent, qty: Number(trs[i].cells[1].textContent) }); }", "  return rows;", "}");
out.push("function format(n) { return new Intl.NumberFormat(settings.locale, { style: 'currency', currency: settings.currency }).format(n); }");
out.push("function summary(rows) {", "  var total = 0;");
for (let i = 0; i < 25; i += 3) out.push(`  total += f${i}(rows, ${r(50)});`);
out.push("  return format(total);", "}");
out.push("function thresholds(rows) {", "  var t = settings.limits.warn;", "  return rows.filter(function (row) { return row.qty < t.level; });", "}");
out.push("function init() {", "  var rows = readRows();", "  document.title = 'Inventory ' + summary(rows);", "  var low = thresholds(rows);", "  document.querySelector('h1').textContent += ' (' + low.length + ' low)';", "}");
out.push("function edit(button, id) { alert(id); }", "function highlight(cell, name) { cell.className = name; }");
out.push("</script>", "</body>", "</html>");
console.log(out.join("\n"));
