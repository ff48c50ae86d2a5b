// The golden op fixtures (tests/golden/*.json: PyTorch calls with their
// inputs, layouts included) on the GPU baseline: every case whose op the GPU
// supports runs as a one-node graph on the GPU and on the CPU reference, and
// the outputs must agree as compare_outputs judges them (t = -5; -2 for
// half-precision accumulating ops; NaN equals NaN). The fixtures' expected
// values are the ops suite's business; here the CPU reference is the oracle,
// as everywhere in the GPU tests. One test per fixture file; failures name the case.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>

#include "evaluator/gpu/gpu_op_registry.h"
#include "evaluator/ops/cpu_executor.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/type_inference.h"
#include "tests/support/gpu.h"
#include "tests/support/paths.h"
#include "tests/unit/gpu/gpu_test_util.h"

namespace pf::gpu::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

double json_number(const json& v) {
  if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
    if (s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-inf") return -std::numeric_limits<double>::infinity();
    return 0;
  }
  if (v.is_boolean()) return v.get<bool>() ? 1 : 0;
  return v.get<double>();
}

DType json_dtype(const json& v) {
  return parse_dtype(v.get<std::string>()).value_or(DType::float32);
}

// The fixture's input with its layout (permuted or strided view of a storage).
HostInput make_input(const json& j) {
  DType dtype = json_dtype(j["dtype"]);
  Shape shape = j["shape"].get<Shape>();
  HostInput in;
  if (j.contains("layout") && j["layout"].contains("permute")) {
    auto perm = j["layout"]["permute"].get<std::vector<int64_t>>();
    Shape base(shape.size());
    for (size_t i = 0; i < perm.size(); ++i) base[perm[i]] = shape[i];
    Strides bs = contiguous_strides(base), st(shape.size());
    for (size_t i = 0; i < perm.size(); ++i) st[i] = bs[perm[i]];
    in = input_view(Tensor::zeros(dtype, {shape_numel(shape)}), shape, st, 0);
  } else if (j.contains("layout")) {
    const json& l = j["layout"];
    in = input_view(Tensor::zeros(dtype, {l["storage_size"].get<int64_t>()}), shape,
                    l["strides"].get<Strides>(), l["offset"].get<int64_t>());
  } else {
    in =
        input_view(Tensor::zeros(dtype, {shape_numel(shape)}), shape, contiguous_strides(shape), 0);
  }
  const json& values = j["values"];
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i].is_number_integer()) {
      in.view.set_int(static_cast<int64_t>(i), values[i].get<int64_t>());
    } else {
      in.view.set(static_cast<int64_t>(i), json_number(values[i]));
    }
  }
  return in;
}

Arg make_arg(const json& v, const std::vector<ValueId>& inputs) {
  if (v.is_null()) return Arg::make_none();
  if (v.is_boolean()) return Arg::make_bool(v.get<bool>());
  if (v.is_number_integer()) return Arg::make_int(v.get<int64_t>());
  if (v.is_number_float()) return Arg::make_real(v.get<double>());
  if (v.is_string()) return Arg::make_string(v.get<std::string>());
  std::vector<Arg> items;
  if (v.is_array()) {
    for (const auto& x : v) items.push_back(make_arg(x, inputs));
    return Arg::make_list(std::move(items));
  }
  if (v.contains("tensor")) return Arg::make_value(inputs.at(v["tensor"].get<size_t>()));
  if (v.contains("dtype")) return Arg::make_dtype(json_dtype(v["dtype"]));
  if (v.contains("float")) return Arg::make_real(json_number(v["float"]));
  if (v.contains("device")) return Arg::make_device(v["device"].get<std::string>());
  if (v.contains("ellipsis")) return Arg::make_ellipsis();
  if (v.contains("slice")) {
    const json& s = v["slice"];
    return Arg::make_slice(make_arg(s[0], inputs), make_arg(s[1], inputs), make_arg(s[2], inputs));
  }
  if (v.contains("tuple")) {
    for (const auto& x : v["tuple"]) items.push_back(make_arg(x, inputs));
    return Arg::make_tuple(std::move(items));
  }
  return Arg::make_none();
}

