// An order-processing script that crashes. whittle finds the few lines that still crash it.
"use strict";

const TAX_RATE = 0.2;
const catalog = new Map([
  ["apple", { price: 0.5, stock: 120 }],
  ["pear", { price: 0.75, stock: 40 }],
  ["plum", { price: 0.3, stock: 0 }],
]);

function lineTotal(item) {
  const entry = catalog.get(item.name);
  if (!entry) {
    console.log(`unknown item ${item.name}, skipped`);
    return 0;
  }
  return entry.price * item.quantity;
}

function applyDiscount(order, subtotal) {
  const discount = order.coupon ? order.coupon.percent / 100 : 0;
  return subtotal * (1 - discount);
}

function summarize(order) {
  let subtotal = 0;
  for (const item of order.items) subtotal += lineTotal(item);
  const discounted = applyDiscount(order, subtotal);
  const tax = discounted * TAX_RATE;
  return { subtotal, discounted, tax, total: discounted + tax };
}

const orders = [
  { id: 1, items: [{ name: "apple", quantity: 4 }], coupon: null },
  { id: 2, items: [{ name: "pear", quantity: 2 }, { name: "kiwi", quantity: 1 }], coupon: { percent: 10 } },
  { id: 3, items: [], coupon: null },
];

const summaries = orders.map(summarize);
for (const [i, s] of summaries.entries()) {
  console.log(`order ${orders[i].id}: total ${s.total.toFixed(2)}`);
}

const report = { count: summaries.length, best: summaries.sort((a, b) => b.total - a.total)[0] };
console.log(`best order total: ${report.best.total.toFixed(2)}`);

const archived = summaries.find((s) => s.total > 1000);
console.log(`archived total: ${archived.total}`);
