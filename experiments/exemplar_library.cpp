#include "experiments/exemplar_library.h"

#include <algorithm>
#include <cstdio>
#include <set>

namespace pf::experiments {

double op_similarity(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  if (a.empty() && b.empty()) return 1;
  std::vector<size_t> prev(b.size() + 1, 0), cur(b.size() + 1, 0);
  for (const auto& x : a) {
    for (size_t j = 1; j <= b.size(); ++j) {
      cur[j] = x == b[j - 1] ? prev[j - 1] + 1 : std::max(prev[j], cur[j - 1]);
    }
    std::swap(prev, cur);
  }
  return 2.0 * static_cast<double>(prev[b.size()]) / static_cast<double>(a.size() + b.size());
}

namespace {

//! Bytes an exemplar adds to a prompt, template aside.
size_t exemplar_bytes(const Exemplar& e) {
  size_t bytes = 100;
  for (const auto& op : e.op_sequence) bytes += op.size() + 2;
  for (const auto& [path, content] : e.files.items()) {
    if (content.is_string()) bytes += path.size() + content.get_ref<const std::string&>().size();
  }
  return bytes;
}

}  // namespace

std::vector<ExemplarChoice> choose_exemplars(const std::vector<Exemplar>& library,
                                             const std::string& task_id,
                                             const std::vector<std::string>& ops, int count,
                                             int64_t max_tokens) {
  std::vector<ExemplarChoice> ranked;
  for (const auto& e : library) {
    if (e.task_id == task_id) continue;
    double s = op_similarity(ops, e.op_sequence);
    if (s > 0) ranked.push_back({&e, s});
  }
  std::sort(ranked.begin(), ranked.end(), [](const ExemplarChoice& x, const ExemplarChoice& y) {
    if (x.similarity != y.similarity) return x.similarity > y.similarity;
    if (x.exemplar->score != y.exemplar->score) return x.exemplar->score > y.exemplar->score;
    if (x.exemplar->task_id != y.exemplar->task_id)
      return x.exemplar->task_id < y.exemplar->task_id;
    return x.exemplar->episode_id < y.exemplar->episode_id;
  });
  std::vector<ExemplarChoice> chosen;
  std::set<std::string> tasks;
  int64_t tokens = 0;
  for (const auto& c : ranked) {
    if (static_cast<int>(chosen.size()) >= count) break;
    if (tasks.count(c.exemplar->task_id)) continue;
    auto cost = static_cast<int64_t>((exemplar_bytes(*c.exemplar) + 3) / 4);
    if (tokens + cost > max_tokens) continue;
    tokens += cost;
    tasks.insert(c.exemplar->task_id);
    chosen.push_back(c);
  }
  return chosen;
}

nlohmann::json exemplar_context(const std::vector<ExemplarChoice>& chosen) {
  if (chosen.empty()) return nullptr;
  nlohmann::json examples = nlohmann::json::array();
  for (const auto& c : chosen) {
    const Exemplar& e = *c.exemplar;
    std::string ops;
    for (const auto& op : e.op_sequence) ops += (ops.empty() ? "" : ", ") + op;
    char similarity[32], score[32];
    std::snprintf(similarity, sizeof similarity, "%.2f", c.similarity);
    std::snprintf(score, sizeof score, "%.3f", e.score);
    nlohmann::json files = nlohmann::json::array();
    for (const auto& [path, content] : e.files.items()) {
      if (!content.is_string()) continue;
      std::string text = content.get<std::string>();
      if (!text.ends_with("\n")) text += "\n";
      std::string lang = path.ends_with(".py") ? "python" : path.ends_with(".cu") ? "cuda" : "text";
      files.push_back({{"path", path}, {"lang", lang}, {"content", text}});
    }
    examples.push_back({{"number", examples.size() + 1},
                        {"task_id", e.task_id},
                        {"op_sequence", ops},
                        {"similarity", similarity},
                        {"score", score},
                        {"files", files}});
  }
  return {{"count", examples.size()}, {"examples", examples}};
}

}  // namespace pf::experiments
