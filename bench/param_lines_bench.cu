// What a kernel's parameter layout costs when its parameters are cold, as in
// every timed trial (the L2 is flushed before each graph replay, by the
// timing harness and by bench/fidelity.py). A graph kernel node's parameters
// are written once, when the graph is uploaded, so after a flush the first
// read of each constant-cache line of them goes to memory. Our elementwise
// kernels read fields spread over about 130 bytes of a 404-byte struct;
// PyTorch's read a few tens of bytes.
//
// Kernels here read two 8-byte fields of a 512-byte parameter struct at a
// distance of D bytes (D = 8 .. 256) and one kernel reads K fields 64 bytes
// apart (K = 1 .. 6); each is one 128-thread block over 128 floats, replayed
// as a one-node graph (and as a three-node chain) after a flush of 1.25x the
// L2. Prints the median device time per configuration (events around the
// replay) as JSON lines. A jump between two distances is the line size; the
// K series is the cost of each further cold line.
//
// Then the same for code: kernels that execute K unrolled multiply-adds
// (K = 8 .. 2048, about 16 bytes of code each) once, with and without the
// flush before each replay. The flushed-minus-warm difference of a long
// kernel against a short one is what fetching its code from memory costs.
//
// Then pages: a chain of three elementwise kernels (in -> t1 -> t2 -> out,
// 121 floats, as truediv-log-truediv) whose four buffers lie 512 bytes apart
// in one allocation, 2 MiB apart (a page each) or 64 MiB apart, flushed and
// warm. A difference between the layouts after a flush is what translation
// misses cost (the flush evicts the page-table lines from the L2 too); our
// caching allocator gives every block its own guarded cuMemAlloc, PyTorch
// packs small blocks into 2 MiB segments.
//
// Build: nvcc -O3 -std=c++17 -arch=sm_90 bench/param_lines_bench.cu -o pf_param_lines_bench
// Usage: pf_param_lines_bench [--reps 400]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "cuda_check.cuh"

struct Params {
  unsigned long long word[64];  // 512 bytes; word 0 holds the data pointer
};

// out[i] = in[i] * (fields read): reads word 0 (the pointer) and word W.
template <int W>
__global__ void __launch_bounds__(128) two_fields(const Params p) {
  float* data = reinterpret_cast<float*>(p.word[0]);
  const float scale = static_cast<float>(p.word[W]);
  data[threadIdx.x] *= scale;
}

// Reads K words, 64 bytes apart (word 0, 8, 16, ...).
template <int K>
__global__ void __launch_bounds__(128) k_lines(const Params p) {
  float* data = reinterpret_cast<float*>(p.word[0]);
  float scale = 1.0f;
#pragma unroll
  for (int k = 1; k < K; ++k) scale *= static_cast<float>(p.word[8 * k]);
  data[threadIdx.x] *= scale;
}

// K dependent multiply-adds, unrolled: K instructions run once per thread.
template <int K>
__global__ void __launch_bounds__(128) code_size(const Params p) {
  float* data = reinterpret_cast<float*>(p.word[0]);
  float acc = data[threadIdx.x];
  const float a = static_cast<float>(p.word[1]) * 0.5f;
#pragma unroll
  for (int k = 0; k < K; ++k) acc = acc * a + static_cast<float>(k);
  data[threadIdx.x] = acc;
}

// One step of the chain: out[i] = in[i] * 0.5 + 1 (a 128-thread block).
__global__ void __launch_bounds__(128) chain_step(const float* in, float* out, int n) {
  const int i = threadIdx.x;
  if (i < n) out[i] = in[i] * 0.5f + 1.0f;
}

struct Bench {
  cudaStream_t stream{};
  void* flush_buffer = nullptr;
  size_t flush_bytes = 0;
  float* data = nullptr;
  cudaEvent_t start{}, end{};
  int reps = 400;

  // Median device time (us) of replaying `graph` (destroyed after), each
  // replay after a flush or with the caches as the last replay left them.
  double replay(cudaGraph_t graph, bool flush) {
    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    std::vector<float> us;
    for (int r = 0; r < reps + 5; ++r) {
      if (flush) CHECK(cudaMemsetAsync(flush_buffer, r & 0xff, flush_bytes, stream));
      CHECK(cudaEventRecord(start, stream));
      CHECK(cudaGraphLaunch(exec, stream));
      CHECK(cudaEventRecord(end, stream));
      CHECK(cudaEventSynchronize(end));
      float ms = 0;
      CHECK(cudaEventElapsedTime(&ms, start, end));
      if (r >= 5) us.push_back(ms * 1000.0f);
    }
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
    std::sort(us.begin(), us.end());
    return us[us.size() / 2];
  }

