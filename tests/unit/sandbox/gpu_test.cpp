// CUDA driver wrappers on a real GPU: device properties, modules and
// parameter layouts, marshalled launches, canary guards, poison fills,
// events, the L2 flush buffer and cuBLAS. Every test skips with the reason
// where no GPU is present (PF_REQUIRE_GPU).
#include "tests/support/gpu.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "sandbox/cuda/cublas.h"
#include "sandbox/cuda/cuda_graph.h"
#include "sandbox/cuda/cuda_module.h"
#include "sandbox/cuda/device_buffer.h"
#include "sandbox/cuda/l2_flush.h"
#include "sandbox/cuda/launch.h"
#include "sandbox/cuda/stream.h"
#include "sandbox/nvrtc/nvrtc_compiler.h"

namespace pf::cuda {
namespace {

const char* kKernels = R"(#include <cuda_fp16.h>
extern "C" __global__ void axpy(const float* x, float* y, float alpha, int n, double beta, short s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = alpha * x[i] + y[i] + (float)beta + s;
}
extern "C" __global__ void write_at(float* y, long long index) { y[index] = 42.f; }
extern "C" __global__ void big_smem(float* out) {
  extern __shared__ float dyn[];
  dyn[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = dyn[blockDim.x - 1 - threadIdx.x];
}
extern "C" __global__ void spin(float* out, int iters) {
  float v = 0;
  for (int i = 0; i < iters; ++i) v = v * 0.999f + 1.f;
  out[threadIdx.x] = v;
}
)";

struct Compiled {
  nvrtc::CompileOutcome outcome;
  std::unique_ptr<CudaModule> module;
};

Compiled compile_and_load(CudaContext& ctx) {
  Compiled c;
  auto lib = nvrtc::NvrtcLibrary::load();
  EXPECT_TRUE(lib.ok()) << (lib.ok() ? "" : lib.error().message);
  if (!lib.ok()) return c;
  nvrtc::NvrtcCompiler compiler(*lib, nullptr);
  nvrtc::CompileOptions opt;
  opt.arch = ctx.properties().arch();
  auto out = compiler.compile({{"kernels/k.cu", kKernels}}, opt);
  EXPECT_TRUE(out.ok() && out->ok()) << (out.ok() ? out->message : out.error().message);
  if (!out.ok() || !out->ok()) return c;
  c.outcome = std::move(*out);
  auto module = CudaModule::load(ctx.driver_ptr(), c.outcome.files[0].cubin);
  EXPECT_TRUE(module.ok()) << (module.ok() ? "" : module.error().message);
  if (module.ok()) c.module = std::move(*module);
  return c;
}

TEST(Gpu, DevicePropertiesAreSane) {
  PF_REQUIRE_GPU();
  auto* ctx = test::gpu_context();
  ASSERT_NE(ctx, nullptr);
  const auto& p = ctx->properties();
  EXPECT_FALSE(p.name.empty());
  EXPECT_EQ(p.arch().rfind("sm_", 0), 0u);
  EXPECT_GE(p.cc_major, 7);
  EXPECT_GT(p.sm_count, 0);
  EXPECT_GT(p.l2_cache_bytes, 0);
  EXPECT_GE(p.limits.max_threads_per_block, 1024);
  EXPECT_GE(p.limits.max_smem_per_block_optin, p.limits.max_smem_per_block);
  EXPECT_GT(p.total_memory_bytes, 1ull << 30);
  EXPECT_GE(p.driver_version, 13000);
  std::printf("device: %s\n", p.to_json().dump().c_str());
}

TEST(Gpu, CubinLayoutMatchesCuFuncGetParamInfo) {
  PF_REQUIRE_GPU();
  auto* ctx = test::gpu_context();
  ASSERT_NE(ctx, nullptr);
  auto c = compile_and_load(*ctx);
  ASSERT_TRUE(c.module);
  for (const auto& name : c.outcome.kernel_names()) {
    auto fn = c.module->function(name);
    ASSERT_TRUE(fn.ok()) << fn.error().message;
    auto layout = fn->param_layout();
    ASSERT_TRUE(layout.ok()) << layout.error().message;
    const auto* info = c.outcome.find_kernel(name);
    ASSERT_NE(info, nullptr);
    ASSERT_EQ(layout->size(), info->params.size()) << name;
    for (size_t i = 0; i < layout->size(); ++i) {
      EXPECT_EQ((*layout)[i].offset, info->params[i].offset) << name << " #" << i;
      EXPECT_EQ((*layout)[i].size, info->params[i].size) << name << " #" << i;
    }
    auto attrs = fn->attributes();
    ASSERT_TRUE(attrs.ok());
    EXPECT_EQ(attrs->registers, info->registers) << name;
    // The cubin's .nv.shared size may include the 1 KiB sm_90 reserves per block.
    std::printf("%s: static smem driver %lld, cubin %lld\n", name.c_str(),
                static_cast<long long>(attrs->static_smem_bytes), info->static_smem_bytes);
    EXPECT_TRUE(attrs->static_smem_bytes == info->static_smem_bytes ||
                attrs->static_smem_bytes + 1024 == info->static_smem_bytes)
        << name;
  }
  auto missing = c.module->function("_Z4axpyPKfPffi");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("extern \"C\""), std::string::npos);
}

TEST(Gpu, MarshalledLaunchComputesAndGuardsStayIntact) {
  PF_REQUIRE_GPU();
  auto* ctx = test::gpu_context();
  ASSERT_NE(ctx, nullptr);
  auto c = compile_and_load(*ctx);
  ASSERT_TRUE(c.module);
  const int n = 1000;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i), y[i] = 1.f;
  auto bx = DeviceBuffer::allocate(ctx->driver_ptr(), "x", n * 4);
  auto by = DeviceBuffer::allocate(ctx->driver_ptr(), "y", n * 4);
  ASSERT_TRUE(bx.ok() && by.ok());
  EXPECT_EQ(bx->data() % 256, 0u);
  ASSERT_TRUE(bx->upload(x.data(), n * 4).ok());
  ASSERT_TRUE(by->upload(y.data(), n * 4).ok());
  auto fn = c.module->function("axpy");
  ASSERT_TRUE(fn.ok());
  auto pack = marshal_kernel_args(
      "axpy", c.outcome.find_kernel("axpy")->params,
      {KernelArg::tensor(bx->data()), KernelArg::tensor(by->data()), KernelArg::of_int(2),
       KernelArg::of_int(n), KernelArg::of_float(0.5), KernelArg::of_int(3)});
  ASSERT_TRUE(pack.ok()) << pack.error().message;
  LaunchConfig cfg;
  cfg.grid = {(n + 255) / 256, 1, 1};
  cfg.block = {256, 1, 1};
  ASSERT_TRUE(launch_kernel(*fn, ctx->properties().limits, cfg, *pack, nullptr).ok());
  ASSERT_TRUE(ctx->synchronize().ok());
  std::vector<float> out(n);
  ASSERT_TRUE(by->download(out.data(), n * 4).ok());
  for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], 2.f * i + 1.f + 0.5f + 3.f) << i;
  auto guards = check_all_guards({&*bx, &*by});
  EXPECT_TRUE(guards.ok()) << guards.error().message;

  // Asynchronous copies on a stream round-trip the data.
  auto stream = CudaStream::create(ctx->driver_ptr());
  auto copy = DeviceBuffer::allocate(ctx->driver_ptr(), "y_copy", n * 4);
  ASSERT_TRUE(stream.ok() && copy.ok());
  ASSERT_TRUE(copy->copy_from(*by, stream->handle()).ok());
  std::vector<float> back(n, -1.f);
  ASSERT_TRUE(copy->download_async(back.data(), n * 4, stream->handle()).ok());
  ASSERT_TRUE(stream->synchronize().ok());
  EXPECT_EQ(back, out);
  auto small = DeviceBuffer::allocate(ctx->driver_ptr(), "small", 16);
  ASSERT_TRUE(small.ok());
  auto mismatch = small->copy_from(*by, stream->handle());
  ASSERT_FALSE(mismatch.ok());
  EXPECT_NE(mismatch.error().message.find("sizes differ"), std::string::npos);
}

