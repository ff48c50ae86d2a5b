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

std::string render_exemplar(const Exemplar& e, double similarity, size_t index) {
  std::string ops;
  for (const auto& op : e.op_sequence) ops += (ops.empty() ? "" : ", ") + op;
  char head[160];
  std::snprintf(head, sizeof head, " (similarity %.2f, score %.3f)\n", similarity, e.score);
  std::string out = "### Example " + std::to_string(index) + ": task " + e.task_id + head;
  out += "Operator sequence: " + ops + "\n\n";
  for (const auto& [path, content] : e.files.items()) {
    if (!content.is_string()) continue;
    std::string lang = path.ends_with(".py") ? "python" : path.ends_with(".cu") ? "cuda" : "text";
    out += "```" + lang + " " + path + "\n" + content.get<std::string>();
    if (!out.ends_with("\n")) out += "\n";
    out += "```\n\n";
  }
  return out;
}

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
    auto cost = static_cast<int64_t>(
        (render_exemplar(*c.exemplar, c.similarity, chosen.size() + 1).size() + 3) / 4);
    if (tokens + cost > max_tokens) continue;
    tokens += cost;
    tasks.insert(c.exemplar->task_id);
    chosen.push_back(c);
  }
  return chosen;
}

std::string exemplar_block(const std::vector<ExemplarChoice>& chosen) {
  if (chosen.empty()) return "";
  std::string out =
      "## Solved examples of similar tasks\n"
      "Passes that were accepted for tasks with similar operator sequences. Use what carries "
      "over; your task's graphs, shapes and dtypes are the ones above.\n\n";
  for (size_t i = 0; i < chosen.size(); ++i) {
    out += render_exemplar(*chosen[i].exemplar, chosen[i].similarity, i + 1);
  }
  return out;
}

}  // namespace pf::experiments
