// The cuDNN loader without a GPU: a library that cannot be opened is an
// `unsupported` error (the convolution family then uses its direct kernels)
// that says how to point passforge at cuDNN.
#include <gtest/gtest.h>

#include "sandbox/cuda/cudnn.h"

namespace pf::cuda {
namespace {

TEST(CudnnLibrary, AbsentLibraryIsUnsupportedWithAHint) {
  CudnnOptions options;
  options.library = "/nonexistent/dir/libcudnn.so.9";
  auto lib = CudnnLibrary::load(options);
  ASSERT_FALSE(lib.ok());
  EXPECT_EQ(lib.error().code, ErrorCode::unsupported);
  EXPECT_NE(lib.error().message.find("/nonexistent/dir/libcudnn.so.9"), std::string::npos)
      << lib.error().message;
  EXPECT_NE(lib.error().message.find("PASSFORGE_CUDNN"), std::string::npos) << lib.error().message;
}

}  // namespace
}  // namespace pf::cuda