TEST(Gpu, OutOfBoundsWritesTripTheCanaries) {
  PF_REQUIRE_GPU();
  auto* ctx = test::gpu_context();
  ASSERT_NE(ctx, nullptr);
  auto c = compile_and_load(*ctx);
  ASSERT_TRUE(c.module);
  auto fn = c.module->function("write_at");
  ASSERT_TRUE(fn.ok());
  const auto& params = c.outcome.find_kernel("write_at")->params;
  for (long long index : {16LL, -1LL}) {
    auto buf = DeviceBuffer::allocate(ctx->driver_ptr(), "out0", 16 * 4);
    ASSERT_TRUE(buf.ok());
    auto pack = marshal_kernel_args("write_at", params,
                                    {KernelArg::tensor(buf->data()), KernelArg::of_int(index)});
    ASSERT_TRUE(pack.ok());
    ASSERT_TRUE(launch_kernel(*fn, ctx->properties().limits, LaunchConfig{}, *pack, nullptr).ok());
    ASSERT_TRUE(ctx->synchronize().ok());
    auto violations = buf->check_guards();
    ASSERT_TRUE(violations.ok());
    ASSERT_EQ(violations->size(), 1u) << index;
    EXPECT_EQ((*violations)[0].before, index < 0);
    EXPECT_EQ((*violations)[0].bytes_changed, 4u);
    // The nearest changed byte: y[-1]'s last byte sits at -1, y[16]'s first at +0.
    EXPECT_EQ((*violations)[0].first_offset, index < 0 ? 1u : 0u);
    auto st = check_all_guards({&*buf});
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.error().message.find("buffer 'out0'"), std::string::npos) << st.error().message;
  }
}

