#include <vector>
#include <map>
#include <string>
#include <algorithm>
#include <iostream>

namespace shop {
template <typename T>
struct Priced {
    T item;
    double price;
    bool operator<(const Priced& o) const { return price < o.price; }
};

class Basket {
public:
    void add(const std::string& name, double price) {
        items_.push_back({name, price});
        counts_[name]++;
    }
    double total() const {
        double t = 0;
        for (const auto& p : items_) t += p.price;
        return t;
    }
    std::vector<std::string> names() const {
        std::vector<std::string> out;
        for (const auto& [name, n] : counts_) out.push_back(name);
        return out;
    }
    const Priced<std::string>& cheapest() const {
        return *std::min_element(items_.begin(), items_.end());
    }
    template <typename F>
    void each(F f) const {
        for (const auto& p : items_) f(p);
    }
private:
    std::vector<Priced<std::string>> items_;
    std::map<std::string, int> counts_;
};
}  // namespace shop

int main() {
    shop::Basket b;
    b.add("apple", 0.5);
    b.add("pear", 0.7);
    std::cout << b.total() << "\n";
    b.each([](const shop::Priced<std::string>& p) { std::cout << p.item << "\n"; });
    std::map<int, std::string> index;
    index[1] = b.cheapest();
    return 0;
}
