// The one way a test asks for a GPU: PF_REQUIRE_GPU() skips (GTEST_SKIP) with
// the reason on machines without one ("no CUDA driver: libcuda.so.1 not found:
// ...", "no CUDA device: ..."), so CPU-only CI reports the skip instead of a
// failure and the GPU machine runs the test.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "sandbox/cuda/cuda_context.h"
#include "sandbox/cuda/cuda_driver.h"

namespace pf::test {

//! "" when a CUDA driver and at least one device are usable; else why not.
//! Loaded once per process.
const std::string& gpu_unavailable_reason();

//! The process's driver; null when gpu_unavailable_reason() is non-empty.
std::shared_ptr<const cuda::CudaDriver> gpu_driver();

//! A context on device 0, shared by the tests of one process (created on
//! first use and made current on the calling thread); null (with a recorded
//! test failure) when it cannot be created.
cuda::CudaContext* gpu_context();

}  // namespace pf::test

#define PF_REQUIRE_GPU()                                    \
  do {                                                      \
    if (!::pf::test::gpu_unavailable_reason().empty()) {    \
      GTEST_SKIP() << ::pf::test::gpu_unavailable_reason(); \
    }                                                       \
  } while (0)
