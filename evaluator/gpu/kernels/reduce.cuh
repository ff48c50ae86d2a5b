// The reduction skeleton (after PyTorch's Reduce.cuh, simplified): output o
// folds n_red inputs. Block layouts (host: reduce_plan.cpp):
//   PF_REDUCE_INNER: threads along x share one output's row (the reduced dims
//     include the contiguous one), y indexes outputs; a row shorter than a
//     warp takes a power-of-two slice of one (several rows per warp);
//     vectorised row loads when `vectorize`; warp shuffles, then shared memory.
//   PF_REDUCE_OUTER: x indexes consecutive outputs (coalesced reads across
//     outputs), y splits the reduction; shared-memory tree.
//   PF_REDUCE_SERIAL: one thread folds the whole reduction of out_vec
//     consecutive outputs (one vector load per step when out_vec > 1): no
//     shared memory, no barrier; for reductions too short to split.
// With blocks_per_output > 1 (grid.y), block column y folds a slice of
// red_per_block inputs, writes a partial to scratch and the last block of
// the column (a self-resetting semaphore counts arrivals) combines them.
// Shared memory is dynamic, sized by the host for the layout (32 bytes a slot).
//
// An op is a struct with
//   typedef ... acc_t;  (trivially copyable, size a multiple of 4, <= 32 bytes)
//   static __device__ acc_t identity(const PfReduceParams&);
//   static __device__ acc_t fold(const PfReduceParams&, acc_t, opmath_t x, long long index, long long o);
//   static __device__ acc_t combine(const PfReduceParams&, acc_t, acc_t);
//   static __device__ void project(const PfReduceParams&, acc_t, long long o, char* out, long long* index_out);

#define PF_REDUCE_MAX_THREADS 512
#define PF_REDUCE_ACC_BYTES 32

template <class A>
__device__ __forceinline__ A pf_shfl_down_any(A a, int offset) {
  static_assert(sizeof(A) % 4 == 0 && sizeof(A) <= PF_REDUCE_ACC_BYTES, "accumulator size");
  union U {
    A a;
    int w[sizeof(A) / 4];
  } u;
  u.a = a;
#pragma unroll
  for (int i = 0; i < (int)(sizeof(A) / 4); ++i) u.w[i] = __shfl_down_sync(0xffffffffu, u.w[i], offset);
  return u.a;
}

// Reads another block's partial through L2 (ld.global.cg), never a stale L1 line.
template <class A>
__device__ __forceinline__ A pf_load_partial(const char* p) {
  union U {
    A a;
    int w[sizeof(A) / 4];
  } u;
#pragma unroll
  for (int i = 0; i < (int)(sizeof(A) / 4); ++i) u.w[i] = __ldcg(reinterpret_cast<const int*>(p) + i);
  return u.a;
}

template <class Op>
__device__ __forceinline__ typename Op::acc_t pf_load_fold(const PfReduceParams& p,
                                                           typename Op::acc_t acc, const char* base,
                                                           unsigned int r, long long o) {
  unsigned int off[2];
  pf_offsets<2>(p.red_calc, r, off);
  opmath_t x = pf_cast<opmath_t>(pf_load<scalar_t>(base + off[1]));
  return Op::fold(p, acc, x, r, o);
}

// Blocks of one column (blockIdx.x) that fold slices of the same outputs
// [o, o + V): each stores its partials (when `owner`) and counts itself on
// the column's self-resetting semaphore. Returns false in every block but
// the last to arrive, where acc ends up holding every block's partials.
template <class Op, int V>
__device__ bool pf_reduce_across_blocks(const PfReduceParams& p, bool owner, long long o,
                                        typename Op::acc_t (&acc)[V]) {
  typedef typename Op::acc_t acc_t;
  __shared__ bool last;
  char* scratch = reinterpret_cast<char*>(p.scratch);
  if (owner) {
#pragma unroll
    for (int j = 0; j < V; ++j) {
      *reinterpret_cast<acc_t*>(scratch + ((o + j) * p.blocks_per_output + blockIdx.y) * PF_REDUCE_ACC_BYTES) =
          acc[j];
    }
  }
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    unsigned int* sem = reinterpret_cast<unsigned int*>(p.semaphores) + blockIdx.x;
    unsigned int prev = atomicAdd(sem, 1u);
    last = prev == static_cast<unsigned int>(p.blocks_per_output - 1);
    if (last) *sem = 0;  // ready for the next run of the plan
  }
  __syncthreads();
  if (!last) return false;
  __threadfence();
  if (owner) {
#pragma unroll
    for (int j = 0; j < V; ++j) {
      acc[j] = Op::identity(p);
      for (int k = 0; k < p.blocks_per_output; ++k) {
        acc[j] = Op::combine(p, acc[j], pf_load_partial<acc_t>(
                                            scratch + ((o + j) * p.blocks_per_output + k) * PF_REDUCE_ACC_BYTES));
      }
    }
  }
  return true;
}

