#include "tests/unit/passes/pass_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "evaluator/dialect/graph_builder.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/type_inference.h"
#include "evaluator/tasks/importer.h"
#include "tests/support/paths.h"

namespace pf::passes::test {

namespace fs = std::filesystem;

Graph typed_graph(const std::string& source, const std::vector<TensorType>& inputs) {
  const OpRegistry& reg = OpRegistry::builtin();
  auto g = dialect::load_graph(source, "model.py", reg);
  EXPECT_TRUE(g.ok()) << g.error().message;
  if (!g.ok()) return Graph{};
  Status st = infer_types(*g, inputs, reg);
  EXPECT_TRUE(st.ok()) << st.error().message;
  return *g;
}

Result<LoadedPass> pass_from(const std::string& source, const std::string& name) {
  return load_pass(name, source, OpRegistry::builtin());
}

fs::path corpus_task_dir(const std::string& id) {
  return pf::test::graphnet_slices_dir() / id;
}

Result<Task> corpus_task(const std::string& id, bool extra_dtypes) {
  fs::path dir = corpus_task_dir(id);
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    return make_error(ErrorCode::not_found, "corpus task " + id + ": no directory " + dir.string());
  }
  ImportOptions opt;
  if (extra_dtypes) opt.extra_float_dtypes = {DType::float16, DType::bfloat16};
  PF_ASSIGN(auto imported, import_tasks(dir, opt, OpRegistry::builtin()));
  if (imported.size() != 1 || !imported[0].task) {
    return make_error(
        ErrorCode::invalid_argument,
        "importing " + id + ": " + (imported.empty() ? "nothing" : imported[0].error));
  }
  return *imported[0].task;
}

std::vector<fs::path> reference_pass_dirs() {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(pf::test::source_dir() / "examples" / "passes", ec)) {
    if (e.is_directory()) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

Result<KernelCompiler> nvrtc_compile_function() {
  PF_ASSIGN(auto lib, nvrtc::NvrtcLibrary::load());
  auto compiler = std::make_shared<nvrtc::NvrtcCompiler>(lib, nullptr);
  return KernelCompiler([compiler](const std::map<std::string, std::string>& files) {
    return compiler->compile(files, nvrtc::CompileOptions{});
  });
}

nlohmann::json relu_task_json() {
  Task t;
  t.id = "relu";
  TaskVariant v;
  v.name = "v";
  v.source = "def forward(in_0):\n    t = torch.relu(in_0)\n    return (t,)\n";
  InputMeta in;
  in.name = "in_0";
  in.shape = {4};
  v.inputs = {in};
  t.variants = {v};
  return task_to_json(t);
}

}  // namespace pf::passes::test
