#include "evaluator/dialect/printer.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <set>

#include "common/strings.h"
#include "evaluator/dialect/parser_impl.h"

namespace pf::dialect {
namespace {

enum class Context { plain, subscript_top, subscript_item };

const std::map<std::string, std::string, std::less<>>& binary_symbols() {
  static const std::map<std::string, std::string, std::less<>> symbols = {
      {"add", "+"},  {"sub", "-"},  {"mul", "*"},    {"truediv", "/"}, {"floordiv", "//"},
      {"mod", "%"},  {"pow", "**"}, {"matmul", "@"}, {"lshift", "<<"}, {"rshift", ">>"},
      {"and_", "&"}, {"or_", "|"},  {"xor", "^"},    {"lt", "<"},      {"le", "<="},
      {"gt", ">"},   {"ge", ">="},  {"eq", "=="},    {"ne", "!="}};
  return symbols;
}

const std::map<std::string, std::string, std::less<>>& unary_symbols() {
  static const std::map<std::string, std::string, std::less<>> symbols = {
      {"neg", "-"}, {"pos", "+"}, {"invert", "~"}};
  return symbols;
}

std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    switch (c) {
      case '\\':
        out += "\\\\";
        break;
      case '\'':
        out += "\\'";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(c));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "'";
}

std::string real_str(double v) {
  if (std::isnan(v)) return "float('nan')";
  if (std::isinf(v)) return v > 0 ? "float('inf')" : "float('-inf')";
  return format_double(v);
}

std::string arg_str(const Arg& a, const std::vector<std::string>& names, Context ctx) {
  auto items = [&](Context item_ctx) {
    std::vector<std::string> parts;
    for (const auto& item : a.items) parts.push_back(arg_str(item, names, item_ctx));
    return parts;
  };
  switch (a.kind) {
    case Arg::Kind::none:
      return "None";
    case Arg::Kind::boolean:
      return a.b ? "True" : "False";
    case Arg::Kind::integer:
      return std::to_string(a.i);
    case Arg::Kind::real:
      return real_str(a.f);
    case Arg::Kind::string:
      return quote(a.s);
    case Arg::Kind::dtype:
      return std::string("torch.") + dtype_name(a.dtype);
    case Arg::Kind::device:
      return "torch.device(" + quote(a.s) + ")";
    case Arg::Kind::ellipsis:
      return "...";
    case Arg::Kind::slice: {
      if (ctx == Context::plain) {
        return "slice(" + join(items(Context::plain), ", ") + ")";
      }
      auto part = [&](const Arg& x) {
        return x.is_none() ? std::string() : arg_str(x, names, Context::plain);
      };
      std::string out = part(a.items[0]) + ":" + part(a.items[1]);
      if (!a.items[2].is_none()) out += ":" + part(a.items[2]);
      return out;
    }
    case Arg::Kind::list:
      return "[" + join(items(Context::plain), ", ") + "]";
    case Arg::Kind::tuple: {
      if (ctx == Context::subscript_top) {
        if (a.items.empty()) return "()";
        std::string inner = join(items(Context::subscript_item), ", ");
        return a.items.size() == 1 ? inner + "," : inner;
      }
      std::string inner = join(items(Context::plain), ", ");
      return a.items.size() == 1 ? "(" + inner + ",)" : "(" + inner + ")";
    }
    case Arg::Kind::value:
      if (a.value >= 0 && static_cast<size_t>(a.value) < names.size()) return names[a.value];
      return "<missing value " + std::to_string(a.value) + ">";
  }
  return "None";
}

// The default as normalize stores it (a lone int or a tuple becomes a list
// for list parameters), so "is the argument the default" compares like with like.
Arg stored_default(const ParamDef& p) {
  Arg d = *p.default_value;
  bool list_param = p.kind == ParamKind::int_list || p.kind == ParamKind::optional_int_list ||
                    p.kind == ParamKind::tensor_list;
  if (list_param && d.kind == Arg::Kind::integer) return Arg::make_list({d});
  if (list_param && d.kind == Arg::Kind::tuple) d.kind = Arg::Kind::list;
  return d;
}

bool omittable(const ParamDef& p, const Arg& a) {
  return p.kind == ParamKind::ignored ||
         (p.default_value && !p.required_in_pytorch && a == stored_default(p));
}

bool valid_identifier(const std::string& s) {
  if (s.empty() || is_keyword(s)) return false;
  if (!(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  }
  return true;
}

class GraphPrinter {
 public:
  GraphPrinter(const Graph& g, const OpRegistry& r, const PrintOptions& o) : g_(g), r_(r), o_(o) {}

  std::string run() {
    assign_names();
    std::string out;
    if (o_.input_header) {
      for (ValueId v : g_.inputs) {
        if (g_.values[v].types.size() == 1) {
          out += "# " + names_[v] + ": " + tensor_type_str(g_.values[v].types[0]) + "\n";
        }
      }
    }
    std::string fname = !o_.function_name.empty() ? o_.function_name
                        : g_.name.empty()         ? "forward"
                                                  : g_.name;
    std::vector<std::string> params;
    for (ValueId v : g_.inputs) params.push_back(names_[v]);
    out += "def " + fname + "(" + join(params, ", ") + "):\n";
    for (const auto& node : g_.nodes) {
      if (is_setitem(node)) {
        // Item assignment on a copy: PyTorch's own spelling of the pure op,
        // and the builder makes these two lines one setitem node again.
        const std::string& y = names_[node.output];
        out += o_.indent + y + " = " + arg(node.args[0]) + ".clone()" + type_comment(node.output) +
               "\n";
        out += o_.indent + y + "[" + arg(node.args[1], Context::subscript_top) +
               "] = " + arg(node.args[2]) + "\n";
        continue;
      }
      std::string line = o_.indent + names_[node.output] + " = " + expression(node);
      out += line + type_comment(node.output) + "\n";
    }
    std::vector<std::string> outs;
    for (ValueId v : g_.outputs) outs.push_back(names_[v]);
    out += o_.indent + "return (" + join(outs, ", ") + (outs.size() == 1 ? ",)" : ")") + "\n";
    return out;
  }

 private:
  // Keeps every value's own name unless it is invalid or would shadow a value
  // that is still needed (or a module the printed code refers to).
  void assign_names() {
    static const std::set<std::string> reserved = {"torch", "operator", "Tensor", "math", "float",
                                                   "slice", "device",   "F",      "nn",   "self"};
    size_t n = g_.values.size();
    names_.assign(n, "");
    std::vector<int> last_use(n, -1);
    for (size_t k = 0; k < g_.nodes.size(); ++k) {
      for (ValueId v : Graph::node_operands(g_.nodes[k])) {
        if (v >= 0 && static_cast<size_t>(v) < n) last_use[v] = static_cast<int>(k);
      }
    }
    for (ValueId v : g_.outputs) last_use[v] = static_cast<int>(g_.nodes.size());
    std::set<std::string> all;
    for (const auto& v : g_.values) all.insert(v.name);
    std::map<std::string, ValueId> current;
    auto define = [&](ValueId v, int at) {
      std::string want = g_.values[v].name;
      auto it = current.find(want);
      bool clash = it != current.end() && it->second != v && last_use[it->second] > at;
      // A setitem's second line reads its index and value after its first
      // line bound the output's name.
      if (at >= 0 && is_setitem(g_.nodes[at]) && it != current.end()) {
        const Node& node = g_.nodes[at];
        clash = clash || arg_reads(node.args[1], it->second) || arg_reads(node.args[2], it->second);
      }
      if (!valid_identifier(want) || reserved.count(want) != 0 || clash) {
        std::string base = valid_identifier(want) ? want : "v";
        int k = 1;
        do {
          want = base + "_" + std::to_string(k++);
        } while (all.count(want) != 0 || current.count(want) != 0);
        all.insert(want);
      }
      names_[v] = want;
      current[want] = v;
    };
    for (ValueId v : g_.inputs) define(v, -1);
    for (size_t k = 0; k < g_.nodes.size(); ++k) define(g_.nodes[k].output, static_cast<int>(k));
  }

  static bool is_setitem(const Node& node) {
    return node.op == "setitem" && node.args.size() == 3 && node.args[0].is_value();
  }

  static bool arg_reads(const Arg& a, ValueId r) {
    if (a.is_value() && a.value == r) return true;
    for (const auto& item : a.items) {
      if (arg_reads(item, r)) return true;
    }
    return false;
  }

  std::string type_comment(ValueId v) const {
    if (!o_.type_comments || g_.values[v].types.empty()) return "";
    const auto& types = g_.values[v].types;
    if (!g_.values[v].is_list) return "  # " + tensor_type_str(types[0]);
    std::vector<std::string> parts;
    parts.reserve(types.size());
    for (const auto& t : types) parts.push_back(tensor_type_str(t));
    return "  # [" + join(parts, ", ") + "]";
  }

  std::string arg(const Arg& a, Context ctx = Context::plain) const {
    return arg_str(a, names_, ctx);
  }

  // An operand of an infix operator: values and simple literals print bare;
  // a negative number left of `**` needs parentheses (-2 ** x is -(2 ** x)).
  std::string operand(const Arg& a, bool left_of_pow) const {
    std::string s = arg(a);
    bool negative = (a.kind == Arg::Kind::integer && a.i < 0) ||
                    (a.kind == Arg::Kind::real && std::signbit(a.f) && !std::isnan(a.f));
    return left_of_pow && negative ? "(" + s + ")" : s;
  }

  bool rest_omittable(const OpInfo& op, const Node& node, size_t from) const {
    for (size_t k = from; k < op.params.size(); ++k) {
      if (!omittable(op.params[k], node.args[k])) return false;
    }
    return true;
  }

  std::string expression(const Node& node) const {
    if (node.op == "tuple_get" && node.args.size() == 2 && node.args[0].is_value()) {
      return arg(node.args[0]) + "[" + arg(node.args[1]) + "]";
    }
    const OpInfo* op = r_.find(node.op);
    if (op != nullptr && op->aliases.empty() && op->params.size() == node.args.size()) {
      if (auto s = overload_form(*op, node)) return *s;
    }
    if (op == nullptr || op->params.size() != node.args.size() || op->aliases.empty()) {
      std::vector<std::string> parts;
      for (const auto& a : node.args) parts.push_back(arg(a));
      return node.op + "(" + join(parts, ", ") + ")";
    }
    for (const auto& alias : op->aliases) {
      if (auto s = operator_form(*op, node, alias)) return *s;
      if (auto s = method_form(*op, node, alias)) return *s;
      if (!starts_with(alias, "operator.") && !starts_with(alias, "Tensor.")) {
        return alias + "(" + call_args(*op, node, 0, false) + ")";
      }
    }
    // Only operator/method spellings, none expressible: a dotted call still parses.
    const std::string& first = op->aliases[0];
    std::string callee = starts_with(first, "Tensor.") ? "torch." + first : first;
    return callee + "(" + call_args(*op, node, 0, false) + ")";
  }

  // An op only an overload reaches (max_dim, median_dim: torch.max(x, 1)):
  // the spelling whose overload picks it for these arguments, so the
  // printed call parses back to the same op.
  std::optional<std::string> overload_form(const OpInfo& op, const Node& node) const {
    for (const auto& name : r_.names()) {
      const OpInfo* root = r_.find(name);
      if (root == nullptr || !root->overload) continue;
      for (const auto& alias : root->aliases) {
        if (!starts_with(alias, "torch.")) continue;
        std::vector<Arg> positional = node.args;
        std::vector<std::pair<std::string, Arg>> keywords;
        if (&r_.resolve(*root, alias, positional, keywords) == &op) {
          return alias + "(" + call_args(op, node, 0, false) + ")";
        }
      }
    }
    return std::nullopt;
  }

  std::optional<std::string> operator_form(const OpInfo& op, const Node& node,
                                           const std::string& alias) const {
    if (!starts_with(alias, "operator.")) return std::nullopt;
    std::string_view name = std::string_view(alias).substr(9);
    auto bin = binary_symbols().find(name);
    if (bin != binary_symbols().end() && op.params.size() >= 2 && rest_omittable(op, node, 2) &&
        (node.args[0].references_values() || node.args[1].references_values())) {
      return operand(node.args[0], bin->second == "**") + " " + bin->second + " " +
             operand(node.args[1], false);
    }
    auto un = unary_symbols().find(name);
    if (un != unary_symbols().end() && !op.params.empty() && rest_omittable(op, node, 1) &&
        node.args[0].is_value()) {
      return un->second + arg(node.args[0]);
    }
    if (name == "getitem" && op.params.size() >= 2 && rest_omittable(op, node, 2) &&
        node.args[0].is_value()) {
      return arg(node.args[0]) + "[" + arg(node.args[1], Context::subscript_top) + "]";
    }
    return std::nullopt;
  }

  std::optional<std::string> method_form(const OpInfo& op, const Node& node,
                                         const std::string& alias) const {
    if (!starts_with(alias, "Tensor.") || op.params.empty() || !node.args[0].is_value()) {
      return std::nullopt;
    }
    return arg(node.args[0]) + "." + alias.substr(7) + "(" + call_args(op, node, 1, true) + ")";
  }

  // Required parameters positionally, non-default optional ones as keywords.
  // Only methods spread a varargs list (`x.view(2, 3)`); PyTorch functions
  // take it whole (`torch.reshape(x, [2, 3])`).
  std::string call_args(const OpInfo& op, const Node& node, size_t from,
                        bool spread_varargs) const {
    std::vector<std::string> parts;
    bool positional = true;
    for (size_t k = from; k < op.params.size(); ++k) {
      const ParamDef& p = op.params[k];
      const Arg& a = node.args[k];
      if (omittable(p, a)) {
        positional = false;
        continue;
      }
      if (!positional || p.keyword_only || p.default_value) {
        parts.push_back(p.name + "=" + arg(a));
        positional = false;
        continue;
      }
      if (spread_varargs && p.varargs && a.kind == Arg::Kind::list && !a.items.empty() &&
          !(a.items.size() == 1 && (a.items[0].is_value() || a.items[0].is_sequence()))) {
        for (const auto& item : a.items) parts.push_back(arg(item));
        positional = false;
        continue;
      }
      parts.push_back(arg(a));
      if (p.varargs) positional = false;
    }
    return join(parts, ", ");
  }

  const Graph& g_;
  const OpRegistry& r_;
  const PrintOptions& o_;
  std::vector<std::string> names_;
};

}  // namespace

std::string print_arg(const Arg& arg, const std::vector<std::string>& names) {
  return arg_str(arg, names, Context::plain);
}

std::string print_graph(const Graph& graph, const OpRegistry& registry,
                        const PrintOptions& options) {
  return GraphPrinter(graph, registry, options).run();
}

}  // namespace pf::dialect
