#include "evaluator/tasks/importer.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>

#include "common/fs.h"
#include "common/strings.h"
#include "evaluator/core/half.h"
#include "evaluator/dialect/graph_builder.h"
#include "evaluator/dialect/printer.h"
#include "evaluator/ops/cpu_executor.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/type_inference.h"
#include "evaluator/tasks/class_targets.h"
#include "evaluator/tasks/hidden_variants.h"
#include "evaluator/tasks/index_write_check.h"
#include "evaluator/tasks/informative_inputs.h"
#include "evaluator/tasks/sorted_search.h"
#include "evaluator/tasks/weight_meta.h"

namespace pf {
namespace fs = std::filesystem;
namespace {

bool is_sample_dir(const fs::path& dir) {
  return fs::exists(dir / "model.py") && fs::exists(dir / "weight_meta.py");
}

bool is_task_dir(const fs::path& dir) {
  return fs::exists(dir / "graph_list.txt");
}

std::vector<TensorType> input_types(const std::vector<InputMeta>& inputs) {
  std::vector<TensorType> out;
  out.reserve(inputs.size());
  for (const auto& in : inputs) out.push_back({in.dtype, in.shape});
  return out;
}

// "transformers-auto-model/google_rembert" from graph_net.json, if present.
std::string model_of(const fs::path& variant_dir) {
  auto text = read_file(variant_dir / "graph_net.json");
  if (!text.ok()) return "";
  auto j = nlohmann::json::parse(*text, nullptr, false);
  if (!j.is_object()) return "";
  std::string model = j.value("model_name", "");
  std::string source = j.value("source", "");
  return source.empty() ? model : source + "/" + model;
}

// Carries a float32 input into `dt`, or says why it cannot keep what it holds.
// A literal at float32's extreme (+-FLT_MAX) is a mask built from
// torch.finfo(float32).min, which a model running in `dt` builds from `dt`'s
// extreme: it becomes that, not infinity (an infinite mask entry makes
// `scores + mask` non-finite). Any other finite literal that `dt` cannot
// hold, or statistics so small that every synthesised value is zero in `dt`
// (GraphNet records tensors at 1e-13), would make the copy's output
// non-finite or all zeros.
Status carry_input(InputMeta& in, DType dt) {
  double smallest = 0, largest = 0;  // smallest positive (subnormal), largest finite
  double (*round)(double) = nullptr;
  if (dt == DType::float16) smallest = 0x1.0p-24, largest = 65504, round = round_to_half;
  if (dt == DType::bfloat16) {
    smallest = 0x1.0p-133, largest = 0x1.fep127, round = round_to_bfloat16;
  }
  in.dtype = dt;
  if (round == nullptr) return ok_status();
  constexpr double kFloat32Max = std::numeric_limits<float>::max();
  if (in.data) {
    for (double& v : *in.data) {
      if (std::fabs(v) == kFloat32Max) v = std::copysign(largest, v);
      if (std::isfinite(v) && !std::isfinite(round(v))) {
        return make_error(ErrorCode::unsupported, in.name + " holds " + format_double(v) +
                                                      ", infinite in " + dtype_name(dt));
      }
    }
    return ok_status();
  }
  const double magnitude = std::max(std::fabs(in.mean.value_or(0)), in.std.value_or(0));
  if (magnitude > 0 && magnitude < smallest) {
    return make_error(ErrorCode::unsupported,
                      in.name + "'s values (mean " + format_double(in.mean.value_or(0)) + ", std " +
                          format_double(in.std.value_or(0)) + ") are below " + dtype_name(dt) +
                          "'s smallest number: all zeros there");
  }
  return ok_status();
}

// True when an input's statistics are beyond `dt`'s range (GraphNet records
// activations at 1e35). Synthesis clamps values to [-100, 100], so the copy's
// inputs fit, but what the graph makes of them may not (a bmm of 32 such
// products overflows float16); a batch norm after them normalises them.
bool statistics_beyond(const TaskVariant& copy, DType dt) {
  const double largest = dt == DType::float16 ? 65504 : dt == DType::bfloat16 ? 0x1.fep127 : 0;
  if (largest == 0) return false;
  for (const auto& in : copy.inputs) {
    if (!in.data && std::max(std::fabs(in.mean.value_or(0)), in.std.value_or(0)) > largest) {
      return true;
    }
  }
  return false;
}

// Variants whose floating inputs are all float32 get copies in other dtypes.
std::vector<TaskVariant> dtype_copies(const TaskVariant& v, const ImportOptions& options,
                                      const OpRegistry& registry,
                                      std::vector<std::string>& warnings) {
  std::vector<TaskVariant> out;
  bool has_float = false;
  for (const auto& in : v.inputs) {
    if (!is_floating(in.dtype)) continue;
    if (in.dtype != DType::float32) return out;
    has_float = true;
  }
  if (!has_float) return out;
  for (DType dt : options.extra_float_dtypes) {
    TaskVariant copy = v;
    copy.name += std::string(".") + dtype_name(dt);
    Status carried = ok_status();
    for (auto& in : copy.inputs) {
      if (is_floating(in.dtype) && carried.ok()) carried = carry_input(in, dt);
    }
    if (!carried.ok()) {
      warnings.push_back("no " + std::string(dtype_name(dt)) + " copy of " + v.name + ": " +
                         carried.error().message);
      continue;
    }
    auto graph = typed_variant_graph(copy, registry);
    if (!graph.ok()) {
      warnings.push_back("no " + std::string(dtype_name(dt)) + " copy of " + v.name + ": " +
                         graph.error().message);
      continue;
    }
    if (statistics_beyond(copy, dt)) {
      // Decided as `passforge tasks check` decides (default seed): a copy no
      // input draw makes informative is not made; its float32 original is.
      const Graph& g = *graph;
      OutputRunner cpu = [&g, &registry](const std::vector<Tensor>& inputs) {
        return run_graph_cpu(g, inputs, registry);
      };
      auto draw = draw_informative_inputs(copy, SynthesisOptions{}, cpu);
      if (!draw.ok() || !draw->informative) {
        warnings.push_back("no " + std::string(dtype_name(dt)) + " copy of " + v.name +
                           ": its inputs' statistics are beyond " + dtype_name(dt) +
                           "'s range and no input draw makes its outputs informative (" +
                           (draw.ok() ? draw->summary() : draw.error().message) + ")");
        continue;
      }
    }
    out.push_back(std::move(copy));
  }
  return out;
}

TaskImport import_one(const fs::path& dir, const ImportOptions& options,
                      const OpRegistry& registry) {
  TaskImport result;
  result.dir = dir;
  Task task;
  task.id = dir.filename().string();
  task.source = options.source_label;
  task.license = options.license;
  std::vector<std::pair<std::string, fs::path>> variant_dirs;  // name, directory
  if (is_task_dir(dir)) {
    auto list = read_file(dir / "graph_list.txt");
    if (!list.ok()) {
      result.error = list.error().message;
      return result;
    }
    for (const auto& line : split(*list, '\n')) {
      auto entry = std::string(trim(line));
      if (entry.empty() || entry[0] == '#') continue;
      fs::path p = dir / entry;
      variant_dirs.emplace_back(p.filename().string(), p);
    }
  } else {
    variant_dirs.emplace_back(dir.filename().string(), dir);
  }
  for (const auto& [name, vdir] : variant_dirs) {
    auto model = read_file(vdir / "model.py");
    auto meta = read_file(vdir / "weight_meta.py");
    if (!model.ok() || !meta.ok()) {
      result.warnings.push_back(name + ": " + (!model.ok() ? model.error() : meta.error()).message);
      continue;
    }
    auto variant = import_variant(name, *model, (vdir / "model.py").string(), *meta,
                                  (vdir / "weight_meta.py").string(), registry);
    if (!variant.ok()) {
      result.warnings.push_back(name + ": " + variant.error().message);
      continue;
    }
    variant->provenance = (vdir.lexically_relative(dir.parent_path())).string();
    std::string model_name = model_of(vdir);
    if (!model_name.empty() &&
        std::find(task.models.begin(), task.models.end(), model_name) == task.models.end()) {
      task.models.push_back(model_name);
    }
    auto copies = dtype_copies(*variant, options, registry, result.warnings);
    task.variants.push_back(std::move(*variant));
    for (auto& c : copies) task.variants.push_back(std::move(c));
  }
  if (task.variants.empty()) {
    result.error = "no variant could be imported" +
                   (result.warnings.empty() ? std::string() : " (" + result.warnings[0] + ")");
    return result;
  }
  auto first = typed_variant_graph(task.variants[0], registry);
  if (first.ok()) {
    for (const auto& node : first->nodes) task.op_sequence.push_back(node.op);
  }
  hide_variant_share(task, options.hidden_share);
  result.task = std::move(task);
  return result;
}

void collect_dirs(const fs::path& root, std::vector<fs::path>& out) {
  if (is_task_dir(root) || is_sample_dir(root)) {
    out.push_back(root);
    return;
  }
  std::vector<fs::path> children;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(root, ec)) {
    if (entry.is_directory()) children.push_back(entry.path());
  }
  std::sort(children.begin(), children.end());
  for (const auto& c : children) collect_dirs(c, out);
}

// A variance is non-negative by definition, but GraphNet's rounded statistics
// ("mean 0.000, std 0.000") plus synthesis can produce negative samples and
// NaN outputs that no candidate could ever match. Inputs used directly as a
// running variance get min_val 0.
void bound_variances(const Graph& graph, const OpRegistry& registry,
                     std::vector<InputMeta>& inputs) {
  for (const auto& node : graph.nodes) {
    const auto* names = registry.param_names(node.op);
    if (!names) continue;
    for (size_t i = 0; i < names->size() && i < node.args.size(); ++i) {
      if ((*names)[i] != "running_var" || !node.args[i].is_value()) continue;
      for (size_t k = 0; k < graph.inputs.size(); ++k) {
        if (graph.inputs[k] != node.args[i].value || !is_floating(inputs[k].dtype)) continue;
        inputs[k].min_val = std::max(inputs[k].min_val.value_or(0.0), 0.0);
      }
    }
  }
}

// `x += y` keeps x's dtype and shape in PyTorch (a float16 x stays float16,
// an int x with a float y and a broadcast past x's shape are errors), while
// the pure graph holds `x + y`, which promotes and broadcasts. Where the two
// differ the graph would not compute what the model does, so the variant is
// refused. In-place view ops (`x.unsqueeze_(0)`, `x.t_()`) do reshape x.
Status check_inplace_types(const Graph& graph, const std::vector<dialect::InplaceEffect>& effects,
                           const std::string& file, const OpRegistry& registry) {
  for (const auto& e : effects) {
    const Value& target = graph.values[static_cast<size_t>(e.target)];
    const Value& result = graph.values[static_cast<size_t>(e.result)];
    if (target.types.size() != 1 || result.types.size() != 1 || result.producer < 0) continue;
    const TensorType& before = target.types[0];
    const TensorType& after = result.types[0];
    const OpInfo* op = registry.find(graph.nodes[static_cast<size_t>(result.producer)].op);
    const bool reshapes = op != nullptr && op->is_view;
    if (before.dtype == after.dtype && (reshapes || before.shape == after.shape)) continue;
    return make_error(ErrorCode::invalid_argument,
                      file + ":" + std::to_string(e.loc.line) + ":" + std::to_string(e.loc.column) +
                          ": in-place op on '" + target.name + "' (" + tensor_type_str(before) +
                          ") gives " + tensor_type_str(after) +
                          "; PyTorch keeps the tensor's dtype and shape there, which the graph "
                          "cannot express (in-place ops that change them are not supported)");
  }
  return ok_status();
}

// torch.empty's contents are whatever memory held: PyTorch gives no values
// to compare against (the CPU reference fills zeros, the GPU baseline
// leaves them), so an output that reads them is refused. Taint starts at the
// empty ops; ops that read only their input's type (zeros_like, new_full,
// ...) and item assignments over the whole tensor (`x[...] = v`, fill_ and
// copy_ forms) end it; anything else reading a tainted value is tainted.
Status check_no_uninitialised_outputs(const Graph& graph, const std::string& file) {
  static const std::set<std::string, std::less<>> sources = {"empty", "empty_like", "new_empty"};
  static const std::set<std::string, std::less<>> type_only = {
      "zeros_like", "ones_like", "full_like", "new_zeros", "new_ones", "new_full", "new_tensor"};
  const auto whole = [](const Arg& index) {
    const auto full = [](const Arg& item) {
      if (item.kind == Arg::Kind::ellipsis || item.is_none()) return true;
      if (item.kind != Arg::Kind::slice || item.items.size() != 3) return false;
      const Arg& start = item.items[0];
      const Arg& step = item.items[2];
      return (start.is_none() || (start.kind == Arg::Kind::integer && start.i == 0)) &&
             item.items[1].is_none() &&
             (step.is_none() || (step.kind == Arg::Kind::integer && step.i == 1));
    };
    if (index.kind != Arg::Kind::tuple) return full(index);
    return std::all_of(index.items.begin(), index.items.end(), full);
  };
  std::vector<bool> tainted(graph.values.size(), false);
  std::vector<const Node*> source(graph.values.size(), nullptr);
  for (const Node& node : graph.nodes) {
    const auto out = static_cast<size_t>(node.output);
    if (sources.count(node.op) != 0) {
      tainted[out] = true;
      source[out] = &node;
      continue;
    }
    if (type_only.count(node.op) != 0) continue;
    std::vector<ValueId> read = Graph::node_operands(node);
    if (node.op == "setitem" && node.args.size() == 3 && whole(node.args[1])) {
      read.clear();
      if (node.args[2].is_value()) read.push_back(node.args[2].value);
    }
    for (ValueId r : read) {
      if (!tainted[static_cast<size_t>(r)]) continue;
      tainted[out] = true;
      source[out] = source[static_cast<size_t>(r)];
    }
  }
  for (ValueId o : graph.outputs) {
    const Node* from = source[static_cast<size_t>(o)];
    if (!tainted[static_cast<size_t>(o)] || from == nullptr) continue;
    return make_error(ErrorCode::invalid_argument,
                      file + ":" + std::to_string(from->loc.line) + ":" +
                          std::to_string(from->loc.column) + ": output '" +
                          graph.values[static_cast<size_t>(o)].name +
                          "' reads the uninitialised "
                          "contents of " +
                          from->op +
                          " (whatever memory held in PyTorch: there is no reference to compare "
                          "against); fill it first (fill_, zero_, copy_, x[...] = v)");
  }
  return ok_status();
}

}  // namespace

