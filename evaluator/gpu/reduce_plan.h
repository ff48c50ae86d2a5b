// Launch configuration of the reduction kernels (kernels/reduce.cuh) from a
// reduction's geometry: which dims are reduced, the thread layout (inner
// rows, outer columns split over threads, or one thread per output for short
// reductions), vectorisation, shared memory, and whether one output is split
// over several blocks. Pure (unit-tested without a GPU).
#pragma once

#include <cstdint>
#include <vector>

#include "common/result.h"
#include "evaluator/core/shape.h"
#include "evaluator/gpu/kernels/pf_abi.cuh"

namespace pf::gpu {

struct ReduceGeometry {
  Shape shape;                // input shape
  Strides strides;            // input strides (elements)
  size_t in_size = 4;         // input element size
  size_t out_size = 4;        // output element size
  std::vector<bool> reduced;  // per input dim
  uint64_t in_address = 0;    // the input's first element (vectorisation alignment)
  int64_t vec = 4;            // elements per 16-byte vector of the input dtype
  int sm_count = 132;         // the device's SMs (splitting heuristics)
};

struct ReduceConfig {
  bool inner = true;    // threads along x share one output's row
  bool serial = false;  // (not inner) one thread folds whole reductions
  bool vectorize = false;
  int out_vec = 1;  // serial: consecutive outputs per thread (1 or PF_REDUCE_OUT_VEC)
  int64_t smem_bytes = 0;
  int64_t n_out = 1, n_red = 1;
  int bx = 32, by = 1;
  int64_t grid_x = 1, grid_y = 1;
  int64_t red_per_block = 1;
  PfOffsetCalc out_calc{};  // operands: 0 output (bytes), 1 input, 2 index output (int64)
  PfOffsetCalc red_calc{};  // operand 1: input
};

Result<ReduceConfig> plan_reduce_launch(const ReduceGeometry& g);

}  // namespace pf::gpu