// Writes outputs [o, o + V) (contiguous; out_off from out_calc(o)).
template <class Op, int V>
__device__ __forceinline__ void pf_reduce_store(const PfReduceParams& p, const typename Op::acc_t (&acc)[V],
                                                long long o, const unsigned int (&out_off)[3]) {
  char* out = reinterpret_cast<char*>(p.out) + out_off[0];
  long long* index_out =
      p.out_index ? reinterpret_cast<long long*>(reinterpret_cast<char*>(p.out_index) + out_off[2]) : nullptr;
#pragma unroll
  for (int j = 0; j < V; ++j) {
    Op::project(p, acc[j], o + j, out + j * p.out_elem_bytes, index_out ? index_out + j : nullptr);
  }
}

template <class Op>
__device__ void pf_reduce(const PfReduceParams& p) {
  typedef typename Op::acc_t acc_t;
  extern __shared__ __align__(16) char pf_reduce_smem[];
  acc_t* smem = reinterpret_cast<acc_t*>(pf_reduce_smem);
  const bool inner = p.layout == PF_REDUCE_INNER;
  const unsigned int tx = threadIdx.x, ty = threadIdx.y, bx = blockDim.x, by = blockDim.y;
  const long long o = inner ? static_cast<long long>(blockIdx.x) * by + ty
                            : static_cast<long long>(blockIdx.x) * bx + tx;
  const bool valid = o < p.n_out;
  const long long r_begin = static_cast<long long>(blockIdx.y) * p.red_per_block;
  long long r_end = r_begin + p.red_per_block;
  if (r_end > p.n_red) r_end = p.n_red;

  acc_t acc = Op::identity(p);
  unsigned int out_off[3] = {0, 0, 0};
  if (valid) {
    pf_offsets<3>(p.out_calc, static_cast<unsigned int>(o), out_off);
    const char* base = reinterpret_cast<const char*>(p.in) + out_off[1];
    if (inner) {
      if (p.vectorize) {
        // Row slices start vector-aligned (host); each thread owns chunks of N.
        constexpr int N = PF_VEC;
        const scalar_t* row = reinterpret_cast<const scalar_t*>(base);
        for (long long c = r_begin + static_cast<long long>(tx) * N; c < r_end;
             c += static_cast<long long>(bx) * N) {
          if (c + N <= r_end) {
            pf_vec<scalar_t, N> w = *reinterpret_cast<const pf_vec<scalar_t, N>*>(row + c);
#pragma unroll
            for (int j = 0; j < N; ++j) acc = Op::fold(p, acc, pf_cast<opmath_t>(w.v[j]), c + j, o);
          } else {
            for (long long r = c; r < r_end; ++r) acc = Op::fold(p, acc, pf_cast<opmath_t>(row[r]), r, o);
          }
        }
      } else {
        for (long long r = r_begin + tx; r < r_end; r += bx) {
          acc = pf_load_fold<Op>(p, acc, base, static_cast<unsigned int>(r), o);
        }
      }
    } else {
      for (long long r = r_begin + ty; r < r_end; r += by) {
        acc = pf_load_fold<Op>(p, acc, base, static_cast<unsigned int>(r), o);
      }
    }
  }

  // Combine within the block.
  if (inner) {
    // Lane 0 of each bx-lane slice gathers only its own slice (bx is a power of two).
    for (int offset = bx < 32 ? bx / 2 : 16; offset > 0; offset >>= 1) {
      acc = Op::combine(p, acc, pf_shfl_down_any(acc, offset));
    }
    const unsigned int warps = bx / 32, warp = tx / 32, lane = tx % 32;
    if (warps > 1) {
      if (lane == 0) smem[ty * warps + warp] = acc;
      __syncthreads();
      if (tx == 0) {
        for (unsigned int w = 1; w < warps; ++w) acc = Op::combine(p, acc, smem[ty * warps + w]);
      }
    }
  } else {
    smem[ty * bx + tx] = acc;
    __syncthreads();
    for (unsigned int s = by / 2; s > 0; s >>= 1) {
      if (ty < s) smem[ty * bx + tx] = Op::combine(p, smem[ty * bx + tx], smem[(ty + s) * bx + tx]);
      __syncthreads();
    }
    acc = smem[tx];
  }
  const bool owner = inner ? tx == 0 : ty == 0;
  typename Op::acc_t accs[1] = {acc};
  if (p.blocks_per_output > 1 && !pf_reduce_across_blocks<Op, 1>(p, owner && valid, o, accs)) return;
  if (owner && valid) pf_reduce_store<Op, 1>(p, accs, o, out_off);
}

