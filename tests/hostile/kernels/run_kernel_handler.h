// A test-only worker request that compiles, loads and launches one kernel on
// guarded device buffers, so hostile kernels run inside a real sandboxed,
// killable worker (the evaluator's own requests come later). Body:
//   {"files": {...}, "kernel": "k", "grid": [x,y,z], "block": [x,y,z], "smem": 0,
//    "buffers": {"out": 4096}, "args": ["buf:out", "int:5", "float:0.5"],
//    "read": "out"}
// Reply: {"guards": [violation descriptions], "read": [first floats of `read`]}.
// Errors: compile problems and launch validation are invalid_argument; a
// sticky CUDA error declares the worker poisoned before the error reply.
#pragma once

#include <memory>

#include "sandbox/worker/handler_table.h"
#include "worker/compile_handler.h"

namespace pf::test {

void register_run_kernel_handler(sandbox::HandlerTable& table,
                                 std::shared_ptr<worker::CompileService> service);

}  // namespace pf::test
