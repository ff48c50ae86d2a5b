// Where a chain of tiny elementwise kernels loses time against PyTorch's
// (truediv-log-truediv: 121 floats, three kernels, 9.6 us ours against 7.2
// for PyTorch's in one fidelity run; param_lines_bench ruled out the
// parameter struct and straight-line code, and put page layout at <= 0.5 us).
//
// The chain x -> x / 8 -> log -> / 2.7726 runs as a three-node CUDA graph,
// replayed after an L2 flush of 1.25x the L2 (as every timed trial) and
// warm, with the kernels of several "kernel sets": cubin or fatbin files
// that export pf_div_vec and pf_log_vec with the baseline's parameter ABI
// (PfElementwiseParams), launched as the plan builder launches the
// vectorised kernels (a 16-byte vector per thread, 128 threads a block; the
// default 121 elements are one block). Comparing the baseline's own
// kernels with minimal kernels of the same ABI, in the same harness, puts
// the gap in the kernels' code or outside it. Each set runs on buffers in
// separate allocations (as our caching allocator gives them) and packed
// 512 bytes apart in one (as PyTorch's does). Sets and layouts alternate
// within each repetition, so clock drift hits all alike. JSON lines.
//
// Build (on the GPU machine): nvcc -O3 -std=c++17 -arch=sm_90
//   bench/tiny_chain_bench.cu -o pf_tiny_chain_bench -lcuda
// Kernel sets: nvcc -cubin -arch=sm_90 -std=c++17 FILE.cu -o FILE.cubin, for
//   the baseline's generated programs (build/evaluator/gpu/prebuilt_kernels/
//   src/ew_arith.float32.cu and ew_math.float32.cu) and for
//   bench/tiny_chain_kernels.cu.
// A set named "strided:NAME" launches the same files' pf_div_strided and
// pf_log_strided instead, as the plan builder launches a strided kernel on
// contiguous operands (one coalesced dim, PF_EW_STRIDED_WORK elements per
// thread): whether tiny tensors are better served by that path.
// Usage: pf_tiny_chain_bench [--reps 400] [--n 121] [--dtype float32|float16]
//          [strided:]NAME=ARITH_FILE,MATH_FILE ...   (the files of that dtype's programs)
#include <cuda.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "../evaluator/gpu/kernels/pf_abi.cuh"
#include "cuda_check.cuh"

