import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/** A small inventory with items, categories and a report. */
public class Inventory {
    public enum Category { TOOL, FOOD, TOY }

    public static final class Item {
        private final String name;
        private final Category category;
        private final int count;
        private final double price;

        public Item(String name, Category category, int count, double price) {
            this.name = name;
            this.category = category;
            this.count = count;
            this.price = price;
        }

        public String name() { return name; }
        public Category category() { return category; }
        public int count() { return count; }
        public double price() { return price; }

        public double value() {
            return count * price;
        }

        @Override
        public String toString() {
            return String.format("%s x%d @ %.2f", name, count, price);
        }
    }

    private final Map<String, Item> items = new HashMap<>();
    private int changes = 0;

    public void add(Item item) {
        Item old = items.get(item.name());
        if (old != null) {
            item = new Item(item.name(), item.category(), old.count() + item.count(), item.price());
        }
        items.put(item.name(), item);
        changes++;
    }

    public boolean remove(String name, int count) {
        Item old = items.get(name);
        if (old == null || old.count() < count) {
            return false;
        }
        if (old.count() == count) {
            items.remove(name);
        } else {
            items.put(name, new Item(name, old.category(), old.count() - count, old.price()));
        }
        changes++;
        return true;
    }

    public List<Item> select(Predicate<Item> test) {
        List<Item> out = new ArrayList<>();
        for (Item item : items.values()) {
            if (test.test(item)) {
                out.add(item);
            }
        }
        out.sort((a, b) -> a.name().compareTo(b.name()));
        return out;
    }

    public Optional<Item> mostValuable() {
        Item best = null;
        for (Item item : items.values()) {
            if (best == null || item.value() > best.value()) {
                best = item;
            }
        }
        return Optional.ofNullable(best);
    }

    public Map<Category, Double> valueByCategory() {
        Map<Category, Double> totals = new HashMap<>();
        for (Item item : items.values()) {
            totals.merge(item.category(), item.value(), Double::sum);
        }
        return totals;
    }

    public String report() {
        StringBuilder sb = new StringBuilder();
        sb.append("Inventory (").append(items.size()).append(" items, ").append(changes).append(" changes)\n");
        for (Category c : Category.values()) {
            List<Item> these = select(i -> i.category() == c);
            if (these.isEmpty()) continue;
            sb.append(c).append(":\n");
            for (Item i : these) {
                sb.append("  ").append(i).append('\n');
            }
        }
        mostValuable().ifPresent(i -> sb.append("most valuable: ").append(i.name()).append('\n'));
        int total = valueByCategory().values().stream().mapToDouble(Double::doubleValue).sum();
        sb.append("total: ").append(total).append('\n');
        return sb.toString();
    }

    public static void main(String[] args) {
        Inventory inv = new Inventory();
        inv.add(new Item("hammer", Category.TOOL, 3, 12.5));
        inv.add(new Item("apple", Category.FOOD, 40, 0.3));
        inv.add(new Item("kite", Category.TOY, 2, 8.0));
        inv.remove("apple", 5);
        System.out.print(inv.report());
    }
}
