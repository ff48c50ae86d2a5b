// Golden op tests: every case in tests/golden/*.json (generated from PyTorch by
// the gen_*.py scripts beside them) becomes one test that builds a one-node
// graph through OpRegistry::normalize, infers types and runs the CPU reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "evaluator/core/ir.h"
#include "evaluator/core/tensor.h"
#include "evaluator/ops/cpu_executor.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/type_inference.h"

namespace pf {
namespace {

using nlohmann::json;

struct GoldenCase {
  std::string id;  // test name: <family>__<case name>, sanitised
  std::string file;
  json body;
};

void PrintTo(const GoldenCase& c, std::ostream* os) {
  *os << c.file << ": " << c.body["name"];
}

std::string sanitize(const std::string& s) {
  std::string out;
  for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return out;
}

std::vector<GoldenCase> load_cases() {
  namespace fs = std::filesystem;
  std::vector<GoldenCase> cases;
  fs::path dir = fs::path(PF_SOURCE_DIR) / "tests" / "golden";
  if (!fs::is_directory(dir)) return cases;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() == ".json") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  std::set<std::string> ids;
  for (const auto& f : files) {
    std::ifstream in(f);
    json doc = json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded() || !doc.contains("cases")) {
      cases.push_back({sanitize(f.stem().string()) + "__unreadable", f.string(), json::object()});
      continue;
    }
    for (auto& c : doc["cases"]) {
      std::string id = sanitize(f.stem().string() + "__" + c.value("name", "unnamed"));
      while (!ids.insert(id).second) id += "_";
      cases.push_back({id, f.filename().string(), std::move(c)});
    }
  }
  return cases;
}

double json_number(const json& v) {
  if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
    if (s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-inf") return -std::numeric_limits<double>::infinity();
    ADD_FAILURE() << "bad number " << s;
    return 0;
  }
  if (v.is_boolean()) return v.get<bool>() ? 1 : 0;
  return v.get<double>();
}

DType json_dtype(const json& v) {
  auto d = parse_dtype(v.get<std::string>());
  EXPECT_TRUE(d.has_value()) << v;
  return d.value_or(DType::float32);
}

Tensor make_input(const json& j) {
  DType dtype = json_dtype(j["dtype"]);
  Shape shape = j["shape"].get<Shape>();
  Tensor t;
  if (j.contains("layout")) {
    const json& l = j["layout"];
    if (l.contains("permute")) {
      // shape is the view's; the base is contiguous with the permuted-back shape.
      auto perm = l["permute"].get<std::vector<int64_t>>();
      Shape base_shape(shape.size());
      for (size_t i = 0; i < perm.size(); ++i) base_shape[perm[i]] = shape[i];
      Strides base_strides = contiguous_strides(base_shape);
      Strides strides(shape.size());
      for (size_t i = 0; i < perm.size(); ++i) strides[i] = base_strides[perm[i]];
      t = Tensor::view_of(Tensor::zeros(dtype, base_shape), shape, strides, 0);
    } else {
      Tensor storage = Tensor::zeros(dtype, {l["storage_size"].get<int64_t>()});
      t = Tensor::view_of(storage, shape, l["strides"].get<Strides>(), l["offset"].get<int64_t>());
    }
  } else {
    t = Tensor::zeros(dtype, shape);
  }
  const json& values = j["values"];
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i].is_number_integer()) {
      t.set_int(static_cast<int64_t>(i), values[i].get<int64_t>());
    } else {
      t.set(static_cast<int64_t>(i), json_number(values[i]));
    }
  }
  return t;
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
  ADD_FAILURE() << "cannot decode argument " << v;
  return Arg::make_none();
}

//! Spacing of dtype's values at magnitude |x| (subnormal spacing near 0).
double ulp(DType dtype, double x) {
  int mantissa = 0, min_exp = 0;
  switch (dtype) {
    case DType::float16:
      mantissa = 10, min_exp = -14;
      break;
    case DType::bfloat16:
      mantissa = 7, min_exp = -126;
      break;
    case DType::float32:
      mantissa = 23, min_exp = -126;
      break;
    default:
      mantissa = 52, min_exp = -1022;
      break;
  }
  int e = x == 0 || !std::isfinite(x) ? min_exp : std::max(std::ilogb(x), min_exp);
  return std::ldexp(1.0, e - mantissa);
}

void expect_values(const Tensor& got, const json& want, const json& tol, const std::string& what) {
  if (!want.contains("values")) return;  // unspecified by PyTorch (torch.empty)
  const json& values = want["values"];
  ASSERT_EQ(static_cast<size_t>(got.numel()), values.size()) << what;
  double ulps = tol.value("ulps", 1.0);
  double abs_tol = tol.value("abs", 0.0);
  int reported = 0;
  for (size_t i = 0; i < values.size() && reported < 5; ++i) {
    auto idx = static_cast<int64_t>(i);
    if (!is_floating(got.dtype())) {
      int64_t expected = values[i].is_boolean() ? values[i].get<bool>() : values[i].get<int64_t>();
      if (got.get_int(idx) != expected) {
        ADD_FAILURE() << what << " element " << i << ": got " << got.get_int(idx) << ", expected "
                      << expected;
        ++reported;
      }
      continue;
    }
    double e = json_number(values[i]);
    double g = got.get(idx);
    bool ok = std::isnan(e) ? std::isnan(g)
              : std::isinf(e)
                  ? g == e
                  : std::isfinite(g) && std::fabs(g - e) <= ulps * ulp(got.dtype(), e) + abs_tol;
    if (!ok) {
      ADD_FAILURE() << what << " element " << i << ": got " << g << ", expected " << e
                    << " (allowed " << ulps << " ulp + " << abs_tol << ")";
      ++reported;
    }
  }
}