namespace {

long long g_n = 121;
bool g_half = false;  // float16 elements (else float32)

size_t element_size() { return g_half ? 2 : 4; }

struct KernelSet {
  std::string name;
  bool strided = false;
  CUfunction div = nullptr;
  CUfunction log = nullptr;
};

// The offset calculator of one contiguous dim of g_n elements (operand 0 the
// output, 1 the tensor input, 2 the literal at stride 0), as make_offset_calc
// builds it: PyTorch's IntDivider magic for the divisor.
PfOffsetCalc contiguous_calc() {
  PfOffsetCalc oc{};
  oc.dims = 1;
  const auto divisor = static_cast<unsigned>(g_n);
  unsigned shift = 0;
  while (shift < 32 && (1ull << shift) < divisor) ++shift;
  const unsigned long long magic = ((1ull << 32) * ((1ull << shift) - divisor)) / divisor + 1;
  oc.sizes[0] = PfDivider{divisor, static_cast<unsigned>(magic), shift};
  oc.strides[0][0] = oc.strides[0][1] = static_cast<unsigned>(element_size());
  return oc;
}

CUmodule load_module(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", path.c_str());
    std::exit(2);
  }
  std::vector<char> image((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CUmodule m = nullptr;
  CHECK_CU(cuModuleLoadData(&m, image.data()));
  return m;
}

// Four buffers of g_n elements: x, t1, t2, y.
struct Buffers {
  char* p[4] = {};
};

PfElementwiseParams params(const char* in, char* out, bool literal, double lit) {
  PfElementwiseParams p{};
  p.out = reinterpret_cast<unsigned long long>(out);
  p.in[0] = reinterpret_cast<unsigned long long>(in);
  p.in_dtype[0] = g_half ? PF_TAG_FLOAT16 : PF_TAG_FLOAT32;
  p.n = g_n;
  if (literal) {
    p.in_kind[1] = PF_OPERAND_LITERAL;
    p.lit[1] = lit;
  }
  p.oc = contiguous_calc();
  return p;
}

void launch(CUfunction f, bool strided, PfElementwiseParams p, cudaStream_t s) {
  void* args[] = {&p};
  // The plan builder's launches: a 16-byte vector per thread for the
  // vectorised kernels, PF_EW_STRIDED_WORK elements for the strided ones,
  // blocks of PF_EW_THREADS.
  const long long per_block =
      PF_EW_THREADS * (strided ? PF_EW_STRIDED_WORK : static_cast<long long>(16 / element_size()));
  const auto blocks = static_cast<unsigned>((g_n + per_block - 1) / per_block);
  CHECK_CU(cuLaunchKernel(f, blocks, 1, 1, PF_EW_THREADS, 1, 1, 0, s, args, nullptr));
}

cudaGraphExec_t capture_chain(const KernelSet& k, const Buffers& b, cudaStream_t s) {
  cudaGraph_t graph;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  launch(k.div, k.strided, params(b.p[0], b.p[1], true, 8.0), s);
  launch(k.log, k.strided, params(b.p[1], b.p[2], false, 0), s);
  launch(k.div, k.strided, params(b.p[2], b.p[3], true, 2.772588722239781), s);
  CHECK(cudaStreamEndCapture(s, &graph));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaGraphUpload(exec, s));
  return exec;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

double quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[static_cast<size_t>(q * static_cast<double>(v.size() - 1))];
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 400;
  std::vector<KernelSet> sets;
  std::vector<std::pair<std::string, std::string>> files;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--reps" && i + 1 < argc) {
      reps = std::atoi(argv[++i]);
      continue;
    }
    if (a == "--n" && i + 1 < argc) {
      g_n = std::atoll(argv[++i]);
      continue;
    }
    if (a == "--dtype" && i + 1 < argc) {
      g_half = std::string(argv[++i]) == "float16";
      continue;
    }
    const size_t eq = a.find('='), comma = a.find(',');
    if (eq == std::string::npos || comma == std::string::npos || comma < eq) {
      std::fprintf(stderr, "usage: %s [--reps N] [strided:]NAME=ARITH_FILE,MATH_FILE ...\n", argv[0]);
      return 2;
    }
    KernelSet k;
    k.name = a.substr(0, eq);
    k.strided = k.name.rfind("strided:", 0) == 0;
    files.emplace_back(a.substr(eq + 1, comma - eq - 1), a.substr(comma + 1));
    sets.push_back(k);
  }
  if (sets.empty()) {
    std::fprintf(stderr, "usage: %s [--reps N] [strided:]NAME=ARITH_FILE,MATH_FILE ...\n", argv[0]);
    return 2;
  }
  CHECK(cudaSetDevice(0));
  CHECK(cudaFree(nullptr));  // the runtime's primary context, current for the driver calls
  for (size_t i = 0; i < sets.size(); ++i) {
    const char* suffix = sets[i].strided ? "_strided" : "_vec";
    CHECK_CU(cuModuleGetFunction(&sets[i].div, load_module(files[i].first),
                                 (std::string("pf_div") + suffix).c_str()));
    CHECK_CU(cuModuleGetFunction(&sets[i].log, load_module(files[i].second),
                                 (std::string("pf_log") + suffix).c_str()));
  }
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  int l2 = 0;
  CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
  const size_t flush_bytes = static_cast<size_t>(l2) * 5 / 4;
  void* flush = nullptr;
  CHECK(cudaMalloc(&flush, flush_bytes));

  // Layout 0: each buffer its own allocation of at least 2 MiB; layout 1: one
  // allocation, buffers 512-byte aligned and adjacent (PyTorch's packing).
  const size_t bytes = static_cast<size_t>(g_n) * element_size();
  const size_t stride = (bytes + 511) / 512 * 512;
  Buffers layouts[2];
  for (auto& p : layouts[0].p) CHECK(cudaMalloc(&p, std::max<size_t>(bytes, 2u << 20)));
  char* packed = nullptr;
  CHECK(cudaMalloc(&packed, 4 * stride));
  for (int i = 0; i < 4; ++i) layouts[1].p[i] = packed + stride * i;
  std::vector<char> host(bytes);
  for (long long i = 0; i < g_n; ++i) {
    const float v = 0.5f + static_cast<float>((i * 37) % 101) / 13.0f;
    if (g_half) {
      const __half h = __float2half(v);
      std::memcpy(host.data() + 2 * i, &h, 2);
    } else {
      std::memcpy(host.data() + 4 * i, &v, 4);
    }
  }
  for (auto& b : layouts) CHECK(cudaMemcpy(b.p[0], host.data(), bytes, cudaMemcpyHostToDevice));

  struct Config {
    size_t set;
    int layout;
    cudaGraphExec_t exec;
    std::vector<double> flushed, warm;
  };
  std::vector<Config> configs;
  for (size_t k = 0; k < sets.size(); ++k) {
    for (int l = 0; l < 2; ++l) configs.push_back({k, l, capture_chain(sets[k], layouts[l], s), {}, {}});
  }
  // Every set's result against the first's: the same arithmetic, so the
  // comparison is honest (bit-identical is not required of other kernels).
  std::vector<char> first(bytes), other(bytes);
  auto value = [](const std::vector<char>& v, long long i) {
    if (!g_half) {
      float f;
      std::memcpy(&f, v.data() + 4 * i, 4);
      return f;
    }
    __half h;
    std::memcpy(&h, v.data() + 2 * i, 2);
    return __half2float(h);
  };
  cudaEvent_t start, end;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&end));
  // A warm trial follows an untimed replay of the same graph.
  auto trial = [&](Config& c, bool flushed) {
    if (flushed) CHECK(cudaMemsetAsync(flush, 0, flush_bytes, s));
    if (!flushed) CHECK(cudaGraphLaunch(c.exec, s));
    CHECK(cudaEventRecord(start, s));
    CHECK(cudaGraphLaunch(c.exec, s));
    CHECK(cudaEventRecord(end, s));
    CHECK(cudaEventSynchronize(end));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, end));
    (flushed ? c.flushed : c.warm).push_back(ms * 1e3);
  };
  for (int w = 0; w < 20; ++w) {
    for (auto& c : configs) trial(c, true);
  }
  for (auto& c : configs) {
    c.flushed.clear();
    c.warm.clear();
  }
  for (int r = 0; r < reps; ++r) {
    for (auto& c : configs) trial(c, true);
    for (auto& c : configs) trial(c, false);
  }
  for (auto& c : configs) {
    CHECK(cudaMemcpy(other.data(), layouts[c.layout].p[3], bytes, cudaMemcpyDeviceToHost));
    if (&c == &configs.front()) first = other;
    double worst = 0;
    for (long long i = 0; i < g_n; ++i) {
      worst = std::max(worst, static_cast<double>(std::fabs(value(other, i) - value(first, i))));
    }
    std::printf(
        "{\"set\": \"%s\", \"n\": %lld, \"dtype\": \"%s\", \"layout\": \"%s\", \"flushed_us\": %.3f, \"flushed_p10\": %.3f, "
        "\"flushed_p90\": %.3f, \"warm_us\": %.3f, \"max_abs_diff_vs_first\": %.3g}\n",
        sets[c.set].name.c_str(), g_n, g_half ? "float16" : "float32", c.layout == 0 ? "separate" : "packed", median(c.flushed),
        quantile(c.flushed, 0.1), quantile(c.flushed, 0.9), median(c.warm), worst);
  }
  return 0;
}