TEST(Gpu, PoisonFillsAreNaNs) {
  PF_REQUIRE_GPU();
  auto* ctx = test::gpu_context();
  ASSERT_NE(ctx, nullptr);
  auto buf = DeviceBuffer::allocate(ctx->driver_ptr(), "p", 64);
  ASSERT_TRUE(buf.ok());
  ASSERT_TRUE(buf->poison({PoisonKind::nan_f32}).ok());
  std::vector<float> f(16);
  ASSERT_TRUE(buf->download(f.data(), 64).ok());
  for (float v : f) EXPECT_TRUE(std::isnan(v));
  ASSERT_TRUE(buf->poison({PoisonKind::nan_f64}).ok());
  std::vector<double> d(8);
  ASSERT_TRUE(buf->download(d.data(), 64).ok());
  for (double v : d) EXPECT_TRUE(std::isnan(v));
  ASSERT_TRUE(buf->poison({PoisonKind::nan_f16}).ok());
  std::vector<uint16_t> h(32);
  ASSERT_TRUE(buf->download(h.data(), 64).ok());
  for (uint16_t v : h) EXPECT_EQ(v, 0x7E00);
  ASSERT_TRUE(buf->poison({PoisonKind::byte, 0x5A}).ok());
  auto bytes = buf->download_all();
  ASSERT_TRUE(bytes.ok());
  for (uint8_t b : *bytes) EXPECT_EQ(b, 0x5A);
}

TEST(Gpu, LaunchLimitsAreCheckedFirstAndLargeSharedMemoryOptsIn) {
  PF_REQUIRE_GPU();
  auto* ctx = test::gpu_context();
  ASSERT_NE(ctx, nullptr);
  auto c = compile_and_load(*ctx);
  ASSERT_TRUE(c.module);
  auto fn = c.module->function("big_smem");
  ASSERT_TRUE(fn.ok());
  auto out = DeviceBuffer::allocate(ctx->driver_ptr(), "out", 1024 * 4);
  ASSERT_TRUE(out.ok());
  auto pack = marshal_kernel_args("big_smem", c.outcome.find_kernel("big_smem")->params,
                                  {KernelArg::tensor(out->data())});
  ASSERT_TRUE(pack.ok());
  const auto& limits = ctx->properties().limits;
  LaunchConfig too_big;
  too_big.block = {2048, 1, 1};
  auto st = launch_kernel(*fn, limits, too_big, *pack, nullptr);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("block.x = 2048 exceeds the device limit"), std::string::npos)
      << st.error().message;
  LaunchConfig smem;
  smem.block = {1024, 1, 1};
  smem.dynamic_smem_bytes = limits.max_smem_per_block_optin;  // above the 48 KiB default
  st = launch_kernel(*fn, limits, smem, *pack, nullptr);
  ASSERT_TRUE(st.ok()) << st.error().message;
  ASSERT_TRUE(ctx->synchronize().ok());
  smem.dynamic_smem_bytes = limits.max_smem_per_block_optin + 1;
  st = launch_kernel(*fn, limits, smem, *pack, nullptr);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("exceeds the device limit"), std::string::npos);
  EXPECT_TRUE(ctx->driver().poisoned().empty());
}

