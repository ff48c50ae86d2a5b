#include "evaluator/tasks/hidden_variants.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "common/sha256.h"

namespace pf {

void hide_variant_share(Task& task, double share) {
  for (auto& v : task.variants) v.hidden = false;
  if (share <= 0 || task.variants.size() < 2) return;
  size_t n = std::min(task.variants.size() - 1,
                      static_cast<size_t>(share * static_cast<double>(task.variants.size())));
  std::vector<std::pair<std::string, size_t>> ranked;
  for (size_t i = 0; i < task.variants.size(); ++i) {
    ranked.emplace_back(sha256_hex(task.id + "/" + task.variants[i].name), i);
  }
  std::sort(ranked.begin(), ranked.end());
  for (size_t k = 0; k < n; ++k) task.variants[ranked[k].second].hidden = true;
}

}  // namespace pf
