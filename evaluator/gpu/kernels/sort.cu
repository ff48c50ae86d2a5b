// pf-dtypes: bool uint8 int8 int16 int32 int64 float16 bfloat16 float32 float64
// pf-requires: pf_ops_abi.cuh
// topk, sort and argsort (ops_sort.cpp): one thread per row picks its k
// elements in the CPU reference's total order (evaluator/ops/sorting.cpp):
// pick j is the first element, in that order, strictly after pick j - 1, so
// no scratch is needed and ties resolve by index exactly as on the CPU.
// O(len * k) per row: PyTorch's radix select / segmented sort are faster on
// long rows; rows here are what GraphNet's routers and detectors sort (a few
// to a few thousand elements).

// a before b in the order.
__device__ __forceinline__ bool pf_sort_before(opmath_t va, long long ia, opmath_t vb, long long ib,
                                               bool descending) {
  const bool na = pf_isnan(va), nb = pf_isnan(vb);
  if (na || nb) {
    if (na && nb) return ia < ib;
    return na ? descending : !descending;
  }
  if (va != vb) return descending ? va > vb : va < vb;
  return ia < ib;
}

extern "C" __global__ void __launch_bounds__(128) pf_sort_select(const PfSortParams p) {
  const long long row = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= p.outer * p.inner) return;
  const long long o = row / p.inner, c = row - o * p.inner;
  const scalar_t* in = reinterpret_cast<const scalar_t*>(p.in) + o * p.len * p.inner + c;
  const long long out_base = o * p.k * p.inner + c;
  const bool descending = p.descending != 0;
  opmath_t prev_v = opmath_t(0);
  long long prev_i = -1;
  for (long long j = 0; j < p.k; ++j) {
    long long best_i = -1;
    opmath_t best_v = opmath_t(0);
    for (long long i = 0; i < p.len; ++i) {
      const opmath_t v = pf_cast<opmath_t>(in[i * p.inner]);
      if (prev_i >= 0 && !pf_sort_before(prev_v, prev_i, v, i, descending)) continue;
      if (best_i < 0 || pf_sort_before(v, i, best_v, best_i, descending)) {
        best_v = v;
        best_i = i;
      }
    }
    if (p.values != 0) {
      reinterpret_cast<scalar_t*>(p.values)[out_base + j * p.inner] = in[best_i * p.inner];
    }
    reinterpret_cast<long long*>(p.indices)[out_base + j * p.inner] = best_i;
    prev_v = best_v;
    prev_i = best_i;
  }
}