TEST(Gpu, EventsTimeAndTheL2FlushCoversTwiceTheCache) {
  PF_REQUIRE_GPU();
  auto* ctx = test::gpu_context();
  ASSERT_NE(ctx, nullptr);
  auto c = compile_and_load(*ctx);
  ASSERT_TRUE(c.module);
  auto stream = CudaStream::create(ctx->driver_ptr());
  auto start = CudaEvent::create(ctx->driver_ptr());
  auto stop = CudaEvent::create(ctx->driver_ptr());
  auto flusher = L2Flusher::create(ctx->driver_ptr(), ctx->properties());
  ASSERT_TRUE(stream.ok() && start.ok() && stop.ok() && flusher.ok());
  EXPECT_GE(flusher->bytes(), static_cast<size_t>(ctx->properties().l2_cache_bytes) * 5 / 4);
  auto out = DeviceBuffer::allocate(ctx->driver_ptr(), "out", 256 * 4);
  ASSERT_TRUE(out.ok());
  auto fn = c.module->function("spin");
  ASSERT_TRUE(fn.ok());
  auto pack = marshal_kernel_args("spin", c.outcome.find_kernel("spin")->params,
                                  {KernelArg::tensor(out->data()), KernelArg::of_int(1 << 20)});
  ASSERT_TRUE(pack.ok());
  ASSERT_TRUE(flusher->flush(stream->handle()).ok());
  ASSERT_TRUE(start->record(stream->handle()).ok());
  LaunchConfig cfg;
  cfg.block = {256, 1, 1};
  ASSERT_TRUE(launch_kernel(*fn, ctx->properties().limits, cfg, *pack, stream->handle()).ok());
  ASSERT_TRUE(stop->record(stream->handle()).ok());
  ASSERT_TRUE(stop->synchronize().ok());
  auto ms = stop->elapsed_ms_since(*start);
  ASSERT_TRUE(ms.ok()) << ms.error().message;
  EXPECT_GT(*ms, 0.01f);
  EXPECT_LT(*ms, 10000.f);
}

TEST(Gpu, CapturedGraphsReplayTheWorkAndUncapturableWorkFailsCleanly) {
  PF_REQUIRE_GPU();
  auto* ctx = test::gpu_context();
  ASSERT_NE(ctx, nullptr);
  auto c = compile_and_load(*ctx);
  ASSERT_TRUE(c.module);
  const int n = 300;
  std::vector<float> x(n), zeros(n, 0.f);
  for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i);
  auto bx = DeviceBuffer::allocate(ctx->driver_ptr(), "x", n * 4);
  auto by = DeviceBuffer::allocate(ctx->driver_ptr(), "y", n * 4);
  auto stream = CudaStream::create(ctx->driver_ptr());
  ASSERT_TRUE(bx.ok() && by.ok() && stream.ok());
  ASSERT_TRUE(bx->upload(x.data(), n * 4).ok());
  ASSERT_TRUE(by->upload(zeros.data(), n * 4).ok());
  auto fn = c.module->function("axpy");
  ASSERT_TRUE(fn.ok());
  auto pack = marshal_kernel_args(
      "axpy", c.outcome.find_kernel("axpy")->params,
      {KernelArg::tensor(bx->data()), KernelArg::tensor(by->data()), KernelArg::of_int(2),
       KernelArg::of_int(n), KernelArg::of_float(0.5), KernelArg::of_int(1)});
  ASSERT_TRUE(pack.ok()) << pack.error().message;
  LaunchConfig cfg;
  cfg.grid = {(n + 255) / 256, 1, 1};
  cfg.block = {256, 1, 1};
  const auto& limits = ctx->properties().limits;
  auto graph = CudaGraph::capture(ctx->driver_ptr(), stream->handle(), [&](CUstream s) {
    return launch_kernel(*fn, limits, cfg, *pack, s);
  });
  ASSERT_TRUE(graph.ok()) << graph.error().message;
  EXPECT_EQ(graph->nodes(), 1u);
  // Capturing only records: y is still zero; each replay adds once more.
  ASSERT_TRUE(stream->synchronize().ok());
  std::vector<float> out(n);
  ASSERT_TRUE(by->download(out.data(), n * 4).ok());
  EXPECT_EQ(out, zeros);
  ASSERT_TRUE(graph->launch(stream->handle()).ok());
  ASSERT_TRUE(graph->launch(stream->handle()).ok());
  ASSERT_TRUE(stream->synchronize().ok());
  ASSERT_TRUE(by->download(out.data(), n * 4).ok());
  for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], 2.f * (2.f * i + 0.5f + 1.f)) << i;

  // A synchronisation inside the capture fails it with the driver's reason
  // and leaves the stream usable.
  const CudaDriver& d = *ctx->driver_ptr();
  auto bad = CudaGraph::capture(ctx->driver_ptr(), stream->handle(), [&](CUstream s) -> Status {
    PF_TRY(launch_kernel(*fn, limits, cfg, *pack, s));
    return d.check(d.api().cuStreamSynchronize(s), "cuStreamSynchronize");
  });
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("while capturing a CUDA graph"), std::string::npos)
      << bad.error().message;
  EXPECT_TRUE(d.poisoned().empty()) << d.poisoned();
  ASSERT_TRUE(launch_kernel(*fn, limits, cfg, *pack, stream->handle()).ok());
  ASSERT_TRUE(stream->synchronize().ok());
  ASSERT_TRUE(by->download(out.data(), n * 4).ok());
  EXPECT_EQ(out[10], 3.f * (2.f * 10 + 0.5f + 1.f));
}

