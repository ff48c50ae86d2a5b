// A stream's work recorded once (stream capture) and replayed as one CUDA
// graph launch. Timing replays graphs so that a side's device time is its
// kernels' time, not the host's launch gaps between them: PyTorch's eager
// kernels are measured the same way (captured and replayed), and a
// candidate is captured like the baseline, so neither side pays host
// overhead the other does not.
#pragma once

#include <cuda.h>

#include <functional>
#include <memory>

#include "common/result.h"
#include "sandbox/cuda/cuda_driver.h"

namespace pf::cuda {

class CudaGraph {
 public:
  //! Captures what `submit` enqueues on `stream` (thread-local capture mode:
  //! other threads are unaffected) and instantiates it. Work that cannot be
  //! captured (a synchronisation, a host copy, an allocation a library makes
  //! on the way) fails the capture with the driver's reason; the stream is
  //! usable again afterwards.
  static Result<CudaGraph> capture(std::shared_ptr<const CudaDriver> driver, CUstream stream,
                                   const std::function<Status(CUstream)>& submit);
  CudaGraph(CudaGraph&& other) noexcept;
  CudaGraph& operator=(CudaGraph&& other) noexcept;
  CudaGraph(const CudaGraph&) = delete;
  CudaGraph& operator=(const CudaGraph&) = delete;
  ~CudaGraph();

  //! Enqueues one replay on `stream` (asynchronous).
  Status launch(CUstream stream) const;
  //! Nodes in the captured graph (kernels, memsets, library kernels).
  size_t nodes() const { return nodes_; }

 private:
  CudaGraph() = default;
  void reset();
  std::shared_ptr<const CudaDriver> driver_;
  CUgraph graph_ = nullptr;
  CUgraphExec exec_ = nullptr;
  size_t nodes_ = 0;
};

}  // namespace pf::cuda
