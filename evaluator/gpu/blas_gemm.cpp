#include "evaluator/gpu/blas_gemm.h"

#include <climits>

namespace pf::gpu {
namespace {

bool fits_int(int64_t v) { return v >= 0 && v <= INT_MAX; }

cudaDataType data_type(DType t) {
  switch (t) {
    case DType::float16: return CUDA_R_16F;
    case DType::bfloat16: return CUDA_R_16BF;
    case DType::float64: return CUDA_R_64F;
    default: return CUDA_R_32F;
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

Status add_gemm(PlanBuilder& b, const GemmSpec& s) {
  PF_ASSIGN(BlasState * blas, b.runtime().blas());
  if (!fits_int(s.m) || !fits_int(s.n) || !fits_int(s.k) || !fits_int(s.batch)) {
    return make_error(ErrorCode::unsupported, "matrix dims beyond 2^31 are not supported by cuBLAS");
  }
  if (s.m == 0 || s.n == 0 || s.batch == 0) return ok_status();
  // C^T = B^T A^T in column-major terms: cuBLAS's A is our B, its B our A.
  BlasOperand ob = blas_operand(s.k, s.n, s.b);
  BlasOperand oa = blas_operand(s.m, s.k, s.a);
  const cudaDataType type = data_type(s.dtype);
  const bool f64 = s.dtype == DType::float64;
  const cublasComputeType_t compute = f64 ? CUBLAS_COMPUTE_64F : CUBLAS_COMPUTE_32F;
  auto lib = blas->lib;
  const int M = static_cast<int>(s.n), N = static_cast<int>(s.m), K = static_cast<int>(s.k);
  const auto lda = static_cast<int>(ob.ld), ldb = static_cast<int>(oa.ld), ldc = M;

  if (s.bias != nullptr) {
    if (f64 || s.batch != 1) {
      return make_error(ErrorCode::internal, "the cuBLASLt bias epilogue takes one fp32/fp16/bf16 matrix");
    }
    // cuBLASLt with the bias epilogue (bias over our n = cuBLAS's rows of D).
    const cublasLtHandle_t lt = blas->lt.get();
    const auto& fn = lib->api();
    cublasLtMatmulDesc_t desc = nullptr;
    PF_TRY(lib->check(fn.cublasLtMatmulDescCreate(&desc, compute, CUDA_R_32F), "cublasLtMatmulDescCreate"));
    std::shared_ptr<void> desc_owner(desc, [lib](void* d) {
      lib->api().cublasLtMatmulDescDestroy(static_cast<cublasLtMatmulDesc_t>(d));
    });
    cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_BIAS;
    void* bias_ptr = reinterpret_cast<void*>(s.bias->data_ptr());
    b.use(*s.bias);
    PF_TRY(lib->check(fn.cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &ob.op, sizeof(ob.op)),
                      "cublasLtMatmulDescSetAttribute(TRANSA)"));
    PF_TRY(lib->check(fn.cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &oa.op, sizeof(oa.op)),
                      "cublasLtMatmulDescSetAttribute(TRANSB)"));
    PF_TRY(lib->check(fn.cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue,
                                                        sizeof(epilogue)),
                      "cublasLtMatmulDescSetAttribute(EPILOGUE)"));
    PF_TRY(lib->check(fn.cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias_ptr,
                                                        sizeof(bias_ptr)),
                      "cublasLtMatmulDescSetAttribute(BIAS_POINTER)"));
    cudaDataType bias_type = data_type(s.bias->dtype());
    PF_TRY(lib->check(fn.cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &bias_type,
                                                        sizeof(bias_type)),
                      "cublasLtMatmulDescSetAttribute(BIAS_DATA_TYPE)"));
    auto layout = [&](uint64_t rows, uint64_t cols, int64_t ld) -> Result<std::shared_ptr<void>> {
      cublasLtMatrixLayout_t l = nullptr;
      PF_TRY(lib->check(fn.cublasLtMatrixLayoutCreate(&l, type, rows, cols, ld), "cublasLtMatrixLayoutCreate"));
      return std::shared_ptr<void>(l, [lib](void* p) {
        lib->api().cublasLtMatrixLayoutDestroy(static_cast<cublasLtMatrixLayout_t>(p));
      });
    };
    // Stored shapes (column-major) before the op is applied.
    PF_ASSIGN(auto a_layout, ob.op == CUBLAS_OP_N ? layout(M, K, lda) : layout(K, M, lda));
    PF_ASSIGN(auto b_layout, oa.op == CUBLAS_OP_N ? layout(K, N, ldb) : layout(N, K, ldb));
    PF_ASSIGN(auto c_layout, layout(M, N, ldc));
    cublasLtMatmulPreference_t pref = nullptr;
    PF_TRY(lib->check(fn.cublasLtMatmulPreferenceCreate(&pref), "cublasLtMatmulPreferenceCreate"));
    std::shared_ptr<void> pref_owner(pref, [lib](void* p) {
      lib->api().cublasLtMatmulPreferenceDestroy(static_cast<cublasLtMatmulPreference_t>(p));
    });
    uint64_t ws = blas->workspace_bytes;
    PF_TRY(lib->check(fn.cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                              &ws, sizeof(ws)),
                      "cublasLtMatmulPreferenceSetAttribute"));
    cublasLtMatmulHeuristicResult_t heuristic{};
    int found = 0;
    auto al = static_cast<cublasLtMatrixLayout_t>(a_layout.get());
    auto bl = static_cast<cublasLtMatrixLayout_t>(b_layout.get());
    auto cl = static_cast<cublasLtMatrixLayout_t>(c_layout.get());
    PF_TRY(lib->check(fn.cublasLtMatmulAlgoGetHeuristic(lt, desc, al, bl, cl, cl, pref, 1, &heuristic, &found),
                      "cublasLtMatmulAlgoGetHeuristic"));
    if (found > 0) {
      for (auto& owner : {desc_owner, a_layout, b_layout, c_layout}) b.keep_alive(owner);
      const void* A = reinterpret_cast<const void*>(s.b.ptr);
      const void* B = reinterpret_cast<const void*>(s.a.ptr);
      void* C = reinterpret_cast<void*>(s.c);
      void* workspace = reinterpret_cast<void*>(blas->workspace->data());
      cublasLtMatmulAlgo_t algo = heuristic.algo;
      const float alpha = static_cast<float>(s.alpha);
      b.add_library_call("cublasLtMatmul", [lib, lt, desc, al, bl, cl, A, B, C, algo, workspace, ws,
                                            alpha](CUstream stream) -> Status {
        const float zero = 0.0f;
        return lib->check(lib->api().cublasLtMatmul(lt, desc, &alpha, A, al, B, bl, &zero, C, cl, C, cl, &algo,
                                                    workspace, ws, reinterpret_cast<cudaStream_t>(stream)),
                          "cublasLtMatmul");
      });
      return ok_status();
    }
    return make_error(ErrorCode::internal, "cuBLASLt found no algorithm for the bias epilogue");
  }

  const cublasHandle_t handle = blas->handle.get();
  const void* A = reinterpret_cast<const void*>(s.b.ptr);
  const void* B = reinterpret_cast<const void*>(s.a.ptr);
  void* C = reinterpret_cast<void*>(s.c);
  const long long sa = s.b.batch_stride, sb = s.a.batch_stride, sc = s.m * s.n;
  const int batch = static_cast<int>(s.batch);
  const double alpha = s.alpha, beta = s.beta;
  const cublasOperation_t ta = ob.op, tb = oa.op;
  b.add_library_call(batch == 1 ? "cublasGemmEx" : "cublasGemmStridedBatchedEx",
                     [=](CUstream stream) -> Status {
                       const auto& fn = lib->api();
                       PF_TRY(lib->check(fn.cublasSetStream_v2(handle, reinterpret_cast<cudaStream_t>(stream)),
                                         "cublasSetStream"));
                       const float falpha = static_cast<float>(alpha), fbeta = static_cast<float>(beta);
                       const void* pa = f64 ? static_cast<const void*>(&alpha) : &falpha;
                       const void* pb = f64 ? static_cast<const void*>(&beta) : &fbeta;
                       if (batch == 1) {
                         return lib->check(fn.cublasGemmEx(handle, ta, tb, M, N, K, pa, A, type, lda, B, type, ldb,
                                                           pb, C, type, ldc, compute, CUBLAS_GEMM_DEFAULT),
                                           "cublasGemmEx");
                       }
                       return lib->check(
                           fn.cublasGemmStridedBatchedEx(handle, ta, tb, M, N, K, pa, A, type, lda, sa, B, type, ldb,
                                                         sb, pb, C, type, ldc, sc, batch, compute,
                                                         CUBLAS_GEMM_DEFAULT),
                           "cublasGemmStridedBatchedEx");
                     });
  return ok_status();
}

}  // namespace pf::gpu
