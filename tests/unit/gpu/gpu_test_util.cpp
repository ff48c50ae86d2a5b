#include "tests/unit/gpu/gpu_test_util.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "evaluator/dialect/graph_builder.h"
#include "evaluator/gpu/graph_plan.h"
#include "evaluator/ops/cpu_executor.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/type_inference.h"
#include "evaluator/scoring/output_compare.h"
#include "tests/support/gpu.h"
#include "tests/support/paths.h"

namespace pf::gpu::test {

Graph typed_graph(const std::string& src, const std::vector<TensorType>& types) {
  auto g = dialect::load_graph(src, "t.py", OpRegistry::builtin(), "f");
  EXPECT_TRUE(g.ok()) << (g.ok() ? "" : g.error().message);
  if (!g.ok()) return Graph{};
  auto st = infer_types(*g, types, OpRegistry::builtin());
  EXPECT_TRUE(st.ok()) << (st.ok() ? "" : st.error().message);
  return *g;
}

// Never destroyed, on purpose. cuBLAS and cuDNN are dlopen'ed at the first
// matmul / convolution, after this static was registered for destruction, so
// their own static objects are torn down first at exit; destroying their
// handles afterwards crashed every GPU suite at exit (exit 139 after all tests
// passed). The driver frees the process's GPU state when it exits.
GpuRuntime* runtime() {
  static GpuRuntime* rt = nullptr;
  static std::string error;
  static bool tried = false;
  if (!tried) {
    tried = true;
    cuda::CudaContext* ctx = pf::test::gpu_context();
    if (ctx == nullptr) return nullptr;
    GpuRuntimeOptions options;
    options.kernel_cache_dir = pf::test::binary_dir() / "nvrtc-cache";
    auto r = GpuRuntime::create(ctx->driver_ptr(), ctx->properties(), options);
    if (r.ok()) {
      rt = r->release();
    } else {
      error = r.error().message;
    }
  }
  if (!rt) ADD_FAILURE() << "no GPU runtime: " << error;
  return rt;
}

HostInput input_view(Tensor storage, const Shape& shape, const Strides& strides, int64_t offset) {
  Tensor view = Tensor::view_of(storage, shape, strides, offset);
  return HostInput{std::move(storage), std::move(view)};
}

HostInput random_input(DType dtype, const Shape& shape, Layout layout, double lo, double hi,
                       std::mt19937_64& rng) {
  const int64_t rank = static_cast<int64_t>(shape.size());
  if (rank < 2 && layout == Layout::transposed) layout = Layout::contiguous;
  if (rank < 1 && layout == Layout::strided) layout = Layout::contiguous;
  HostInput in;
  switch (layout) {
    case Layout::contiguous:
      in = input_view(Tensor::zeros(dtype, {shape_numel(shape)}), shape, contiguous_strides(shape),
                      0);
      break;
    case Layout::offset:
      in = input_view(Tensor::zeros(dtype, {shape_numel(shape) + 1}), shape,
                      contiguous_strides(shape), 1);
      break;
    case Layout::transposed: {
      Shape base = shape;
      std::swap(base[rank - 1], base[rank - 2]);
      Strides bs = contiguous_strides(base), st = bs;
      std::swap(st[rank - 1], st[rank - 2]);
      in = input_view(Tensor::zeros(dtype, {shape_numel(shape)}), shape, st, 0);
      break;
    }
    case Layout::strided: {
      Shape base = shape;
      base[rank - 1] *= 2;
      Strides st = contiguous_strides(base);
      st[rank - 1] = 2;
      in = input_view(Tensor::zeros(dtype, {shape_numel(base)}), shape, st, 0);
      break;
    }
  }
  std::uniform_real_distribution<double> real(lo, hi);
  std::uniform_int_distribution<int64_t> integer(static_cast<int64_t>(std::llround(lo)),
                                                 static_cast<int64_t>(std::llround(hi)));
  std::uniform_int_distribution<int> coin(0, 1);
  for (int64_t i = 0, n = in.view.numel(); i < n; ++i) {
    if (dtype == DType::boolean) {
      in.view.set(i, coin(rng));
    } else if (is_floating(dtype)) {
      in.view.set(i, real(rng));
    } else {
      in.view.set_int(i, integer(rng));
    }
  }
  return in;
}

Result<DeviceTensor> upload_input(GpuRuntime& rt, const HostInput& in) {
  PF_ASSIGN(DeviceTensor storage, rt.upload(in.storage, "test input"));
  return DeviceTensor::view_of(storage, in.view.shape(), in.view.strides(), in.view.offset());
}

Result<GraphRun> run_both(GpuRuntime& rt, const Graph& graph, const std::vector<HostInput>& inputs,
                          Plan* keep_plan, const std::vector<Tensor>* cpu_outputs) {
  GraphRun run;
  run.half_accumulation = accumulates_in_half(graph);
  std::vector<DeviceTensor> dev;
  std::vector<Tensor> host;
  for (const auto& in : inputs) {
    PF_ASSIGN(DeviceTensor d, upload_input(rt, in));
    dev.push_back(d);
    host.push_back(in.view);
  }
  PlanBuilder builder(rt, PlanBuilderOptions{true, 0xA5});
  PF_ASSIGN(std::vector<DeviceTensor> outs, build_graph_plan(graph, dev, builder));
  Plan plan = builder.finish();
  run.plan = plan.describe();
  PF_TRY(plan.run(rt.stream()));
  PF_TRY(rt.synchronize());
  for (const auto& o : outs) {
    PF_ASSIGN(Tensor t, rt.download(o));
    run.gpu.push_back(t);
  }
  PF_TRY(plan.check_guards());
  if (cpu_outputs != nullptr) {
    run.cpu = *cpu_outputs;
  } else {
    PF_ASSIGN(run.cpu, run_graph_cpu(graph, host, OpRegistry::builtin()));
  }
  if (keep_plan != nullptr) *keep_plan = std::move(plan);
  return run;
}

bool accumulates_in_half(const Graph& graph) {
  for (const Node& n : graph.nodes) {
    for (const char* op : kHalfAccumulatingOps) {
      if (n.op == op) return true;
    }
  }
  return false;
}

namespace {

// The pair with positions NaN on both sides set to 0 in both (equal_nan).
std::pair<Tensor, Tensor> shared_nans_zeroed(const Tensor& gpu, const Tensor& cpu) {
  if (gpu.dtype() != cpu.dtype() || gpu.shape() != cpu.shape() || !is_floating(cpu.dtype())) {
    return {gpu, cpu};
  }
  Tensor g = gpu.contiguous_copy(), c = cpu.contiguous_copy();
  for (int64_t i = 0; i < c.numel(); ++i) {
    if (std::isnan(g.get(i)) && std::isnan(c.get(i))) {
      g.set(i, 0);
      c.set(i, 0);
    }
  }
  return {g, c};
}

int level_for(const GraphRun& run, DType dtype) {
  bool half = dtype == DType::float16 || dtype == DType::bfloat16;
  int rule = half && run.half_accumulation ? kHalfAccumulationLevel : kBaselineToleranceLevel;
  return std::max(rule, run.pytorch_level);
}

}  // namespace

int pytorch_level(const std::string& task, const std::string& variant) {
  static const nlohmann::json levels = [] {
    std::ifstream in(pf::test::source_dir() / "tests/data/pytorch_levels.json");
    nlohmann::json doc = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    return doc.is_object() ? doc.value("levels", nlohmann::json::object()) : nlohmann::json();
  }();
  auto it = levels.find(task + "/" + variant);
  return it != levels.end() && it->is_number_integer() ? it->get<int>() : kMinToleranceLevel;
}

std::string compare_outputs(const GraphRun& run) {
  std::ostringstream out;
  if (run.gpu.size() != run.cpu.size()) return "different output counts";
  for (size_t k = 0; k < run.gpu.size(); ++k) {
    auto [gpu, cpu] = shared_nans_zeroed(run.gpu[k], run.cpu[k]);
    const int level = level_for(run, run.cpu[k].dtype());
    OutputComparison c = compare_output(gpu, cpu);
    if (c.correct_at(level)) continue;
    std::string wide;
    if (k < run.oracle.size()) {
      auto [g, o] = shared_nans_zeroed(run.gpu[k], run.oracle[k]);
      OutputComparison f64 = compare_output(g, o);
      if (f64.correct_at(level)) continue;
      wide = "; against float64: passes from t = " + std::to_string(f64.first_passing_level);
    }
    out << "[t = " << level << "] ";
    out << "output " << k << " (" << tensor_type_str({run.cpu[k].dtype(), run.cpu[k].shape()})
        << "): ";
    if (!c.shape_ok || !c.dtype_ok) {
      out << "shape/dtype differ (gpu " << tensor_type_str({run.gpu[k].dtype(), run.gpu[k].shape()})
          << ")";
    } else {
      out << "max abs diff " << c.max_abs_diff << ", max rel diff " << c.max_rel_diff
          << ", first mismatch at " << format_index(c.first_mismatch, run.cpu[k].shape())
          << ": gpu " << c.first_mismatch_candidate << " vs cpu " << c.first_mismatch_expected
          << " (passes from t = " << c.first_passing_level << wide << ")";
    }
    out << "; plan: " << run.plan << "\n";
  }
  return out.str();
}

}  // namespace pf::gpu::test
