#include "evaluator/tasks/npy.h"

#include <gtest/gtest.h>

#include "common/fs.h"

namespace pf {
namespace {

std::filesystem::path tmp(const char* name) {
  return std::filesystem::temp_directory_path() / name;
}

TEST(Npy, RoundTripsEveryDtypeAndViews) {
  for (DType dt : {DType::float32, DType::float64, DType::float16, DType::int64, DType::int32,
                   DType::boolean, DType::uint8}) {
    Tensor base = Tensor::from_doubles(dt, {2, 3}, {0, 1, 0, 1, 1, 0});
    Tensor view = Tensor::view_of(base, {3, 2}, {1, 3}, 0);  // transposed
    ASSERT_TRUE(write_npy(tmp("pf_rt.npy"), view).ok());
    auto back = read_npy(tmp("pf_rt.npy"));
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(back->dtype(), dt);
    EXPECT_EQ(back->shape(), (Shape{3, 2}));
    EXPECT_EQ(back->to_doubles(), view.to_doubles());
  }
}

TEST(Npy, HeaderIsNumpyCompatible) {
  ASSERT_TRUE(write_npy(tmp("pf_h.npy"), Tensor::zeros(DType::float32, {5})).ok());
  auto raw = read_file(tmp("pf_h.npy"));
  ASSERT_TRUE(raw.ok());
  EXPECT_NE(raw->find("'shape': (5,)"), std::string::npos);
  EXPECT_EQ((10 + (unsigned char)(*raw)[8]) % 64, 0u);  // data 64-byte aligned
}

TEST(Npy, BFloat16IsWrittenAsFloat32) {
  ASSERT_TRUE(write_npy(tmp("pf_bf.npy"), Tensor::from_doubles(DType::bfloat16, {1}, {1.5})).ok());
  auto back = read_npy(tmp("pf_bf.npy"));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->dtype(), DType::float32);
  EXPECT_EQ(back->get(0), 1.5);
}

TEST(Npy, RejectsGarbageClearly) {
  ASSERT_TRUE(write_file_atomic(tmp("pf_bad.npy"), "hello").ok());
  auto r = read_npy(tmp("pf_bad.npy"));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("not a supported .npy file"), std::string::npos);
}

}  // namespace
}  // namespace pf
