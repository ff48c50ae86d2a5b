#include "evaluator/tasks/sorted_search.h"

#include <algorithm>
#include <cstdint>

namespace pf {

namespace {

bool rows_sorted(const std::vector<double>& data, const Shape& shape) {
  const int64_t n = shape.empty() ? 1 : shape.back();
  if (n == 0) return true;
  for (size_t row = 0; row + static_cast<size_t>(n) <= data.size(); row += static_cast<size_t>(n)) {
    if (!std::is_sorted(data.begin() + static_cast<std::ptrdiff_t>(row),
                        data.begin() + static_cast<std::ptrdiff_t>(row) + n))
      return false;
  }
  return true;
}

double number(const Arg& a) {
  return a.kind == Arg::Kind::integer ? static_cast<double>(a.i) : a.f;
}

bool is_number(const Arg& a) {
  return a.kind == Arg::Kind::integer || a.kind == Arg::Kind::real;
}

// Why the boundaries `v` are not known sorted ("" when they are).
std::string unsorted_reason(const Graph& graph, ValueId v, const std::vector<InputMeta>& inputs) {
  const Value& value = graph.values[static_cast<size_t>(v)];
  if (value.producer < 0) {
    const auto it = std::find(graph.inputs.begin(), graph.inputs.end(), v);
    const auto i = static_cast<size_t>(it - graph.inputs.begin());
    if (it == graph.inputs.end() || i >= inputs.size()) return "they are not a known input";
    const InputMeta& m = inputs[i];
    if (!m.data)
      return "they are input '" + m.name +
             "', which is synthesised at random (unsorted) without literal data";
    if (!rows_sorted(*m.data, m.shape))
      return "input '" + m.name + "' has literal data that is not sorted along its last dim";
    return "";
  }
  const Node& n = graph.nodes[static_cast<size_t>(value.producer)];
  if (n.op == "tuple_get" && n.args.size() == 2 && n.args[0].is_value() &&
      n.args[1].kind == Arg::Kind::integer && n.args[1].i == 0) {
    const Value& list = graph.values[static_cast<size_t>(n.args[0].value)];
    if (list.producer >= 0) {
      const Node& sort = graph.nodes[static_cast<size_t>(list.producer)];
      const bool ascending =
          sort.args.size() > 2 && sort.args[2].kind == Arg::Kind::boolean && !sort.args[2].b;
      const int64_t rank =
          list.types.empty() ? 0 : static_cast<int64_t>(list.types[0].shape.size());
      const bool last_dim = sort.args.size() > 1 && sort.args[1].kind == Arg::Kind::integer &&
                            (sort.args[1].i == -1 || sort.args[1].i == rank - 1);
      if (sort.op == "sort" && ascending && last_dim) return "";
    }
  }
  if (n.op == "arange" && n.args.size() > 2 && is_number(n.args[2]) && number(n.args[2]) > 0)
    return "";
  if (n.op == "linspace" && n.args.size() > 1 && is_number(n.args[0]) && is_number(n.args[1]) &&
      number(n.args[0]) <= number(n.args[1]))
    return "";
  return "they are computed by '" + n.op +
         "', which is not known to give sorted values (an ascending sort, arange or linspace)";
}

}  // namespace

Status check_sorted_search_boundaries(const Graph& graph, const std::vector<InputMeta>& inputs,
                                      const std::string& file) {
  for (const Node& node : graph.nodes) {
    size_t param = 0;
    if (node.op == "bucketize") {
      param = 1;
    } else if (node.op != "searchsorted") {
      continue;
    }
    if (node.args.size() <= param || !node.args[param].is_value()) continue;
    const std::string why = unsorted_reason(graph, node.args[param].value, inputs);
    if (why.empty()) continue;
    std::string message = file;
    message += ":" + std::to_string(node.loc.line) + ":" + std::to_string(node.loc.column) + ": ";
    message += node.op + " searches boundaries PyTorch assumes are sorted, but " + why;
    message +=
        "; the result on unsorted boundaries is undefined, so there is no reference to "
        "compare against";
    return make_error(ErrorCode::invalid_argument, message);
  }
  return ok_status();
}

}  // namespace pf
