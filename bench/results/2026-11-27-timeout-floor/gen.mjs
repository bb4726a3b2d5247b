// gen.mjs SEED: a fuzzer-like JavaScript program (~3 KB) with loops; the failure is a RangeError
// from an array length computed through a loop.
let s = Number(process.argv[2] ?? 1);
const r = (n) => { s = (s * 1103515245 + 12345) % 2147483648; return s % n; };
const v = () => `v${r(12)}`;
const out = [];
const lit = () => [String(r(100)), `"s${r(50)}"`, "[]", "{}", "null", "true", `${r(9)}.5`][r(7)];
const stmt = (d) => {
  switch (r(d > 1 ? 6 : 9)) {
    case 0: return `var ${v()} = ${lit()};`;
    case 1: return `${v()} = ${v()} + ${lit()};`;
    case 2: return `try { ${v()}.p${r(5)} = ${lit()}; } catch (e) { ${v()} = e; }`;
    case 3: return `function f${r(30)}(a, b) { ${stmt(d + 1)} return a; }`;
    case 4: return `if (${v()} == ${lit()}) { ${stmt(d + 1)} }`;
    case 5: return `${v()} = [${lit()}, ${lit()}].map(function (x) { return x; });`;
    case 6: { const i = `i${r(9)}`; return `for (let ${i} = 0; ${i} < ${2 + r(20)}; ${i}++) { ${stmt(d + 1)} }`; }
    case 7: { const k = `k${r(9)}`; return `var ${k} = 0; while (${k} < ${5 + r(50)}) { ${k} += ${1 + r(3)}; ${stmt(d + 1)} }`; }
    default: return `var o${r(20)} = { a: ${lit()}, b: function () { return ${lit()}; } };`;
  }
};
for (let i = 0; i < 12; i++) out.push(`var v${i} = ${lit()};`);
const n = 40 + r(30), at = 10 + r(n - 10);
for (let i = 0; i < n; i++) {
  if (i === at) out.push(`var len = 7; for (let j = 0; j < 4; j++) { len -= 3; }`, `var arr = new Array(len < 0 ? len : 1);`);
  else out.push(stmt(0));
}
console.log(out.join("\n"));
