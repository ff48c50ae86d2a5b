#include "sandbox/cuda/cuda_graph.h"

#include <utility>

namespace pf::cuda {

Result<CudaGraph> CudaGraph::capture(std::shared_ptr<const CudaDriver> driver, CUstream stream,
                                     const std::function<Status(CUstream)>& submit) {
  const CudaFunctions& api = driver->api();
  CudaGraph g;
  g.driver_ = driver;
  PF_TRY(driver->check(api.cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL),
                       "cuStreamBeginCapture"));
  Status submitted = submit(stream);
  // Capture must end whatever happened, or the stream stays in capture mode.
  CUresult ended = api.cuStreamEndCapture(stream, &g.graph_);
  if (!submitted.ok()) return submitted.error().with_context("while capturing a CUDA graph");
  PF_TRY(driver->check(ended, "cuStreamEndCapture"));
  if (g.graph_ == nullptr) {
    return make_error(ErrorCode::internal, "cuStreamEndCapture returned no graph");
  }
  PF_TRY(driver->check(api.cuGraphGetNodes(g.graph_, nullptr, &g.nodes_), "cuGraphGetNodes"));
  PF_TRY(driver->check(api.cuGraphInstantiateWithFlags(&g.exec_, g.graph_, 0),
                       "cuGraphInstantiateWithFlags"));
  return g;
}

CudaGraph::CudaGraph(CudaGraph&& other) noexcept
    : driver_(std::move(other.driver_)),
      graph_(std::exchange(other.graph_, nullptr)),
      exec_(std::exchange(other.exec_, nullptr)),
      nodes_(other.nodes_) {}

CudaGraph& CudaGraph::operator=(CudaGraph&& other) noexcept {
  if (this != &other) {
    reset();
    driver_ = std::move(other.driver_);
    graph_ = std::exchange(other.graph_, nullptr);
    exec_ = std::exchange(other.exec_, nullptr);
    nodes_ = other.nodes_;
  }
  return *this;
}

CudaGraph::~CudaGraph() {
  reset();
}

void CudaGraph::reset() {
  if (exec_ != nullptr) driver_->api().cuGraphExecDestroy(exec_);
  if (graph_ != nullptr) driver_->api().cuGraphDestroy(graph_);
  exec_ = nullptr;
  graph_ = nullptr;
}

Status CudaGraph::launch(CUstream stream) const {
  return driver_->check(driver_->api().cuGraphLaunch(exec_, stream), "cuGraphLaunch");
}

}  // namespace pf::cuda
