#include "evaluator/gpu/conv_cudnn.h"

#include <vector>

namespace pf::gpu {
namespace {

Result<cudnnDataType_t> cudnn_type(DType t) {
  switch (t) {
    case DType::float16:
      return CUDNN_DATA_HALF;
    case DType::bfloat16:
      return CUDNN_DATA_BFLOAT16;
    case DType::float32:
      return CUDNN_DATA_FLOAT;
    case DType::float64:
      return CUDNN_DATA_DOUBLE;
    default:
      return make_error(ErrorCode::unsupported,
                        std::string("cuDNN convolutions of ") + dtype_name(t) + " tensors");
  }
}

std::vector<int> dims_of(const DeviceTensor& t) {
  std::vector<int> d;
  for (int64_t s : t.shape()) d.push_back(static_cast<int>(s));
  return d;
}

Status set_tensor(const cuda::CudnnLibrary& lib, cudnnTensorDescriptor_t desc, cudnnDataType_t type,
                  const DeviceTensor& t) {
  std::vector<int> dims = dims_of(t), strides;
  for (int64_t s : contiguous_strides(t.shape())) strides.push_back(static_cast<int>(s));
  return lib.check(lib.api().cudnnSetTensorNdDescriptor(desc, type, static_cast<int>(dims.size()),
                                                        dims.data(), strides.data()),
                   "cudnnSetTensorNdDescriptor");
}

// PyTorch's ConvolutionDescriptor::set: fp16/bf16 compute in float with
// tensor ops; fp32 in float, FMA only unless TF32 is allowed.
cudnnMathType_t initial_math(cudnnDataType_t type, bool allow_tf32) {
  if (type == CUDNN_DATA_HALF || type == CUDNN_DATA_BFLOAT16) return CUDNN_TENSOR_OP_MATH;
  if (type == CUDNN_DATA_FLOAT && !allow_tf32) return CUDNN_FMA_MATH;
  return CUDNN_DEFAULT_MATH;
}

}  // namespace

Status add_cudnn_conv(PlanBuilder& b, CudnnState& cudnn, const ConvGeometry& g,
                      const DeviceTensor& x, const DeviceTensor& w, const DeviceTensor& y) {
  const cuda::CudnnLibrary& lib = *cudnn.lib;
  const cuda::CudnnFunctions& f = lib.api();
  const int rank = static_cast<int>(x.dim());
  if ((rank != 4 && rank != 5) || w.dim() != rank || y.dim() != rank || !x.is_contiguous() ||
      !w.is_contiguous() || !y.is_contiguous()) {
    return make_error(ErrorCode::internal,
                      "cuDNN convolutions take contiguous tensors, all 4-d or all 5-d");
  }
  const int spatial = rank - 2;
  const size_t first = static_cast<size_t>(3 - spatial);  // the geometry slot of dim 2
  for (const DeviceTensor* t : {&x, &w, &y}) {
    if (t->numel() >= (int64_t{1} << 31)) {
      return make_error(ErrorCode::unsupported, "cuDNN convolutions of 2^31 or more elements");
    }
  }
  PF_ASSIGN(cudnnDataType_t type, cudnn_type(x.dtype()));
  const cudnnDataType_t compute = type == CUDNN_DATA_DOUBLE ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT;
  PF_ASSIGN(std::unique_ptr<cuda::CudnnConvDescriptors> owned,
            cuda::CudnnConvDescriptors::create(cudnn.lib));
  std::shared_ptr<cuda::CudnnConvDescriptors> d = std::move(owned);
  // Transposed: the forward convolution it is the data gradient of maps y
  // (its "x") to x (its "y").
  const DeviceTensor& fx = g.transposed ? y : x;
  const DeviceTensor& fy = g.transposed ? x : y;
  PF_TRY(set_tensor(lib, d->x, type, fx));
  PF_TRY(set_tensor(lib, d->y, type, fy));
  std::vector<int> wdims = dims_of(w);
  PF_TRY(lib.check(f.cudnnSetFilterNdDescriptor(d->w, type, CUDNN_TENSOR_NCHW, rank, wdims.data()),
                   "cudnnSetFilterNdDescriptor"));
  PF_TRY(lib.check(f.cudnnSetConvolutionNdDescriptor(d->conv, spatial, g.pad.data() + first,
                                                     g.stride.data() + first, g.dil.data() + first,
                                                     CUDNN_CROSS_CORRELATION, compute),
                   "cudnnSetConvolutionNdDescriptor"));
  PF_TRY(lib.check(f.cudnnSetConvolutionGroupCount(d->conv, g.groups),
                   "cudnnSetConvolutionGroupCount"));
  PF_TRY(lib.check(f.cudnnSetConvolutionMathType(d->conv, initial_math(type, cudnn.allow_tf32)),
                   "cudnnSetConvolutionMathType"));
  // The chosen algorithm's math type, as PyTorch sets it; fp32 without TF32
  // stays FMA whatever the heuristic reports.
  const bool fma_only = type == CUDNN_DATA_FLOAT && !cudnn.allow_tf32;
  const auto chosen_math = [fma_only](cudnnMathType_t m) { return fma_only ? CUDNN_FMA_MATH : m; };
  cudnnHandle_t handle = cudnn.handle.get();
  int algo = -1;
  size_t ws = 0;
  if (!g.transposed) {
    cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
    int count = 0;
    PF_TRY(lib.check(
        f.cudnnGetConvolutionForwardAlgorithm_v7(handle, d->x, d->w, d->conv, d->y,
                                                 CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &count, perf),
        "cudnnGetConvolutionForwardAlgorithm_v7"));
    for (int i = 0; i < count && algo < 0; ++i) {
      if (perf[i].status != CUDNN_STATUS_SUCCESS) continue;
      PF_TRY(lib.check(f.cudnnSetConvolutionMathType(d->conv, chosen_math(perf[i].mathType)),
                       "cudnnSetConvolutionMathType"));
      if (f.cudnnGetConvolutionForwardWorkspaceSize(handle, d->x, d->w, d->conv, d->y, perf[i].algo,
                                                    &ws) != CUDNN_STATUS_SUCCESS) {
        continue;
      }
      algo = static_cast<int>(perf[i].algo);
    }
  } else {
    cudnnConvolutionBwdDataAlgoPerf_t perf[CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT];
    int count = 0;
    PF_TRY(lib.check(
        f.cudnnGetConvolutionBackwardDataAlgorithm_v7(
            handle, d->w, d->y, d->conv, d->x, CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT, &count, perf),
        "cudnnGetConvolutionBackwardDataAlgorithm_v7"));
    for (int i = 0; i < count && algo < 0; ++i) {
      if (perf[i].status != CUDNN_STATUS_SUCCESS) continue;
      PF_TRY(lib.check(f.cudnnSetConvolutionMathType(d->conv, chosen_math(perf[i].mathType)),
                       "cudnnSetConvolutionMathType"));
      if (f.cudnnGetConvolutionBackwardDataWorkspaceSize(
              handle, d->w, d->y, d->conv, d->x, perf[i].algo, &ws) != CUDNN_STATUS_SUCCESS) {
        continue;
      }
      algo = static_cast<int>(perf[i].algo);
    }
  }
  if (algo < 0) {
    return make_error(ErrorCode::unsupported, "cuDNN offers no algorithm for this convolution");
  }
  CUdeviceptr workspace = 0;
  if (ws > 0) {
    PF_ASSIGN(auto storage, b.allocate_bytes(ws, "cudnn workspace"));
    workspace = storage->data();
  }
  b.use(x);
  b.use(w);
  b.use(y);
  b.keep_alive(d);
  auto lib_ptr = cudnn.lib;
  const bool transposed = g.transposed;
  const bool f64 = type == CUDNN_DATA_DOUBLE;
  const CUdeviceptr px = x.data_ptr(), pw = w.data_ptr(), py = y.data_ptr();
  b.add_library_call(
      transposed ? "cudnnConvolutionBackwardData" : "cudnnConvolutionForward",
      [lib_ptr, d, handle, transposed, f64, px, pw, py, algo, workspace,
       ws](CUstream stream) -> Status {
        const auto& fn = lib_ptr->api();
        PF_TRY(lib_ptr->check(fn.cudnnSetStream(handle, reinterpret_cast<cudaStream_t>(stream)),
                              "cudnnSetStream"));
        const float one_f = 1.0f, zero_f = 0.0f;
        const double one_d = 1.0, zero_d = 0.0;
        const void* one = f64 ? static_cast<const void*>(&one_d) : &one_f;
        const void* zero = f64 ? static_cast<const void*>(&zero_d) : &zero_f;
        void* wsp = reinterpret_cast<void*>(workspace);
        if (transposed) {
          return lib_ptr->check(
              fn.cudnnConvolutionBackwardData(handle, one, d->w, reinterpret_cast<const void*>(pw),
                                              d->y, reinterpret_cast<const void*>(px), d->conv,
                                              static_cast<cudnnConvolutionBwdDataAlgo_t>(algo), wsp,
                                              ws, zero, d->x, reinterpret_cast<void*>(py)),
              "cudnnConvolutionBackwardData");
        }
        return lib_ptr->check(
            fn.cudnnConvolutionForward(handle, one, d->x, reinterpret_cast<const void*>(px), d->w,
                                       reinterpret_cast<const void*>(pw), d->conv,
                                       static_cast<cudnnConvolutionFwdAlgo_t>(algo), wsp, ws, zero,
                                       d->y, reinterpret_cast<void*>(py)),
            "cudnnConvolutionForward");
      });
  return ok_status();
}

}  // namespace pf::gpu