// One thread folds the whole slice [r_begin, r_end) of outputs [o, o + V):
// no shared memory, no barrier (short reductions; PyTorch's reduce does the
// same when a thread would keep fewer than 16 values after splitting). With
// V > 1 the outputs are consecutive elements of the input (host-checked,
// vector-aligned) and each step is one V-wide load (PyTorch's output_vec_size).
template <class Op, int V>
__device__ void pf_reduce_serial(const PfReduceParams& p) {
  typedef typename Op::acc_t acc_t;
  const long long o = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) * V;
  const bool valid = o < p.n_out;
  const long long r_begin = static_cast<long long>(blockIdx.y) * p.red_per_block;
  long long r_end = r_begin + p.red_per_block;
  if (r_end > p.n_red) r_end = p.n_red;

  acc_t acc[V];
#pragma unroll
  for (int j = 0; j < V; ++j) acc[j] = Op::identity(p);
  unsigned int out_off[3] = {0, 0, 0};
  if (valid) {
    pf_offsets<3>(p.out_calc, static_cast<unsigned int>(o), out_off);
    const char* base = reinterpret_cast<const char*>(p.in) + out_off[1];
#pragma unroll 4
    for (long long r = r_begin; r < r_end; ++r) {
      unsigned int off[2];
      pf_offsets<2>(p.red_calc, static_cast<unsigned int>(r), off);
      if constexpr (V == 1) {
        acc[0] = Op::fold(p, acc[0], pf_cast<opmath_t>(pf_load<scalar_t>(base + off[1])), r, o);
      } else {
        const pf_vec<scalar_t, V> w = *reinterpret_cast<const pf_vec<scalar_t, V>*>(base + off[1]);
#pragma unroll
        for (int j = 0; j < V; ++j) acc[j] = Op::fold(p, acc[j], pf_cast<opmath_t>(w.v[j]), r, o + j);
      }
    }
  }
  if (p.blocks_per_output > 1 && !pf_reduce_across_blocks<Op, V>(p, valid, o, acc)) return;
  if (valid) pf_reduce_store<Op, V>(p, acc, o, out_off);
}

#define PF_REDUCE_KERNEL(NAME, OP)                                                         \
  extern "C" __global__ void __launch_bounds__(PF_REDUCE_MAX_THREADS)                      \
      pf_reduce_##NAME(const PfReduceParams p) {                                           \
    if (p.layout != PF_REDUCE_SERIAL) {                                                    \
      pf_reduce<OP>(p);                                                                    \
    } else if (p.out_vec == PF_REDUCE_OUT_VEC) {                                           \
      pf_reduce_serial<OP, PF_REDUCE_OUT_VEC>(p);                                          \
    } else {                                                                               \
      pf_reduce_serial<OP, 1>(p);                                                          \
    }                                                                                      \
  }