Result<Graph> typed_variant_graph(const TaskVariant& variant, const OpRegistry& registry) {
  PF_ASSIGN(Graph graph, dialect::load_graph(variant.source, variant.name, registry));
  std::vector<std::string> params;
  for (ValueId v : graph.inputs) params.push_back(graph.values[v].name);
  if (params.size() != variant.inputs.size()) {
    return make_error(ErrorCode::invalid_argument,
                      variant.name + ": forward takes " + std::to_string(params.size()) +
                          " inputs, metadata has " + std::to_string(variant.inputs.size()));
  }
  for (size_t i = 0; i < params.size(); ++i) {
    if (params[i] != variant.inputs[i].name) {
      return make_error(ErrorCode::invalid_argument,
                        variant.name + ": input " + std::to_string(i) + " is '" + params[i] +
                            "', metadata says '" + variant.inputs[i].name + "'");
    }
  }
  PF_TRY(infer_types(graph, input_types(variant.inputs), registry));
  return graph;
}

Result<TaskVariant> import_variant(const std::string& name, std::string_view model_py,
                                   const std::string& model_file, std::string_view weight_meta_py,
                                   const std::string& meta_file, const OpRegistry& registry) {
  std::vector<dialect::InplaceEffect> inplace;
  PF_ASSIGN(Graph graph, dialect::load_graph(model_py, model_file, registry, "forward", &inplace));
  PF_ASSIGN(std::vector<InputMeta> metas, parse_weight_meta(weight_meta_py, meta_file));
  TaskVariant v;
  v.name = name;
  // Inputs in forward's parameter order, matched by name.
  for (ValueId id : graph.inputs) {
    const std::string& param = graph.values[id].name;
    auto it = std::find_if(metas.begin(), metas.end(),
                           [&](const InputMeta& m) { return m.name == param; });
    if (it == metas.end()) {
      std::string message = meta_file;
      message.append(": no metadata for forward parameter '").append(param).append("'");
      return make_error(ErrorCode::invalid_argument, message);
    }
    v.inputs.push_back(*it);
  }
  PF_TRY(infer_types(graph, input_types(v.inputs), registry));
  PF_TRY(check_inplace_types(graph, inplace, model_file, registry));
  PF_TRY(check_no_uninitialised_outputs(graph, model_file));
  PF_TRY(check_sorted_search_boundaries(graph, v.inputs, model_file));
  PF_TRY(check_class_targets(graph, v.inputs, model_file));
  PF_TRY(check_index_writes_distinct(graph, v.inputs, model_file));
  bound_variances(graph, registry, v.inputs);
  v.source = dialect::print_graph(graph, registry, {});
  return v;
}

Result<std::vector<TaskImport>> import_tasks(const fs::path& root, const ImportOptions& options,
                                             const OpRegistry& registry) {
  if (!fs::is_directory(root)) {
    return make_error(ErrorCode::not_found, root.string() + ": not a directory");
  }
  std::vector<fs::path> dirs;
  collect_dirs(root, dirs);
  if (dirs.empty()) {
    return make_error(ErrorCode::not_found, root.string() +
                                                ": no task directories (graph_list.txt) or samples "
                                                "(model.py + weight_meta.py) found");
  }
  std::vector<TaskImport> out;
  out.reserve(dirs.size());
  for (const auto& d : dirs) out.push_back(import_one(d, options, registry));
  return out;
}

}  // namespace pf
