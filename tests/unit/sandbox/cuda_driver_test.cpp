// Loading the CUDA driver and cuBLAS with dlopen: absence is a clear
// `unsupported` error, never a crash; sticky errors are classified.
#include "sandbox/cuda/cuda_driver.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "sandbox/cuda/cublas.h"
#include "sandbox/cuda/shared_library.h"

namespace pf::cuda {
namespace {

TEST(CudaDriver, MissingLibraryIsNoCudaDriver) {
  CudaDriverOptions opt;
  opt.library = "libpassforge_no_such_driver.so.1";
  auto d = CudaDriver::load(opt);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().code, ErrorCode::unsupported);
  EXPECT_EQ(
      d.error().message.rfind("no CUDA driver: libpassforge_no_such_driver.so.1 not found", 0), 0u)
      << d.error().message;
}

TEST(CudaDriver, EnvironmentChoosesTheLibrary) {
  ::setenv("PASSFORGE_CUDA_DRIVER", "/nonexistent/libcuda.so.1", 1);
  auto d = CudaDriver::load();
  ::unsetenv("PASSFORGE_CUDA_DRIVER");
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.error().message.find("/nonexistent/libcuda.so.1"), std::string::npos)
      << d.error().message;
}

TEST(CudaDriver, LibraryWithoutTheDriverApiIsRejected) {
  CudaDriverOptions opt;
  opt.library = "libm.so.6";  // loads, but is no CUDA driver
  auto d = CudaDriver::load(opt);
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.error().message.find("lacks cuGetProcAddress_v2"), std::string::npos)
      << d.error().message;
}

TEST(CudaDriver, DefaultLoadEitherWorksOrSaysWhy) {
  auto d = CudaDriver::load();
  if (d.ok()) {
    EXPECT_GT((*d)->device_count(), 0);
    EXPECT_GE((*d)->driver_version(), 12000);
  } else {
    const auto& m = d.error().message;
    EXPECT_TRUE(m.rfind("no CUDA driver", 0) == 0 || m.rfind("no CUDA device", 0) == 0 ||
                m.rfind("CUDA unusable", 0) == 0)
        << m;
  }
}

TEST(CudaErrors, StickyErrorsPoisonTheProcess) {
  for (CUresult r :
       {CUDA_ERROR_ILLEGAL_ADDRESS, CUDA_ERROR_LAUNCH_FAILED, CUDA_ERROR_MISALIGNED_ADDRESS,
        CUDA_ERROR_ILLEGAL_INSTRUCTION, CUDA_ERROR_HARDWARE_STACK_ERROR, CUDA_ERROR_ASSERT,
        CUDA_ERROR_LAUNCH_TIMEOUT}) {
    EXPECT_TRUE(is_sticky_cuda_error(r)) << builtin_cuda_error_name(r);
  }
  for (CUresult r : {CUDA_SUCCESS, CUDA_ERROR_INVALID_VALUE, CUDA_ERROR_OUT_OF_MEMORY,
                     CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, CUDA_ERROR_NOT_FOUND}) {
    EXPECT_FALSE(is_sticky_cuda_error(r)) << builtin_cuda_error_name(r);
  }
  EXPECT_EQ(classify_cuda_error(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES),
            CudaErrorClass::launch_rejected);
  EXPECT_EQ(classify_cuda_error(CUDA_ERROR_NO_DEVICE), CudaErrorClass::no_device);
  EXPECT_EQ(builtin_cuda_error_name(CUDA_ERROR_ILLEGAL_ADDRESS), "CUDA_ERROR_ILLEGAL_ADDRESS");
  EXPECT_EQ(builtin_cuda_error_name(static_cast<CUresult>(12345)), "CUDA error 12345");
}

TEST(SharedLibrary, ToolkitCandidatesHonourOverridesAndSearchOrder) {
  EXPECT_EQ(
      toolkit_library_candidates("libnvrtc.so.13", "/opt/x/libnvrtc.so.13", {"nvidia/cu13/lib"}),
      std::vector<std::string>{"/opt/x/libnvrtc.so.13"});
  ::setenv("CUDA_HOME", "/opt/cuda-test", 1);
  auto c = toolkit_library_candidates("libnvrtc.so.13", "", {"nvidia/cu13/lib"});
  ::unsetenv("CUDA_HOME");
  ASSERT_GE(c.size(), 3u);
  EXPECT_EQ(c[0], "libnvrtc.so.13");
  EXPECT_EQ(c[1], "/opt/cuda-test/lib64/libnvrtc.so.13");
  EXPECT_NE(std::find(c.begin(), c.end(), "/usr/local/cuda/lib64/libnvrtc.so.13"), c.end());

  auto missing = SharedLibrary::open_first("libfoo", {"/nonexistent/a.so", "/nonexistent/b.so"});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("/nonexistent/a.so"), std::string::npos);
  EXPECT_NE(missing.error().message.find("/nonexistent/b.so"), std::string::npos);
}

TEST(Cublas, MissingLibraryIsAClearError) {
  CublasOptions opt;
  opt.cublas_library = "/nonexistent/libcublas.so.13";
  auto lib = CublasLibrary::load(opt);
  ASSERT_FALSE(lib.ok());
  EXPECT_EQ(lib.error().code, ErrorCode::unsupported);
  EXPECT_NE(lib.error().message.find("PASSFORGE_CUBLAS"), std::string::npos) << lib.error().message;
}

TEST(Cublas, LoadsEveryEntryPointWhereInstalled) {
  auto lib = CublasLibrary::load();
  if (!lib.ok()) GTEST_SKIP() << lib.error().message;
  const auto& fn = (*lib)->api();
  EXPECT_NE(fn.cublasGemmEx, nullptr);
  EXPECT_NE(fn.cublasGemmStridedBatchedEx, nullptr);
  EXPECT_NE(fn.cublasLtMatmul, nullptr);
  EXPECT_GE((*lib)->lt_version(), 130000u);
  auto e = (*lib)->error(CUBLAS_STATUS_NOT_SUPPORTED, "cublasGemmEx");
  EXPECT_EQ(e.code, ErrorCode::unsupported);
  EXPECT_NE(e.message.find("CUBLAS_STATUS_NOT_SUPPORTED"), std::string::npos) << e.message;
}

}  // namespace
}  // namespace pf::cuda
