// Answers resolved per test time by speculation over a chain of independent answers of rate p,
// `slots` slots, the estimate equal to the true rate (the best such a speculator can do).
const memo = new Map();
export function speedup(p, slots) {
  const key = `${p.toFixed(2)}/${slots}`;
  if (memo.has(key)) return memo.get(key);
  const q = Math.min(0.99, Math.max(0.01, p));
  let s = 7; const rnd = () => { s = (s * 1103515245 + 12345) % 2147483648; return s / 2147483648; };
  const mk = () => ({ ans: rnd() < p, t: null, kids: null });
  const kids = (n) => (n.kids ??= [mk(), mk()]);
  let root = mk(), now = 0, resolved = 0; const running = []; const steps = 5000;
  while (resolved < steps) {
    while (running.length < slots) {
      const open = []; const st = [[root, 1]];
      while (st.length && open.length < 64) { const [n, r] = st.pop(); if (n.t === null) { open.push([n, r]); continue; }
        const [no, yes] = kids(n); if (n.t <= now) st.push(n.ans ? [yes, r] : [no, r]); else st.push([no, r * (1 - q)], [yes, r * q]); }
      open.sort((a, b) => b[1] - a[1]); const n = open[0][0]; n.t = now + 0.9 + 0.2 * rnd(); running.push(n);
    }
    running.sort((a, b) => a.t - b.t); now = running[0].t;
    for (let i = running.length - 1; i >= 0; i--) if (running[i].t <= now) running.splice(i, 1);
    while (root.t !== null && root.t <= now) { const [no, yes] = kids(root); root = root.ans ? yes : no; resolved++; }
    const under = new Set(); const st = [root]; while (st.length) { const n = st.pop(); under.add(n); if (n.kids) st.push(...n.kids); }
    for (let i = running.length - 1; i >= 0; i--) if (!under.has(running[i])) running.splice(i, 1);
  }
  const v = resolved / now; memo.set(key, v); return v;
}