class GoldenTest : public testing::TestWithParam<GoldenCase> {};

TEST_P(GoldenTest, MatchesPyTorch) {
  const json& c = GetParam().body;
  ASSERT_TRUE(c.contains("name")) << GetParam().file << " could not be read";
  const OpRegistry& registry = OpRegistry::builtin();
  const OpInfo* op = nullptr;
  if (c.contains("spelling")) {
    op = registry.find_alias(c["spelling"].get<std::string>());
    ASSERT_NE(op, nullptr) << "no op has the alias " << c["spelling"];
  } else {
    op = registry.find(c["op"].get<std::string>());
    ASSERT_NE(op, nullptr) << "no op named " << c["op"];
  }
  bool expect_error = c.contains("error");

  Graph graph;
  graph.name = "golden";
  std::vector<Tensor> inputs;
  std::vector<TensorType> input_types;
  for (size_t i = 0; i < c["inputs"].size(); ++i) {
    inputs.push_back(make_input(c["inputs"][i]));
    input_types.push_back({inputs.back().dtype(), inputs.back().shape()});
    graph.inputs.push_back(graph.add_value("in_" + std::to_string(i), false, -1));
  }
  std::vector<Arg> positional;
  for (const auto& a : c["args"]) positional.push_back(make_arg(a, graph.inputs));
  std::vector<std::pair<std::string, Arg>> keywords;
  for (const auto& [key, a] : c["kwargs"].items())
    keywords.emplace_back(key, make_arg(a, graph.inputs));

  if (c.contains("spelling")) {
    op = &registry.resolve(*op, c["spelling"].get<std::string>(), positional, keywords);
  }
  auto args = registry.normalize(*op, std::move(positional), std::move(keywords));
  if (!args.ok()) {
    ASSERT_TRUE(expect_error) << args.error().message;
    return;
  }
  Node node;
  node.op = op->name;
  node.args = std::move(*args);
  node.output = graph.add_value("out", op->returns_list, 0);
  graph.nodes.push_back(node);
  graph.outputs.push_back(node.output);

  Status typed = infer_types(graph, input_types, registry);
  if (!typed.ok()) {
    ASSERT_TRUE(expect_error) << typed.error().message;
    return;
  }
  const json& want = c["outputs"];
  const auto& types = graph.values[node.output].types;
  if (!expect_error) {
    ASSERT_EQ(types.size(), want.size()) << "number of outputs";
    for (size_t k = 0; k < types.size(); ++k) {
      EXPECT_STREQ(dtype_name(types[k].dtype), want[k]["dtype"].get<std::string>().c_str())
          << "output " << k << " dtype";
      EXPECT_EQ(types[k].shape, want[k]["shape"].get<Shape>()) << "output " << k << " shape";
    }
    if (HasFailure()) return;
  }

  Result<std::vector<Tensor>> outs = std::vector<Tensor>{};
  if (!op->returns_list) {
    outs = run_graph_cpu(graph, inputs, registry);
  } else {
    std::vector<std::vector<Tensor>> env(graph.values.size());
    for (size_t i = 0; i < inputs.size(); ++i) env[graph.inputs[i]] = {inputs[i]};
    BoundArgs<Tensor> bound(graph.nodes[0], registry.param_names(op->name), env);
    outs = op->cpu(bound, types);
  }
  if (expect_error) {
    EXPECT_FALSE(outs.ok()) << "PyTorch raised \"" << c["error"].get<std::string>()
                            << "\" but passforge accepted the call";
    return;
  }
  ASSERT_TRUE(outs.ok()) << outs.error().message;
  ASSERT_EQ(outs->size(), want.size());
  json tol = c.value("tol", json::object());
  for (size_t k = 0; k < want.size(); ++k) {
    const Tensor& got = (*outs)[k];
    EXPECT_EQ(got.dtype(), types[k].dtype) << "output " << k << " dtype differs from inference";
    EXPECT_EQ(got.shape(), types[k].shape) << "output " << k << " shape differs from inference";
    expect_values(got, want[k], tol, "output " + std::to_string(k));
    for (size_t i = 0; i < inputs.size(); ++i) {
      bool should_alias = want[k].contains("aliases_input") && want[k]["aliases_input"] == i;
      EXPECT_EQ(got.shares_storage(inputs[i]), should_alias)
          << "output " << k
          << (should_alias ? " must be a view of (alias) input " : " must not alias input ") << i
          << ", as in PyTorch";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Golden, GoldenTest, testing::ValuesIn(load_cases()),
                         [](const testing::TestParamInfo<GoldenCase>& param_info) {
                           return param_info.param.id;
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(GoldenTest);

}  // namespace
}  // namespace pf
