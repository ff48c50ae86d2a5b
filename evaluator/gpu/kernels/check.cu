// pf-dtypes: float32
// pf-requires: tensor_digest.h
// The integrity checks on the device (evaluator/gpu/tensor_checks.h): a keyed
// digest of a candidate's output, the count of an input's changed elements
// and of damaged canary words, so the harness reads back eight bytes instead
// of the tensor or the guards. The
// per-element math is evaluator/core/tensor_digest.h, shared with the host.
// One program (built for float32 only) serves every dtype: the element size
// comes from the parameter's dtype tag. Reductions use warp shuffles and one
// atomic add per warp: no shared memory keeps partial sums after the launch.

extern "C" __global__ void __launch_bounds__(PF_EW_THREADS) pf_digest_sum(const PfDigestParams p) {
  const int size = pf_digest_element_size(p.dtype);
  const void* data = reinterpret_cast<const void*>(p.data);
  unsigned long long sum = 0;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < p.n;
       i += stride) {
    sum += pf_digest_term(p.key, i, pf_digest_bits(data, i, size));
  }
  for (int d = 16; d > 0; d /= 2) sum += __shfl_down_sync(0xffffffffu, sum, d);
  if ((threadIdx.x & 31) == 0 && sum != 0) {
    atomicAdd(reinterpret_cast<unsigned long long*>(p.sum), sum);
  }
}

extern "C" __global__ void __launch_bounds__(PF_EW_THREADS)
    pf_count_changed(const PfCountChangedParams p) {
  const int size = pf_digest_element_size(p.dtype);
  const void* a = reinterpret_cast<const void*>(p.a);
  const void* b = reinterpret_cast<const void*>(p.b);
  unsigned long long changed = 0;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < p.n;
       i += stride) {
    changed += pf_digest_bits(a, i, size) != pf_digest_bits(b, i, size);
  }
  for (int d = 16; d > 0; d /= 2) changed += __shfl_down_sync(0xffffffffu, changed, d);
  if ((threadIdx.x & 31) == 0 && changed != 0) {
    atomicAdd(reinterpret_cast<unsigned long long*>(p.count), changed);
  }
}

// Block (x, y) checks a slice of range y; every thread strides over words.
extern "C" __global__ void __launch_bounds__(PF_EW_THREADS) pf_guard_damage(const PfGuardParams p) {
  const unsigned int* words = reinterpret_cast<const unsigned int*>(p.base[blockIdx.y]);
  const unsigned int n = p.bytes / 4;
  unsigned long long damaged = 0;
  for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    damaged += words[i] != p.word;
  }
  for (int d = 16; d > 0; d /= 2) damaged += __shfl_down_sync(0xffffffffu, damaged, d);
  if ((threadIdx.x & 31) == 0 && damaged != 0) {
    atomicAdd(reinterpret_cast<unsigned long long*>(p.damaged), damaged);
  }
}
