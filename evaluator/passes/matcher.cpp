#include "evaluator/passes/matcher.h"

#include <algorithm>
#include <map>

#include "common/strings.h"
#include "evaluator/dialect/printer.h"

namespace pf::passes {
namespace {

void collect_values(const Arg& a, std::vector<ValueId>& out) {
  if (a.is_value()) out.push_back(a.value);
  for (const auto& item : a.items) collect_values(item, out);
}

std::vector<ValueId> values_in(const Arg& a) {
  std::vector<ValueId> out;
  collect_values(a, out);
  return out;
}

// PyTorch reads a lone int where it expects an int list as the one-element
// list, and normalisation keeps the spelling (the printer must give back code
// PyTorch accepts), so `dim=-1` in a pattern matches `dim=[-1]` in a variant.
bool same_literal(const Arg& a, const Arg& b) {
  auto one_of = [](const Arg& list, const Arg& i) {
    return i.kind == Arg::Kind::integer && list.kind == Arg::Kind::list && list.items.size() == 1 &&
           list.items[0] == i;
  };
  return a == b || one_of(a, b) || one_of(b, a);
}

struct State {
  std::vector<int> node_of;                 // pattern node -> graph node
  std::map<int, int> pattern_of;            // graph node -> pattern node
  std::vector<std::optional<Arg>> binding;  // pattern input index -> bound graph Arg
  std::vector<ValueId> value_of;            // pattern value -> graph value
  std::vector<std::pair<int, int>> order;
  int failed_pattern_node = -1;
  int failed_graph_node = -1;
  std::string reason;
};

class Matcher {
 public:
  Matcher(const Graph& p, const Graph& g, const OpRegistry& r, const MatchOptions& o)
      : p_(p), g_(g), r_(r), o_(o), p_names_(p.value_names()), g_names_(g.value_names()) {
    users_.resize(g_.values.size());
    for (size_t n = 0; n < g_.nodes.size(); ++n) {
      for (ValueId v : Graph::node_operands(g_.nodes[n])) {
        auto& u = users_[v];
        if (u.empty() || u.back() != static_cast<int>(n)) u.push_back(static_cast<int>(n));
      }
    }
    input_index_.assign(p_.values.size(), -1);
    for (size_t k = 0; k < p_.inputs.size(); ++k) input_index_[p_.inputs[k]] = static_cast<int>(k);
    std::vector<bool> used(p_.values.size(), false);
    for (const Node& n : p_.nodes) {
      for (ValueId v : Graph::node_operands(n)) used[v] = true;
    }
    for (size_t k = p_.nodes.size(); k-- > 0;) {
      if (!used[p_.nodes[k].output]) anchors_.push_back(static_cast<int>(k));
    }
    consumed_.assign(g_.nodes.size(), false);
    match_of_.assign(g_.nodes.size(), -1);
    graph_outputs_.assign(g_.values.size(), false);
    for (ValueId v : g_.outputs) graph_outputs_[v] = true;
  }

  MatchSearch run() {
    MatchSearch out;
    if (anchors_.empty()) return out;
    const std::string& op = p_.nodes[anchors_[0]].op;
    bool any = false;
    for (size_t n = 0; n < g_.nodes.size() && !budget_hit_; ++n) {
      if (g_.nodes[n].op != op || consumed_[n]) continue;
      any = true;
      State s = fresh();
      if (match_node(anchors_[0], static_cast<int>(n), s) && rest(1, s)) {
        accept(s, out);
      } else {
        consider(s);
      }
    }
    out.budget_exhausted = budget_hit_;
    if (out.matches.empty()) {
      if (!any) {
        PartialMatch none;
        none.pattern_node = anchors_[0];
        none.reason = "the variant has no '" + op + "' node" + ops_in_graph();
        out.closest = std::move(none);
      } else {
        out.closest = best_;
      }
      if (budget_hit_ && out.closest) out.closest->reason += " (search budget exhausted)";
    }
    return out;
  }

 private:
  State fresh() const {
    State s;
    s.node_of.assign(p_.nodes.size(), -1);
    s.binding.assign(p_.inputs.size(), std::nullopt);
    s.value_of.assign(p_.values.size(), kNoValue);
    return s;
  }

  std::string ops_in_graph() const {
    std::vector<std::string> ops;
    for (const Node& n : g_.nodes) {
      if (std::find(ops.begin(), ops.end(), n.op) == ops.end()) ops.push_back(n.op);
    }
    return ops.empty() ? "" : " (its ops: " + join(ops, ", ") + ")";
  }

  void consider(const State& s) {
    int matched = static_cast<int>(s.order.size());
    if (best_ && best_->matched >= matched) return;
    PartialMatch pm;
    pm.matched = matched;
    pm.pairs = s.order;
    pm.pattern_node = s.failed_pattern_node;
    pm.graph_node = s.failed_graph_node;
    pm.reason = s.reason;
    best_ = std::move(pm);
  }