  // Median device time (us) of replaying a graph of `nodes` launches of
  // `kernel`, each after a flush (or with the caches as the last replay
  // left them).
  double time(const void* kernel, int nodes, bool flush = true) {
    Params p{};
    p.word[0] = reinterpret_cast<unsigned long long>(data);
    for (int i = 1; i < 64; ++i) p.word[i] = 1;
    void* args[] = {&p};
    cudaGraph_t graph;
    CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    for (int i = 0; i < nodes; ++i) {
      CHECK(cudaLaunchKernel(kernel, dim3(1), dim3(128), args, 0, stream));
    }
    CHECK(cudaStreamEndCapture(stream, &graph));
    return replay(graph, flush);
  }

  // The same for a chain of three chain_step launches over buffers
  // buf[0] -> buf[1] -> buf[2] -> buf[3], replayed after a flush or warm.
  double chain(char* const* buf, bool flush) {
    cudaGraph_t graph;
    const int n = 121;
    CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    for (int k = 0; k < 3; ++k) {
      const float* in = reinterpret_cast<const float*>(buf[k]);
      float* out = reinterpret_cast<float*>(buf[k + 1]);
      chain_step<<<1, 128, 0, stream>>>(in, out, n);
    }
    CHECK(cudaStreamEndCapture(stream, &graph));
    return replay(graph, flush);
  }
};

void pages(Bench& b) {
  char* region = nullptr;
  const size_t mib = size_t{1} << 20;
  CHECK(cudaMalloc(&region, 4 * 64 * mib));
  CHECK(cudaMemset(region, 0, 4 * 64 * mib));
  for (size_t stride : {size_t{512}, 2 * mib + 512, 64 * mib}) {
    char* buf[4];
    for (int k = 0; k < 4; ++k) buf[k] = region + k * stride;
    std::printf("{\"series\": \"pages\", \"stride_bytes\": %zu, \"flushed_us\": %.3f, "
                "\"warm_us\": %.3f}\n",
                stride, b.chain(buf, true), b.chain(buf, false));
  }
  // Separate small allocations, as our allocator makes them (a block and two
  // 4 KiB guards each): where the driver puts them, and their chain.
  char* sep[4];
  for (auto& p : sep) {
    CHECK(cudaMalloc(&p, 512 + 8192));
    CHECK(cudaMemset(p, 0, 512 + 8192));
  }
  char* buf[4];
  for (int k = 0; k < 4; ++k) buf[k] = sep[k] + 4096;
  std::printf("{\"series\": \"pages\", \"separate_allocations\": [%lld, %lld, %lld], "
              "\"flushed_us\": %.3f, \"warm_us\": %.3f}\n",
              static_cast<long long>(sep[1] - sep[0]), static_cast<long long>(sep[2] - sep[1]),
              static_cast<long long>(sep[3] - sep[2]), b.chain(buf, true), b.chain(buf, false));
  for (auto* p : sep) CHECK(cudaFree(p));
  CHECK(cudaFree(region));
}

template <int W>
void distance(Bench& b) {
  for (int nodes : {1, 3}) {
    std::printf("{\"series\": \"distance\", \"bytes\": %d, \"nodes\": %d, \"median_us\": %.3f}\n",
                W * 8, nodes, b.time(reinterpret_cast<const void*>(&two_fields<W>), nodes));
  }
}

template <int K>
void lines(Bench& b) {
  for (int nodes : {1, 3}) {
    std::printf("{\"series\": \"lines\", \"lines\": %d, \"nodes\": %d, \"median_us\": %.3f}\n", K,
                nodes, b.time(reinterpret_cast<const void*>(&k_lines<K>), nodes));
  }
}

template <int K>
void code(Bench& b) {
  const void* k = reinterpret_cast<const void*>(&code_size<K>);
  std::printf("{\"series\": \"code\", \"fmas\": %d, \"flushed_us\": %.3f, \"warm_us\": %.3f}\n",
              K, b.time(k, 1, true), b.time(k, 1, false));
}

int main(int argc, char** argv) {
  Bench b;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "--reps") == 0) b.reps = std::max(10, std::atoi(argv[i + 1]));
  }
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  b.flush_bytes = static_cast<size_t>(prop.l2CacheSize) * 5 / 4;
  CHECK(cudaStreamCreate(&b.stream));
  CHECK(cudaMalloc(&b.flush_buffer, b.flush_bytes));
  CHECK(cudaMalloc(&b.data, 128 * sizeof(float)));
  CHECK(cudaMemset(b.data, 0, 128 * sizeof(float)));
  CHECK(cudaEventCreate(&b.start));
  CHECK(cudaEventCreate(&b.end));
  std::printf("{\"gpu\": \"%s\", \"l2_bytes\": %d, \"flush_bytes\": %zu, \"reps\": %d}\n",
              prop.name, prop.l2CacheSize, b.flush_bytes, b.reps);
  distance<1>(b);
  distance<4>(b);
  distance<8>(b);
  distance<16>(b);
  distance<32>(b);
  lines<1>(b);
  lines<2>(b);
  lines<3>(b);
  lines<4>(b);
  lines<6>(b);
  code<8>(b);
  code<128>(b);
  code<512>(b);
  code<2048>(b);
  pages(b);
  return 0;
}
