#include "evaluator/passes/rewriter.h"

#include <queue>
#include <set>

#include "evaluator/passes/match_diagnostics.h"

namespace pf::passes {
namespace {

void collect_values(const Arg& a, std::vector<ValueId>& out) {
  if (a.is_value()) out.push_back(a.value);
  for (const auto& item : a.items) collect_values(item, out);
}

Arg remap(const Arg& a, const std::vector<ValueId>& ids) {
  Arg out = a;
  if (out.is_value()) out.value = ids[a.value];
  for (auto& item : out.items) item = remap(item, ids);
  return out;
}

// One unit of the new program: an untouched node, or a match's call.
struct Unit {
  int node = -1;   // untouched node index, or -1
  int match = -1;  // match index, or -1
  int key = 0;     // original position (a call: its match's last node)
};

std::string unique_name(const Graph& g, const std::string& base) {
  std::set<std::string> taken;
  for (const auto& v : g.values) taken.insert(v.name);
  std::string name = base;
  for (int k = 1; taken.count(name); ++k) name = base + "_" + std::to_string(k);
  return name;
}

}  // namespace

int RewriteResult::total_matches() const {
  int n = 0;
  for (const auto& p : passes) n += p.matches;
  return n;
}

Graph rewrite_matches(const Graph& g, const LoadedPass& pass, const std::vector<Match>& matches) {
  if (matches.empty()) return g;
  std::vector<int> match_of(g.nodes.size(), -1);
  for (size_t m = 0; m < matches.size(); ++m) {
    for (int n : matches[m].nodes) match_of[n] = static_cast<int>(m);
  }
  std::vector<Unit> units;
  std::vector<int> unit_of_node(g.nodes.size(), -1);
  std::vector<int> unit_of_match(matches.size(), -1);
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    int m = match_of[n];
    if (m < 0) {
      unit_of_node[n] = static_cast<int>(units.size());
      units.push_back({static_cast<int>(n), -1, static_cast<int>(n)});
    } else if (unit_of_match[m] < 0) {
      unit_of_match[m] = static_cast<int>(units.size());
      units.push_back({-1, m, matches[m].last_node});
    }
  }
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    if (match_of[n] >= 0) unit_of_node[n] = unit_of_match[match_of[n]];
  }
  // Dependencies between units, then a stable topological order (Kahn's
  // algorithm, smallest original position first). The matcher guarantees
  // there is no cycle.
  std::vector<std::vector<int>> dependents(units.size());
  std::vector<int> pending(units.size(), 0);
  for (size_t u = 0; u < units.size(); ++u) {
    std::vector<ValueId> operands;
    if (units[u].node >= 0) {
      operands = Graph::node_operands(g.nodes[units[u].node]);
    } else {
      for (const Arg& b : matches[units[u].match].bindings) collect_values(b, operands);
    }
    std::set<int> deps;
    for (ValueId v : operands) {
      int producer = g.values[v].producer;
      if (producer >= 0 && unit_of_node[producer] != static_cast<int>(u)) {
        deps.insert(unit_of_node[producer]);
      }
    }
    for (int d : deps) dependents[d].push_back(static_cast<int>(u));
    pending[u] = static_cast<int>(deps.size());
  }
  using Item = std::pair<int, int>;  // (key, unit)
  std::priority_queue<Item, std::vector<Item>, std::greater<>> ready;
  for (size_t u = 0; u < units.size(); ++u) {
    if (pending[u] == 0) ready.push({units[u].key, static_cast<int>(u)});
  }

  Graph out;
  out.name = g.name;
  std::vector<ValueId> ids(g.values.size(), kNoValue);
  auto copy_value = [&](ValueId v, int producer) {
    Value copy = g.values[v];
    copy.producer = producer;
    out.values.push_back(std::move(copy));
    ids[v] = static_cast<ValueId>(out.values.size() - 1);
    return ids[v];
  };
  for (ValueId v : g.inputs) out.inputs.push_back(copy_value(v, -1));
  while (!ready.empty()) {
    int u = ready.top().second;
    ready.pop();
    const Unit& unit = units[u];
    if (unit.node >= 0) {
      Node n = g.nodes[unit.node];
      for (auto& a : n.args) a = remap(a, ids);
      n.output = copy_value(n.output, static_cast<int>(out.nodes.size()));
      out.nodes.push_back(std::move(n));
    } else {
      const Match& m = matches[unit.match];
      Node call;
      call.op = pass.call_op();
      for (const Arg& b : m.bindings) call.args.push_back(remap(b, ids));
      call.loc = g.nodes[m.last_node].loc;
      int call_index = static_cast<int>(out.nodes.size());
      if (m.outputs.size() == 1) {
        call.output = copy_value(m.outputs[0], call_index);
        out.nodes.push_back(std::move(call));
      } else {
        Value list;
        list.name = unique_name(g, pass.name + "_out");
        list.is_list = true;
        list.producer = call_index;
        for (ValueId v : m.outputs) {
          if (!g.values[v].types.empty()) list.types.push_back(g.values[v].types[0]);
        }
        out.values.push_back(std::move(list));
        call.output = static_cast<ValueId>(out.values.size() - 1);
        ValueId list_id = call.output;
        out.nodes.push_back(std::move(call));
        for (size_t k = 0; k < m.outputs.size(); ++k) {
          Node get;
          get.op = "tuple_get";
          get.args = {Arg::make_value(list_id), Arg::make_int(static_cast<int64_t>(k))};
          get.loc = out.nodes[call_index].loc;
          get.output = copy_value(m.outputs[k], static_cast<int>(out.nodes.size()));
          out.nodes.push_back(std::move(get));
        }
      }
    }
    for (int d : dependents[u]) {
      if (--pending[d] == 0) ready.push({units[d].key, d});
    }
  }
  for (ValueId v : g.outputs) out.outputs.push_back(ids[v]);
  return out;
}

RewriteResult apply_passes(const Graph& graph, const std::vector<LoadedPass>& passes,
                           const OpRegistry& registry, const MatchOptions& options) {
  RewriteResult result;
  result.graph = graph;
  for (const LoadedPass& pass : passes) {
    PassOutcome outcome;
    outcome.pass = pass.name;
    MatchSearch search = find_matches(pass.pattern, result.graph, registry, options);
    outcome.matches = static_cast<int>(search.matches.size());
    outcome.budget_exhausted = search.budget_exhausted;
    if (search.matches.empty() && search.closest) {
      outcome.diagnostics = render_miss(pass, result.graph, *search.closest, registry);
    }
    result.graph = rewrite_matches(result.graph, pass, search.matches);
    result.passes.push_back(std::move(outcome));
  }
  return result;
}

std::vector<int> call_nodes(const Graph& graph) {
  std::vector<int> out;
  for (size_t n = 0; n < graph.nodes.size(); ++n) {
    if (is_call_op(graph.nodes[n].op)) out.push_back(static_cast<int>(n));
  }
  return out;
}

}  // namespace pf::passes
