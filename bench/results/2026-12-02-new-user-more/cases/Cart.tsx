// Cart.tsx — the checkout cart, rendered by a tiny JSX runtime (no React types needed).
declare global {
namespace JSX {
  interface Element { tag: string; props: Record<string, unknown>; children: unknown[] }
  interface IntrinsicElements {
    div: { className?: string; role?: string };
    ul: { className?: string };
    li: { key?: string; className?: string };
    span: { className?: string; title?: string };
    button: { onClick?: () => void; disabled?: boolean; className?: string };
  }
}
}
declare function h(tag: unknown, props: unknown, ...children: unknown[]): JSX.Element;

type Money = { cents: number; currency: "EUR" | "USD" };

interface Line {
  sku: string;
  title: string;
  quantity: number;
  price: Money;
}

interface CartProps {
  lines: Line[];
  coupon?: string;
  onCheckout: () => void;
}

function formatMoney({ cents, currency }: Money): string {
  const units = (cents / 100).toFixed(2);
  return currency === "EUR" ? `${units} €` : `$${units}`;
}

function total(lines: readonly Line[]): Money {
  const currency = lines[0]?.price.currency ?? "EUR";
  return { cents: lines.reduce((sum, l) => sum + l.quantity * l.price.cents, 0), currency };
}

function Price(props: { value: Money; strike?: boolean }): JSX.Element {
  return <span className={props.strike ? "price price--old" : "price"}>{formatMoney(props.value)}</span>;
}

function CartLine({ line }: { line: Line }): JSX.Element {
  return (
    <li key={line.sku} className="cart__line">
      <span title={line.sku}>{line.title}</span>
      <span className="cart__qty">× {line.quantity}</span>
      <Price value={line.price} />
    </li>
  );
}

export function Cart({ lines, coupon, onCheckout }: CartProps): JSX.Element {
  const sum = total(lines);
  const empty = lines.length === 0;
  return (
    <div className="cart" role="region">
      <ul className="cart__lines">
        {lines.map((line) => <CartLine line={line} />)}
      </ul>
      {coupon ? <span className="cart__coupon">{coupon}</span> : null}
      <div className="cart__total">
        <Price value={sum} strike={coupon} />
      </div>
      <button className="button" disabled={empty} onClick={onCheckout}>
        Checkout
      </button>
    </div>
  );
}
