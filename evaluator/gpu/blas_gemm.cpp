#include "evaluator/gpu/blas_gemm.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "evaluator/gpu/timing_stats.h"
#include "sandbox/cuda/stream.h"

namespace pf::gpu {
namespace {

bool fits_int(int64_t v) {
  return v >= 0 && v <= INT_MAX;
}

cudaDataType data_type(DType t) {
  switch (t) {
    case DType::float16:
      return CUDA_R_16F;
    case DType::bfloat16:
      return CUDA_R_16BF;
    case DType::float64:
      return CUDA_R_64F;
    default:
      return CUDA_R_32F;
  }
}

// cuBLAS is column-major: a row-major [rows, cols] matrix with contiguous
// rows is the column-major [cols, rows] (op N, ld = row_stride); one with
// contiguous columns needs op T (ld = col_stride).
struct BlasOperand {
  cublasOperation_t op = CUBLAS_OP_N;
  int64_t ld = 1;
};

BlasOperand blas_operand(int64_t rows, int64_t cols, const MatrixView& v) {
  if (v.col_stride == 1 && (rows == 1 || v.row_stride >= std::max<int64_t>(cols, 1))) {
    return {CUBLAS_OP_N, rows == 1 ? std::max<int64_t>(cols, 1) : v.row_stride};
  }
  return {CUBLAS_OP_T, cols == 1 ? std::max<int64_t>(rows, 1) : v.col_stride};
}

}  // namespace

bool gemm_compatible(int64_t rows, int64_t cols, int64_t row_stride, int64_t col_stride) {
  if (col_stride == 1 && (rows == 1 || row_stride >= std::max<int64_t>(cols, 1))) return true;
  return row_stride == 1 && (cols == 1 || col_stride >= std::max<int64_t>(rows, 1));
}

namespace {

// The column-major problem cuBLAS sees for C = A @ B (row-major).
struct BlasProblem {
  BlasOperand ob, oa;  // cuBLAS's A (our B) and B (our A)
  cudaDataType type;
  bool f64;
  cublasComputeType_t compute;
  int M, N, K, lda, ldb, ldc;
};

// The largest power of two (up to 256) dividing a pointer: what cuBLASLt may
// assume of an operand (its default, 256, makes it refuse offset views at
// call time), as PyTorch's _getAlignment.
uint32_t pointer_alignment(uint64_t address) {
  uint32_t a = 1;
  while (a < 256 && address % (uint64_t{a} * 2) == 0) a *= 2;
  return a;
}

Result<BlasProblem> blas_problem(const GemmSpec& s) {
  if (!fits_int(s.m) || !fits_int(s.n) || !fits_int(s.k) || !fits_int(s.batch)) {
    return make_error(ErrorCode::unsupported,
                      "matrix dims beyond 2^31 are not supported by cuBLAS");
  }
  BlasProblem p;
  p.ob = blas_operand(s.k, s.n, s.b);
  p.oa = blas_operand(s.m, s.k, s.a);
  p.type = data_type(s.dtype);
  p.f64 = s.dtype == DType::float64;
  p.compute = p.f64 ? CUBLAS_COMPUTE_64F : CUBLAS_COMPUTE_32F;
  p.M = static_cast<int>(s.n);
  p.N = static_cast<int>(s.m);
  p.K = static_cast<int>(s.k);
  p.lda = static_cast<int>(p.ob.ld);
  p.ldb = static_cast<int>(p.oa.ld);
  p.ldc = p.M;
  return p;
}

// A device address as the pointer cuBLAS takes (CUdeviceptr is an integer).
void* device_pointer(uint64_t address) {
  return reinterpret_cast<void*>(address);  // NOLINT(performance-no-int-to-ptr)
}

// PyTorch's cuBLASLt workspace on this generation (what its heuristic sees).
constexpr uint64_t kPyTorchLtWorkspaceBytes = uint64_t{4} << 20;

// What identifies a cuBLASLt problem for the algorithm choice.
std::string lt_problem_key(const BlasProblem& p, cudaDataType bias_type, uint32_t align_a,
                           uint32_t align_b, uint32_t align_c) {
  char buf[200];
  std::snprintf(buf, sizeof buf, "%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%u,%u,%u", p.M, p.N, p.K,
                static_cast<int>(p.ob.op), static_cast<int>(p.oa.op), p.lda, p.ldb, p.ldc,
                static_cast<int>(p.type), static_cast<int>(bias_type), align_a, align_b, align_c);
  return buf;
}

// The median of 5 timed calls of `call` on the runtime's stream after 2
// untimed ones (ms, CUDA events).
Result<double> median_run_ms(GpuRuntime& rt, const std::function<Status()>& call) {
  PF_ASSIGN(cuda::CudaEvent start, cuda::CudaEvent::create(rt.driver_ptr()));
  PF_ASSIGN(cuda::CudaEvent end, cuda::CudaEvent::create(rt.driver_ptr()));
  for (int i = 0; i < 2; ++i) PF_TRY(call());
  std::vector<double> ms;
  for (int i = 0; i < 5; ++i) {
    PF_TRY(start.record(rt.stream()));
    PF_TRY(call());
    PF_TRY(end.record(rt.stream()));
    PF_TRY(end.synchronize());
    PF_ASSIGN(float t, end.elapsed_ms_since(start));
    ms.push_back(t);
  }
  return summarize(ms).median;
}

}  // namespace

Result<bool> add_gemm_bias_epilogue(PlanBuilder& b, const GemmSpec& s) {
  if (s.bias == nullptr || s.dtype == DType::float64 || s.batch != 1 || s.m == 0 || s.n == 0)
    return false;
  PF_ASSIGN(BlasState * blas, b.runtime().blas());
  PF_ASSIGN(BlasProblem bp, blas_problem(s));
  auto lib = blas->lib;
  const auto& fn = lib->api();
  const cublasLtHandle_t lt = blas->lt.get();
  const BlasOperand ob = bp.ob, oa = bp.oa;
  const cudaDataType type = bp.type;
  const int m = bp.M, n = bp.N, k = bp.K;
  // Any cuBLASLt refusal below means "no epilogue for this problem": the
  // caller falls back to a bias copy plus a beta = 1 GEMM.
  auto ok = [&](cublasStatus_t st, const char* what) {
    if (st != CUBLAS_STATUS_SUCCESS)
      spdlog::debug("cuBLASLt bias epilogue: {}: {}", what, lib->error(st, what).message);
    return st == CUBLAS_STATUS_SUCCESS;
  };
  cublasLtMatmulDesc_t desc = nullptr;
  if (!ok(fn.cublasLtMatmulDescCreate(&desc, bp.compute, CUDA_R_32F), "cublasLtMatmulDescCreate"))
    return false;
  std::shared_ptr<void> desc_owner(desc, [lib](void* d) {
    lib->api().cublasLtMatmulDescDestroy(static_cast<cublasLtMatmulDesc_t>(d));
  });
  cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_BIAS;
  void* bias_ptr = device_pointer(s.bias->data_ptr());
  cudaDataType bias_type = data_type(s.bias->dtype());
  if (!ok(fn.cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &ob.op,
                                            sizeof(ob.op)),
          "TRANSA") ||
      !ok(fn.cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &oa.op,
                                            sizeof(oa.op)),
          "TRANSB") ||
      !ok(fn.cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue,
                                            sizeof(epilogue)),
          "EPILOGUE") ||
      !ok(fn.cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias_ptr,
                                            sizeof(bias_ptr)),
          "BIAS_POINTER") ||
      !ok(fn.cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &bias_type,
                                            sizeof(bias_type)),
          "BIAS_DATA_TYPE")) {
    return false;
  }
  auto layout = [&](uint64_t rows, uint64_t cols, int64_t ld) -> std::shared_ptr<void> {
    cublasLtMatrixLayout_t l = nullptr;
    if (!ok(fn.cublasLtMatrixLayoutCreate(&l, type, rows, cols, ld), "cublasLtMatrixLayoutCreate"))
      return nullptr;
    return std::shared_ptr<void>(l, [lib](void* p) {
      lib->api().cublasLtMatrixLayoutDestroy(static_cast<cublasLtMatrixLayout_t>(p));
    });
  };
  // Stored (column-major) shapes before the op is applied.
  auto a_layout = ob.op == CUBLAS_OP_N ? layout(m, k, bp.lda) : layout(k, m, bp.lda);
  auto b_layout = oa.op == CUBLAS_OP_N ? layout(k, n, bp.ldb) : layout(n, k, bp.ldb);
  auto c_layout = layout(m, n, bp.ldc);
  if (!a_layout || !b_layout || !c_layout) return false;
  cublasLtMatmulPreference_t pref = nullptr;
  if (!ok(fn.cublasLtMatmulPreferenceCreate(&pref), "cublasLtMatmulPreferenceCreate")) return false;
  std::shared_ptr<void> pref_owner(pref, [lib](void* p) {
    lib->api().cublasLtMatmulPreferenceDestroy(static_cast<cublasLtMatmulPreference_t>(p));
  });
  uint64_t ws = blas->workspace_bytes;
  if (!ok(fn.cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                  &ws, sizeof(ws)),
          "MAX_WORKSPACE_BYTES")) {
    return false;
  }
  const uint32_t align_a = pointer_alignment(s.b.ptr), align_b = pointer_alignment(s.a.ptr),
                 align_c = pointer_alignment(s.c);
  if (!ok(fn.cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES,
                                                  &align_a, sizeof(align_a)),
          "MIN_ALIGNMENT_A_BYTES") ||
      !ok(fn.cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES,
                                                  &align_b, sizeof(align_b)),
          "MIN_ALIGNMENT_B_BYTES") ||
      !ok(fn.cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES,
                                                  &align_c, sizeof(align_c)),
          "MIN_ALIGNMENT_C_BYTES") ||
      !ok(fn.cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES,
                                                  &align_c, sizeof(align_c)),
          "MIN_ALIGNMENT_D_BYTES")) {
    return false;
  }
  cublasLtMatmulHeuristicResult_t heuristic{};
  int found = 0;
  auto al = static_cast<cublasLtMatrixLayout_t>(a_layout.get());
  auto bl = static_cast<cublasLtMatrixLayout_t>(b_layout.get());
  auto cl = static_cast<cublasLtMatrixLayout_t>(c_layout.get());
  if (!ok(fn.cublasLtMatmulAlgoGetHeuristic(lt, desc, al, bl, cl, cl, pref, 1, &heuristic, &found),
          "cublasLtMatmulAlgoGetHeuristic") ||
      found == 0) {
    return false;
  }
  const void* a_ptr = device_pointer(s.b.ptr);
  const void* b_ptr = device_pointer(s.a.ptr);
  void* c_ptr = device_pointer(s.c);
  void* workspace = device_pointer(blas->workspace->data());
  cublasLtMatmulAlgo_t algo = heuristic.algo;
  const float alpha = static_cast<float>(s.alpha);
  // The heuristic's answer depends on the workspace it may use: with ours
  // (32 MiB) it picks split-K kernels that beat PyTorch's on large problems,
  // with PyTorch's smaller one it picks the skinny-matrix kernels PyTorch
  // gets on a dozen rows (2.9 against 8.8 us on linear-gelu, H200). When the
  // two answers differ, both run on this problem and the faster is kept
  // (once per problem and process: LtChoices).
  const std::string key = lt_problem_key(bp, bias_type, align_a, align_b, align_c);
  // The heuristic's top algorithm for PyTorch's workspace (capped at ours).
  auto small_workspace_algo = [&]() -> std::optional<cublasLtMatmulAlgo_t> {
    uint64_t small_ws = std::min<uint64_t>(ws, kPyTorchLtWorkspaceBytes);
    cublasLtMatmulHeuristicResult_t small{};
    int small_found = 0;
    if (!ok(fn.cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                    &small_ws, sizeof(small_ws)),
            "MAX_WORKSPACE_BYTES") ||
        !ok(fn.cublasLtMatmulAlgoGetHeuristic(lt, desc, al, bl, cl, cl, pref, 1, &small,
                                              &small_found),
            "cublasLtMatmulAlgoGetHeuristic (small workspace)") ||
        small_found == 0) {
      return std::nullopt;
    }
    return small.algo;
  };
  std::optional<bool> small_wins = blas->lt_choices->find(key);
  if (!small_wins) {
    small_wins = false;
    std::optional<cublasLtMatmulAlgo_t> small = small_workspace_algo();
    if (small && std::memcmp(&*small, &algo, sizeof(algo)) != 0) {
      auto run_with = [&](const cublasLtMatmulAlgo_t& candidate) -> Status {
        const float zero = 0.0f;
        return lib->check(fn.cublasLtMatmul(lt, desc, &alpha, a_ptr, al, b_ptr, bl, &zero, c_ptr,
                                            cl, c_ptr, cl, &candidate, workspace, ws,
                                            reinterpret_cast<cudaStream_t>(b.runtime().stream())),
                          "cublasLtMatmul (choice)");
      };
      auto full_ms = median_run_ms(b.runtime(), [&] { return run_with(algo); });
      auto small_ms = median_run_ms(b.runtime(), [&] { return run_with(*small); });
      if (full_ms.ok() && small_ms.ok()) {
        small_wins = *small_ms < *full_ms;
      } else if (!full_ms.ok() && small_ms.ok()) {
        small_wins = true;
      }
      spdlog::debug("cuBLASLt M={} N={} K={}: full workspace {:.4f} ms, small {:.4f} ms", m, n, k,
                    full_ms.ok() ? *full_ms : -1.0, small_ms.ok() ? *small_ms : -1.0);
      if (*small_wins) algo = *small;
    }
    blas->lt_choices->remember(key, *small_wins);
  } else if (*small_wins) {
    if (auto small = small_workspace_algo()) algo = *small;
  }
  // The plan's pointers are fixed, so one trial call now shows whether
  // cuBLASLt takes them (it can still refuse at call time, e.g. with
  // CUBLAS_STATUS_NOT_SUPPORTED); a refusal takes the bias-copy path instead
  // of failing every run. C is the GEMM's own output, rewritten by each run.
  {
    const float zero = 0.0f;
    if (!ok(fn.cublasLtMatmul(lt, desc, &alpha, a_ptr, al, b_ptr, bl, &zero, c_ptr, cl, c_ptr, cl,
                              &algo, workspace, ws,
                              reinterpret_cast<cudaStream_t>(b.runtime().stream())),
            "cublasLtMatmul (trial)")) {
      return false;
    }
    PF_TRY(b.runtime().synchronize());
  }
  for (auto& owner : {desc_owner, a_layout, b_layout, c_layout}) b.keep_alive(owner);
  b.use(*s.bias);
  b.add_library_call("cublasLtMatmul",
                     [lib, lt, desc, al, bl, cl, a_ptr, b_ptr, c_ptr, algo, workspace, ws,
                      alpha](CUstream stream) -> Status {
                       const float zero = 0.0f;
                       return lib->check(
                           lib->api().cublasLtMatmul(lt, desc, &alpha, a_ptr, al, b_ptr, bl, &zero,
                                                     c_ptr, cl, c_ptr, cl, &algo, workspace, ws,
                                                     reinterpret_cast<cudaStream_t>(stream)),
                           "cublasLtMatmul");
                     });
  return true;
}