  bool fail(State& s, int pn, int gn, std::string reason) {
    s.failed_pattern_node = pn;
    s.failed_graph_node = gn;
    s.reason = std::move(reason);
    return false;
  }

  std::string gname(ValueId v) const { return g_names_[v]; }
  std::string gline(int n) const {
    int line = g_.nodes[n].loc.line;
    return line > 0 ? " (line " + std::to_string(line) + ")" : "";
  }
  std::string p_arg(const Arg& a) const { return dialect::print_arg(a, p_names_); }
  std::string g_arg(const Arg& a) const {
    if (a.is_value() && g_.values[a.value].producer < 0) return "the input " + gname(a.value);
    return dialect::print_arg(a, g_names_);
  }
  std::string param_label(int pn, size_t i) const {
    const auto* names = r_.param_names(p_.nodes[pn].op);
    if (names != nullptr && i < names->size()) return "argument '" + (*names)[i] + "'";
    return "argument " + std::to_string(i + 1);
  }

  bool rest(size_t k, State& s) {
    if (k == anchors_.size()) return validate(s);
    int pn = anchors_[k];
    const std::string& op = p_.nodes[pn].op;
    bool any = false;
    for (size_t n = 0; n < g_.nodes.size() && !budget_hit_; ++n) {
      if (g_.nodes[n].op != op || consumed_[n] || s.pattern_of.count(static_cast<int>(n))) continue;
      any = true;
      State t = s;
      if (match_node(pn, static_cast<int>(n), t) && rest(k + 1, t)) {
        s = std::move(t);
        return true;
      }
      consider(t);
    }
    if (!any) return fail(s, pn, -1, "no further '" + op + "' node for this pattern output");
    return false;
  }

  bool match_node(int pn, int gn, State& s) {
    if (++steps_ > o_.max_steps) {
      budget_hit_ = true;
      return fail(s, pn, gn, "search budget exhausted");
    }
    const Node& pnode = p_.nodes[pn];
    const Node& gnode = g_.nodes[gn];
    if (consumed_[gn]) {
      return fail(
          s, pn, gn,
          gname(gnode.output) + gline(gn) + " already belongs to an earlier match of this pass");
    }
    if (s.pattern_of.count(gn)) {
      return fail(s, pn, gn,
                  gname(gnode.output) + gline(gn) + " would have to match two pattern nodes");
    }
    if (pnode.op != gnode.op || pnode.args.size() != gnode.args.size()) {
      return fail(s, pn, gn, "expected op '" + pnode.op + "', found '" + gnode.op + "'");
    }
    s.node_of[pn] = gn;
    s.pattern_of[gn] = pn;
    s.value_of[pnode.output] = gnode.output;
    s.order.emplace_back(pn, gn);
    for (size_t i = 0; i < pnode.args.size(); ++i) {
      if (!match_arg(pnode.args[i], gnode.args[i], pn, gn, i, s)) return false;
    }
    return true;
  }

  bool match_arg(const Arg& pa, const Arg& ga, int pn, int gn, size_t i, State& s) {
    if (pa.is_value()) {
      ValueId pv = pa.value;
      if (int k = input_index_[pv]; k >= 0) {
        if (!s.binding[k]) {
          s.binding[k] = ga;
          return true;
        }
        if (*s.binding[k] == ga) return true;
        return fail(s, pn, gn,
                    param_label(pn, i) + ": parameter '" + p_names_[pv] + "' is already bound to " +
                        g_arg(*s.binding[k]) + ", but here the variant has " + g_arg(ga));
      }
      const Node& producer = p_.nodes[p_.values[pv].producer];
      if (!ga.is_value()) {
        return fail(s, pn, gn,
                    param_label(pn, i) + ": the pattern expects '" + p_names_[pv] + "' (" +
                        producer.op + "), the variant has the literal " + g_arg(ga));
      }
      ValueId gv = ga.value;
      if (s.value_of[pv] != kNoValue) {
        if (s.value_of[pv] == gv) return true;
        return fail(s, pn, gn,
                    param_label(pn, i) + ": '" + p_names_[pv] + "' matched " +
                        gname(s.value_of[pv]) + " elsewhere, here the variant has " + gname(gv));
      }
      int gprod = g_.values[gv].producer;
      if (gprod < 0) {
        return fail(s, pn, gn,
                    param_label(pn, i) + ": the pattern expects '" + p_names_[pv] +
                        "' computed by '" + producer.op + "', the variant has " + g_arg(ga) +
                        "; make it a parameter of the pattern");
      }
      return match_node(p_.values[pv].producer, gprod, s);
    }
    if (pa.references_values()) {  // a list/tuple/slice holding wildcards
      if (pa.kind != ga.kind || pa.items.size() != ga.items.size()) {
        return fail(s, pn, gn,
                    param_label(pn, i) + ": the pattern has " + p_arg(pa) + ", the variant has " +
                        g_arg(ga));
      }
      for (size_t k = 0; k < pa.items.size(); ++k) {
        if (!match_arg(pa.items[k], ga.items[k], pn, gn, i, s)) return false;
      }
      return true;
    }
    if (same_literal(pa, ga)) return true;
    return fail(
        s, pn, gn,
        param_label(pn, i) + ": the pattern has " + p_arg(pa) + ", the variant has " + g_arg(ga));
  }

