// pf-dtypes: float16 bfloat16 float32 float64
// pf-requires: reduce.cuh
// Floating reductions (ops_reduction.cpp): var / std (Welford, as PyTorch's
// WelfordOps; factor = correction, flags bit 0: std), vector norms (flags =
// order kind: 0 p=2, 1 p=1, 2 inf, 3 -inf, 4 p=0, 5 any other p), and the
// second pass of logsumexp (aux = per-output max from an amax pass).

typedef typename pf_opmath<scalar_t>::type facc_t;

struct op_welford {
  struct acc_t {
    facc_t mean;
    facc_t m2;
    facc_t n;
  };
  static __device__ acc_t identity(const PfReduceParams&) { return acc_t{0, 0, 0}; }
  static __device__ acc_t fold(const PfReduceParams&, acc_t a, opmath_t x, long long, long long) {
    a.n += facc_t(1);
    const facc_t delta = x - a.mean;
    a.mean += delta / a.n;
    a.m2 += delta * (x - a.mean);
    return a;
  }
  static __device__ acc_t combine(const PfReduceParams&, acc_t a, acc_t b) {
    if (a.n == facc_t(0)) return b;
    if (b.n == facc_t(0)) return a;
    const facc_t n = a.n + b.n;
    const facc_t delta = b.mean - a.mean;
    const facc_t nb_over_n = b.n / n;
    return acc_t{a.mean + delta * nb_over_n, a.m2 + b.m2 + delta * delta * a.n * nb_over_n, n};
  }
  static __device__ void project(const PfReduceParams& p, acc_t a, long long, char* out, long long*) {
    const facc_t divisor = a.n > facc_t(p.factor) ? a.n - facc_t(p.factor) : facc_t(0);
    facc_t var = a.m2 / divisor;
    pf_store_dyn(out, p.out_dtype, (p.flags & 1) ? pf_sqrt(var) : var);
  }
};

struct op_norm {
  struct acc_t {
    facc_t v;
  };
  static __device__ acc_t identity(const PfReduceParams& p) {
    return acc_t{p.flags == 3 ? pf_infinity<facc_t>() : facc_t(0)};
  }
  static __device__ acc_t combine(const PfReduceParams& p, acc_t a, acc_t b) {
    switch (p.flags) {
      case 2: return acc_t{(pf_isnan(a.v) || a.v > b.v) ? a.v : b.v};
      case 3: return acc_t{(pf_isnan(a.v) || a.v < b.v) ? a.v : b.v};
      default: return acc_t{a.v + b.v};
    }
  }
  static __device__ acc_t fold(const PfReduceParams& p, acc_t a, opmath_t x, long long, long long) {
    const facc_t ax = pf_fabs(static_cast<facc_t>(x));
    switch (p.flags) {
      case 0: return acc_t{a.v + ax * ax};
      case 1: return acc_t{a.v + ax};
      case 4: return acc_t{a.v + (ax != facc_t(0) ? facc_t(1) : facc_t(0))};
      case 5: return acc_t{a.v + pf_pow(ax, static_cast<facc_t>(p.p))};
      default: return combine(p, a, acc_t{ax});
    }
  }
  static __device__ void project(const PfReduceParams& p, acc_t a, long long, char* out, long long*) {
    facc_t v = a.v;
    if (p.flags == 0) v = pf_sqrt(v);
    if (p.flags == 5) v = pf_pow(v, facc_t(1) / static_cast<facc_t>(p.p));
    pf_store_dyn(out, p.out_dtype, v);
  }
};

__device__ __forceinline__ facc_t pf_lse_max(const PfReduceParams& p, long long o) {
  const char* aux = reinterpret_cast<const char*>(p.aux) + o * (p.aux_dtype == PF_TAG_FLOAT64 ? 8 : 4);
  facc_t m = pf_load_dyn<facc_t>(aux, p.aux_dtype);
  return (m == pf_infinity<facc_t>() || m == -pf_infinity<facc_t>()) ? facc_t(0) : m;
}

struct op_logsumexp {
  struct acc_t {
    facc_t v;
  };
  static __device__ acc_t identity(const PfReduceParams&) { return acc_t{0}; }
  static __device__ acc_t fold(const PfReduceParams& p, acc_t a, opmath_t x, long long, long long o) {
    return acc_t{a.v + pf_exp(static_cast<facc_t>(x) - pf_lse_max(p, o))};
  }
  static __device__ acc_t combine(const PfReduceParams&, acc_t a, acc_t b) { return acc_t{a.v + b.v}; }
  static __device__ void project(const PfReduceParams& p, acc_t a, long long o, char* out, long long*) {
    pf_store_dyn(out, p.out_dtype, pf_log(a.v) + pf_lse_max(p, o));
  }
};

PF_REDUCE_KERNEL(welford, op_welford)
PF_REDUCE_KERNEL(norm, op_norm)
PF_REDUCE_KERNEL(logsumexp, op_logsumexp)