Status add_gemm(PlanBuilder& b, const GemmSpec& s) {
  if (s.bias != nullptr)
    return make_error(ErrorCode::internal, "add_gemm takes no bias (add_gemm_bias_epilogue)");
  if (s.m == 0 || s.n == 0 || s.batch == 0) return ok_status();
  PF_ASSIGN(BlasState * blas, b.runtime().blas());
  PF_ASSIGN(BlasProblem bp, blas_problem(s));
  auto lib = blas->lib;
  const cudaDataType type = bp.type;
  const bool f64 = bp.f64;
  const cublasComputeType_t compute = bp.compute;
  const int m = bp.M, n = bp.N, k = bp.K, lda = bp.lda, ldb = bp.ldb, ldc = bp.ldc;
  const BlasOperand ob = bp.ob, oa = bp.oa;
  const cublasHandle_t handle = blas->handle.get();
  const void* a_ptr = device_pointer(s.b.ptr);
  const void* b_ptr = device_pointer(s.a.ptr);
  void* c_ptr = device_pointer(s.c);
  const long long sa = s.b.batch_stride, sb = s.a.batch_stride, sc = s.m * s.n;
  const int batch = static_cast<int>(s.batch);
  const double alpha = s.alpha, beta = s.beta;
  const cublasOperation_t ta = ob.op, tb = oa.op;
  b.add_library_call(
      batch == 1 ? "cublasGemmEx" : "cublasGemmStridedBatchedEx", [=](CUstream stream) -> Status {
        const auto& fn = lib->api();
        PF_TRY(lib->check(fn.cublasSetStream_v2(handle, reinterpret_cast<cudaStream_t>(stream)),
                          "cublasSetStream"));
        const float falpha = static_cast<float>(alpha), fbeta = static_cast<float>(beta);
        const void* pa = f64 ? static_cast<const void*>(&alpha) : &falpha;
        const void* pb = f64 ? static_cast<const void*>(&beta) : &fbeta;
        if (batch == 1) {
          return lib->check(
              fn.cublasGemmEx(handle, ta, tb, m, n, k, pa, a_ptr, type, lda, b_ptr, type, ldb, pb,
                              c_ptr, type, ldc, compute, CUBLAS_GEMM_DEFAULT),
              "cublasGemmEx");
        }
        return lib->check(fn.cublasGemmStridedBatchedEx(
                              handle, ta, tb, m, n, k, pa, a_ptr, type, lda, sa, b_ptr, type, ldb,
                              sb, pb, c_ptr, type, ldc, sc, batch, compute, CUBLAS_GEMM_DEFAULT),
                          "cublasGemmStridedBatchedEx");
      });
  return ok_status();
}

}  // namespace pf::gpu