  // Rules that need the whole match: outside users, graph outputs, and
  // parameters that would bind the match's own values (directly or through
  // nodes outside it).
  bool validate(State& s) {
    std::vector<bool> returned(p_.values.size(), false);
    for (ValueId v : p_.outputs) returned[v] = true;
    for (size_t pn = 0; pn < p_.nodes.size(); ++pn) {
      ValueId pv = p_.nodes[pn].output;
      if (returned[pv]) continue;
      ValueId gv = s.value_of[pv];
      int gn = s.node_of[pn];
      if (graph_outputs_[gv]) {
        return fail(s, static_cast<int>(pn), gn,
                    gname(gv) +
                        " is an output of the variant, but the pattern does not return "
                        "it ('" +
                        p_names_[pv] + "'); return it from the pattern");
      }
      for (int u : users_[gv]) {
        if (s.pattern_of.count(u)) continue;
        return fail(s, static_cast<int>(pn), gn,
                    gname(gv) + " is also used by " + gname(g_.nodes[u].output) + gline(u) +
                        ", outside the pattern; return it from the pattern or include its user");
      }
    }
    // Taint: values that depend on the match's outputs. An earlier match of
    // this pass becomes one call, so touching any of its nodes taints all
    // its outputs (which may precede the touching node: iterate to a fixpoint).
    std::vector<bool> tainted(g_.values.size(), false);
    for (int gn : s.node_of) tainted[g_.nodes[gn].output] = true;
    std::vector<bool> unit_tainted(accepted_.size(), false);
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t n = 0; n < g_.nodes.size(); ++n) {
        if (s.pattern_of.count(static_cast<int>(n)) || tainted[g_.nodes[n].output]) continue;
        auto operands = Graph::node_operands(g_.nodes[n]);
        if (std::none_of(operands.begin(), operands.end(), [&](ValueId v) { return tainted[v]; })) {
          continue;
        }
        int j = match_of_[n];
        if (j < 0) {
          tainted[g_.nodes[n].output] = true;
        } else if (!unit_tainted[j]) {
          unit_tainted[j] = true;
          for (int m : accepted_[j]) tainted[g_.nodes[m].output] = true;
          changed = true;
        }
      }
    }
    for (size_t k = 0; k < p_.inputs.size(); ++k) {
      if (!s.binding[k]) continue;  // a parameter the pattern never uses binds nothing
      for (ValueId v : values_in(*s.binding[k])) {
        if (!tainted[v]) continue;
        int prod = g_.values[v].producer;
        bool own = s.pattern_of.count(prod) != 0;
        return fail(s, -1, prod,
                    "parameter '" + p_names_[p_.inputs[k]] + "' binds " + gname(v) + gline(prod) +
                        (own ? ", which the match itself computes"
                             : ", which depends on a value computed inside the match") +
                        "; the match cannot be replaced by one call");
      }
    }
    return true;
  }

  void accept(const State& s, MatchSearch& out) {
    Match m;
    m.nodes = s.node_of;
    for (const auto& b : s.binding) m.bindings.push_back(b ? *b : Arg::make_none());
    for (ValueId v : p_.outputs) m.outputs.push_back(s.value_of[v]);
    for (int gn : s.node_of) {
      consumed_[gn] = true;
      match_of_[gn] = static_cast<int>(accepted_.size());
      m.last_node = std::max(m.last_node, gn);
    }
    accepted_.push_back(s.node_of);
    out.matches.push_back(std::move(m));
  }

  const Graph& p_;
  const Graph& g_;
  const OpRegistry& r_;
  const MatchOptions& o_;
  std::vector<std::string> p_names_, g_names_;
  std::vector<std::vector<int>> users_;     // graph value -> user nodes
  std::vector<int> input_index_;            // pattern value -> input index or -1
  std::vector<int> anchors_;                // pattern nodes without pattern users, latest first
  std::vector<bool> consumed_;              // graph nodes of accepted matches
  std::vector<int> match_of_;               // graph node -> accepted match index or -1
  std::vector<std::vector<int>> accepted_;  // graph nodes of each accepted match
  std::vector<bool> graph_outputs_;
  std::optional<PartialMatch> best_;
  size_t steps_ = 0;
  bool budget_hit_ = false;
};

}  // namespace

MatchSearch find_matches(const Graph& pattern, const Graph& graph, const OpRegistry& registry,
                         const MatchOptions& options) {
  return Matcher(pattern, graph, registry, options).run();
}

}  // namespace pf::passes