TEST(Gpu, CublasGemmMatchesTheCpuWithoutTf32) {
  PF_REQUIRE_GPU();
  auto* ctx = test::gpu_context();
  ASSERT_NE(ctx, nullptr);
  auto lib = CublasLibrary::load();
  ASSERT_TRUE(lib.ok()) << lib.error().message;
  auto handle = CublasHandle::create(*lib);
  ASSERT_TRUE(handle.ok()) << handle.error().message;
  auto lt = CublasLtHandle::create(*lib);
  ASSERT_TRUE(lt.ok()) << lt.error().message;
  const int m = 67, n = 45, k = 129;  // column-major C(m,n) = A(m,k) B(k,n)
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1, 1);
  std::vector<float> a(m * k), b(k * n), cref(m * n, 0.f), cgpu(m * n);
  for (auto& v : a) v = u(rng);
  for (auto& v : b) v = u(rng);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      double acc = 0;
      for (int p = 0; p < k; ++p) acc += static_cast<double>(a[i + p * m]) * b[p + j * k];
      cref[i + j * m] = static_cast<float>(acc);
    }
  auto da = DeviceBuffer::allocate(ctx->driver_ptr(), "a", a.size() * 4);
  auto db = DeviceBuffer::allocate(ctx->driver_ptr(), "b", b.size() * 4);
  auto dc = DeviceBuffer::allocate(ctx->driver_ptr(), "c", cgpu.size() * 4);
  ASSERT_TRUE(da.ok() && db.ok() && dc.ok());
  ASSERT_TRUE(da->upload(a.data(), a.size() * 4).ok());
  ASSERT_TRUE(db->upload(b.data(), b.size() * 4).ok());
  float alpha = 1.f, beta = 0.f;
  auto st = (*lib)->check(
      (*lib)->api().cublasGemmEx(handle->get(), CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha,
                                 reinterpret_cast<const void*>(da->data()), CUDA_R_32F, m,
                                 reinterpret_cast<const void*>(db->data()), CUDA_R_32F, k, &beta,
                                 reinterpret_cast<void*>(dc->data()), CUDA_R_32F, m,
                                 CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
      "cublasGemmEx");
  ASSERT_TRUE(st.ok()) << st.error().message;
  ASSERT_TRUE(ctx->synchronize().ok());
  ASSERT_TRUE(dc->download(cgpu.data(), cgpu.size() * 4).ok());
  double max_err = 0;
  for (size_t i = 0; i < cref.size(); ++i)
    max_err = std::max(max_err, std::abs(double(cref[i]) - cgpu[i]));
  // TF32 would give errors around 1e-2 for k = 129; full fp32 stays near 1e-5.
  EXPECT_LT(max_err, 1e-4);
  EXPECT_TRUE(check_all_guards({&*da, &*db, &*dc}).ok());
}

}  // namespace
}  // namespace pf::cuda