// The case as a typed graph whose outputs are the op's outputs (tuple_get
// for list results); nullopt when the call is an expected error or does not
// type-check (the ops suite covers those).
std::optional<Graph> case_graph(const json& c, std::vector<HostInput>& inputs) {
  const OpRegistry& reg = OpRegistry::builtin();
  const OpInfo* op = c.contains("spelling") ? reg.find_alias(c["spelling"].get<std::string>())
                                            : reg.find(c.value("op", ""));
  if (op == nullptr || c.contains("error")) return std::nullopt;
  Graph g;
  g.name = "golden";
  std::vector<TensorType> types;
  for (size_t i = 0; i < c["inputs"].size(); ++i) {
    inputs.push_back(make_input(c["inputs"][i]));
    types.push_back({inputs.back().view.dtype(), inputs.back().view.shape()});
    g.inputs.push_back(g.add_value("in_" + std::to_string(i), false, -1));
  }
  std::vector<Arg> positional;
  for (const auto& a : c["args"]) positional.push_back(make_arg(a, g.inputs));
  std::vector<std::pair<std::string, Arg>> keywords;
  for (const auto& [key, a] : c["kwargs"].items())
    keywords.emplace_back(key, make_arg(a, g.inputs));
  if (c.contains("spelling"))
    op = &reg.resolve(*op, c["spelling"].get<std::string>(), positional, keywords);
  auto args = reg.normalize(*op, std::move(positional), std::move(keywords));
  if (!args.ok()) return std::nullopt;
  Node node;
  node.op = op->name;
  node.args = std::move(*args);
  node.output = g.add_value("out", op->returns_list, 0);
  g.nodes.push_back(node);
  if (!infer_types(g, types, reg).ok()) return std::nullopt;
  if (!op->returns_list) {
    g.outputs.push_back(node.output);
    return g;
  }
  // One tuple_get per element; type inference fills their types.
  const size_t n = g.values[node.output].types.size();
  for (size_t k = 0; k < n; ++k) {
    Node get;
    get.op = "tuple_get";
    auto get_args =
        reg.normalize(*reg.find("tuple_get"),
                      {Arg::make_value(node.output), Arg::make_int(static_cast<int64_t>(k))}, {});
    if (!get_args.ok()) return std::nullopt;
    get.args = std::move(*get_args);
    get.output = g.add_value("out_" + std::to_string(k), false, static_cast<int>(g.nodes.size()));
    g.nodes.push_back(get);
    g.outputs.push_back(get.output);
  }
  if (!infer_types(g, types, reg).ok()) return std::nullopt;
  return g;
}

std::vector<fs::path> golden_files() {
  std::vector<fs::path> out;
  fs::path dir = pf::test::source_dir() / "tests" / "golden";
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (e.path().extension() == ".json") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Needs no GPU: the fixtures become graphs the CPU reference runs (list
// results through tuple_get), and most of them use GPU-supported ops.
TEST(GoldenGpuCases, FixturesBuildAndRunOnTheCpuReference) {
  int built = 0, supported = 0;
  for (const auto& file : golden_files()) {
    std::ifstream in(file);
    json doc = json::parse(in, nullptr, false);
    ASSERT_FALSE(doc.is_discarded()) << file;
    for (const auto& c : doc["cases"]) {
      std::vector<HostInput> inputs;
      auto g = case_graph(c, inputs);
      if (!g) continue;
      ++built;
      std::vector<Tensor> host;
      for (const auto& i : inputs) host.push_back(i.view);
      auto out = run_graph_cpu(*g, host, OpRegistry::builtin());
      EXPECT_TRUE(out.ok()) << c.value("name", "?") << ": "
                            << (out.ok() ? "" : out.error().message);
      bool ok = true;
      for (const auto& node : g->nodes)
        ok = ok && GpuOpRegistry::builtin().supports_node(*g, node).ok();
      supported += ok ? 1 : 0;
    }
  }
  EXPECT_GT(built, 500);
  EXPECT_GT(supported, built / 3);
  std::printf("[golden-gpu] %d fixture cases build, %d use only GPU-supported ops\n", built,
              supported);
}

class GoldenGpu : public ::testing::TestWithParam<fs::path> {};

TEST_P(GoldenGpu, GpuMatchesCpuOnFixtureInputs) {
  PF_REQUIRE_GPU();
  GpuRuntime* rt = runtime();
  ASSERT_NE(rt, nullptr);
  std::ifstream in(GetParam());
  json doc = json::parse(in, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << GetParam();
  int run = 0, unsupported = 0;
  for (const auto& c : doc["cases"]) {
    std::vector<HostInput> inputs;
    auto g = case_graph(c, inputs);
    if (!g) continue;
    bool supported = true;
    for (const auto& node : g->nodes)
      supported = supported && GpuOpRegistry::builtin().supports_node(*g, node).ok();
    if (!supported) {
      ++unsupported;
      continue;
    }
    ++run;
    auto result = run_both(*rt, *g, inputs);
    if (!result.ok()) {
      ADD_FAILURE() << c.value("name", "?") << ": " << result.error().message;
      continue;
    }
    EXPECT_EQ(compare_outputs(*result), "") << c.value("name", "?");
  }
  std::printf("[golden-gpu] %s: %d cases run, %d with ops the GPU lacks\n",
              GetParam().filename().string().c_str(), run, unsupported);
}

std::string file_name(const ::testing::TestParamInfo<fs::path>& info) {
  std::string n = info.param.stem().string();
  for (char& ch : n) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return n;
}

INSTANTIATE_TEST_SUITE_P(Fixtures, GoldenGpu, ::testing::ValuesIn(golden_files()), file_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(GoldenGpu);

}  // namespace
}  // namespace pf::gpu::test
