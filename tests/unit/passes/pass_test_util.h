// Shared by the passes suites: typed graphs from dialect source, passes from
// source text, corpus tasks (with fp16/bf16 copies of float32 variants) and a
// real NVRTC compiler for compile-only evaluation.
#pragma once

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/result.h"
#include "evaluator/core/ir.h"
#include "evaluator/passes/compile_only.h"
#include "evaluator/passes/loaded_pass.h"
#include "evaluator/tasks/task.h"

namespace pf::passes::test {

//! Builds `source`'s forward function and infers types from `inputs`; fails the test on error.
Graph typed_graph(const std::string& source, const std::vector<TensorType>& inputs);

//! load_pass on `source` as passes/<name>.py.
Result<LoadedPass> pass_from(const std::string& source, const std::string& name = "Fuse");

//! The raw task directory tests/data/graphnet-slices/<id>.
std::filesystem::path corpus_task_dir(const std::string& id);

//! A one-variant task (relu of a float32[4]) as task JSON, for request tests.
nlohmann::json relu_task_json();

//! Imports a corpus task; `extra_dtypes` adds float16/bfloat16 copies.
Result<Task> corpus_task(const std::string& id, bool extra_dtypes);

//! examples/passes/<task-id> directories, sorted.
std::vector<std::filesystem::path> reference_pass_dirs();

//! An NVRTC compile function (cache off), or the reason NVRTC is unavailable.
Result<KernelCompiler> nvrtc_compile_function();

}  // namespace pf::passes::test
