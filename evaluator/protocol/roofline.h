// The roofline floor of a variant (docs/design.md "Integrity": implausible
// speedups): the least time any implementation needs on a device, from the
// bytes it must read from memory (L2 is flushed before every timed trial)
// at the device's peak bandwidth, and the flops of its matmul-like ops at a
// generous peak (16-bit tensor-core rate with 2:4 sparsity, whatever the
// dtype). A candidate measured faster than a fraction of this floor did not
// do the work: flag `implausible_speedup`.
//
// Every estimate errs low, so an honest pass is never flagged: an input only
// counts where some op reads all of it (views count the elements their
// readers see; gathers, pooling, resampling, *_like and list splits count
// nothing), an output only where an op computes it (not a view, a
// pass-through or a slice that may alias an input) and only beyond what the
// L2 can hold (smaller writes need not reach memory before the kernel
// ends), and only matmul/linear/conv flops
// count. Counting the writes is what catches a kernel that, in the runs
// nobody checks, only reads its old output and returns: it moves at most the
// output's bytes, below half of inputs + outputs for any elementwise pattern.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>

#include "evaluator/core/ir.h"
#include "evaluator/ops/op_registry.h"

namespace pf::protocol {

struct DevicePeaks {
  double memory_bytes_per_s = 0;  // 0: unknown (no memory floor)
  double flops_per_s = 0;         // 0: unknown (no compute floor)
  //! Writes up to this many bytes may stay in the write-back L2 within the
  //! timed region: only output bytes beyond it count towards the floor.
  int64_t l2_bytes = 0;
};

//! Peaks of a device from its SM count, SM clock and memory interface.
DevicePeaks device_peaks(int sm_count, int clock_khz, double peak_memory_bandwidth);

struct RooflineFloor {
  int64_t bytes = 0;        // input bytes some op must read
  int64_t write_bytes = 0;  // output bytes an op must write to memory (beyond the L2)
  double flops = 0;
  double memory_floor_ms = 0;
  double compute_floor_ms = 0;
  double floor_ms() const {
    return memory_floor_ms > compute_floor_ms ? memory_floor_ms : compute_floor_ms;
  }
  nlohmann::json to_json() const;
};

//! `graph` is the variant's original typed graph (the semantics, not the
//! rewrite).
RooflineFloor roofline_floor(const Graph& graph, const OpRegistry& registry,
                             const DevicePeaks& peaks);

//! The implausible-speedup rule: a measured device time below `fraction` of
//! a known (non-zero) floor.
inline bool implausibly_fast(double device_ms, const RooflineFloor& floor, double fraction) {
  return floor.floor_ms() > 0 && device_ms < fraction * floor.floor_ms();
}

}  // namespace pf::protocol
