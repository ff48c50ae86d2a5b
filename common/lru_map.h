// A map from string keys to values that drops its least recently used
// entries beyond a budget: each entry has a cost (bytes, or 1 to count
// keys) and the entries' total cost is kept within the budget. The worker's
// memos (input draws, typed graphs, the baseline pool) share it.
//
// Not thread-safe: its owner holds the lock.
#pragma once

#include <cstddef>
#include <list>
#include <map>
#include <string>
#include <utility>

namespace pf {

template <class V>
class LruMap {
 public:
  explicit LruMap(size_t budget) : budget_(budget) {}

  //! The value under `key`, now the most recently used; null when absent.
  V* find(const std::string& key) {
    auto it = entries_.find(key);
    if (it == entries_.end()) return nullptr;
    order_.splice(order_.begin(), order_, it->second.order);
    return &it->second.value;
  }

  //! Stores `value` under `key` as the most recently used (replacing what
  //! was there), then drops the least recently used others until the total
  //! cost fits the budget. An entry costing more than the budget is not kept.
  void put(const std::string& key, V value, size_t cost) {
    erase(key);
    if (cost > budget_) return;
    while (!order_.empty() && cost_ + cost > budget_) {
      const std::string victim = order_.back();
      erase(victim);
    }
    order_.push_front(key);
    entries_.emplace(key, Entry{std::move(value), cost, order_.begin()});
    cost_ += cost;
  }

  void erase(const std::string& key) {
    auto it = entries_.find(key);
    if (it == entries_.end()) return;
    cost_ -= it->second.cost;
    order_.erase(it->second.order);
    entries_.erase(it);
  }

  void clear() {
    entries_.clear();
    order_.clear();
    cost_ = 0;
  }

  size_t size() const { return entries_.size(); }
  size_t cost() const { return cost_; }
  size_t budget() const { return budget_; }

 private:
  struct Entry {
    V value;
    size_t cost = 0;
    std::list<std::string>::iterator order;
  };
  size_t budget_;
  std::map<std::string, Entry> entries_;
  std::list<std::string> order_;  // most recent first
  size_t cost_ = 0;
};

}  // namespace pf
