#include "worker/pass_handler.h"

#include <mutex>
#include <optional>
#include <set>

#include "common/check.h"
#include "evaluator/gpu/gpu_runtime.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/passes/compile_only.h"
#include "evaluator/protocol/eval_messages.h"
#include "evaluator/protocol/full_evaluation.h"
#include "evaluator/protocol/protocol_options.h"
#include "evaluator/protocol/result_score.h"
#include "evaluator/tasks/task.h"
#include "sandbox/cuda/device_limits_json.h"
#include "sandbox/worker/run_worker.h"

namespace pf::worker {

using nlohmann::json;

namespace {

Error bad(const std::string& message) {
  return make_error(ErrorCode::invalid_argument, "evaluate: " + message);
}

// The typed request (eval_messages.h) and what its options mean here.
struct Request {
  Task task;
  std::map<std::string, std::string> files;
  std::string arch;
  bool full = false;
  passes::CompileOnlyOptions options;
  protocol::ProtocolOptions protocol;
  std::set<std::string> only;  // full: the variants to evaluate (empty: all)
  //! Compile-only: the GPU the dry runs check launches against (a CPU worker
  //! precompiling for a GPU worker); else this worker's GPU or sm_90's.
  std::optional<cuda::DeviceLimits> device_limits;
};

Status parse_options(const json& o, Request& r) {
  if (auto a = o.find("arch"); a != o.end() && !a->is_null()) {
    if (!a->is_string()) return bad("options.arch must be a string or null");
    r.arch = a->get<std::string>();
  }
  if (auto p = o.find("include_rewritten"); p != o.end() && !p->is_null()) {
    if (!p->is_boolean()) return bad("options.include_rewritten must be a boolean");
    r.options.include_rewritten = p->get<bool>();
  }
  if (auto d = o.find("device_limits"); d != o.end() && !d->is_null()) {
    auto limits = cuda::limits_from_json(*d);
    if (!limits.ok()) return bad("options." + limits.error().message);
    r.device_limits = *limits;
  }
  if (auto s = o.find("max_match_steps"); s != o.end() && !s->is_null()) {
    if (!s->is_number_unsigned() || s->get<uint64_t>() == 0) {
      return bad("options.max_match_steps must be a positive integer");
    }
    r.options.match.max_steps = s->get<size_t>();
  }
  return ok_status();
}

Result<Request> parse_request(const json& body) {
  PF_ASSIGN(protocol::EvalRequest typed, protocol::parse_eval_request(body));
  Request r;
  r.task = std::move(typed.task);
  r.files = std::move(typed.files);
  r.full = typed.mode == protocol::EvalMode::full;
  if (r.full) {
    auto parsed = protocol::options_from_json(typed.options);
    if (!parsed.ok()) return bad(parsed.error().message);
    r.protocol = std::move(*parsed);
    if (typed.variants) r.only.insert(typed.variants->begin(), typed.variants->end());
  }
  PF_TRY(parse_options(typed.options, r));
  return r;
}

// The eager baseline's runtime, created on the first full request.
class FullService {
 public:
  Result<gpu::GpuRuntime*> runtime(cuda::CudaContext& ctx, const PassServiceOptions& options) {
    std::lock_guard lock(mu_);
    if (!runtime_) {
      gpu::GpuRuntimeOptions ro;
      ro.kernel_cache_dir = options.kernel_cache_dir;
      ro.use_kernel_cache = !options.kernel_cache_dir.empty();
      PF_ASSIGN(runtime_, gpu::GpuRuntime::create(ctx.driver_ptr(), ctx.properties(), ro));
    }
    return runtime_.get();
  }

 private:
  std::mutex mu_;
  std::unique_ptr<gpu::GpuRuntime> runtime_;
};

// Never destroyed: the runtime holds cuBLAS and cuDNN handles, and those
// libraries (dlopen'ed at the first matmul / convolution, after this static
// would have been registered) tear down their own state before it at exit.
// Destroying it then crashed the worker at every clean exit (hidden by the
// pool's SIGKILL).
FullService& full_service() {
  static FullService* service = new FullService();
  return *service;
}

Result<json> handle_full(Request& req, const passes::PassWorkspace& workspace,
                         CompileService& compile, const PassServiceOptions& options) {
  cuda::CudaContext* ctx = compile.context();
  PF_CHECK(ctx != nullptr);
  PF_TRY(ctx->make_current());
  PF_ASSIGN(gpu::GpuRuntime * rt, full_service().runtime(*ctx, options));
  std::string arch = req.protocol.arch.empty() ? ctx->properties().arch() : req.protocol.arch;
  passes::KernelCompiler compile_fn = [&compile,
                                       arch](const std::map<std::string, std::string>& files) {
    return compile.compile(files, arch, false);
  };
  auto evaluated = protocol::evaluate_full(req.task, workspace, compile_fn, *rt, req.protocol,
                                           req.only, OpRegistry::builtin());
  if (!rt->driver().poisoned().empty()) sandbox::declare_poisoned(rt->driver().poisoned());
  if (!evaluated.ok()) return evaluated.error();
  return std::move(evaluated->result);
}

}  // namespace

namespace {

Result<json> evaluate_request(const json& body, CompileService& compile,
                              const PassServiceOptions& options) {
  PF_ASSIGN(Request req, parse_request(body));
  if (req.full && compile.context() == nullptr) {
    return make_error(ErrorCode::unsupported,
                      "evaluate: mode \"full\" needs a GPU and this worker has none (" +
                          compile.device_reason() + "); use \"compile_only\"");
  }
  auto workspace = passes::PassWorkspace::from_files(req.files, options.limits);
  if (!workspace.ok()) {
    // The model's files are wrong, not the request: a compile failure it can act on.
    passes::CompileOnlyResult failed;
    failed.failure = FailureClass::compile_fail;
    failed.message = workspace.error().message;
    json out = failed.to_json();
    if (req.full) {
      out["mode"] = "full";
      protocol::score_result(out, req.protocol);
    }
    return out;
  }
  if (req.full) return handle_full(req, *workspace, compile, options);
  if (req.device_limits) {
    req.options.dry_run.device = *req.device_limits;
  } else if (cuda::CudaContext* ctx = compile.context()) {
    req.options.dry_run.device = ctx->properties().limits;
  }
  std::string arch = req.arch;
  passes::KernelCompiler compile_fn = [&compile,
                                       arch](const std::map<std::string, std::string>& files) {
    return compile.compile(files, arch, false);
  };
  PF_ASSIGN(passes::CompileOnlyResult result,
            passes::evaluate_compile_only(req.task, *workspace, compile_fn, OpRegistry::builtin(),
                                          req.options));
  return result.to_json();
}

}  // namespace

Result<json> handle_evaluate(const json& body, CompileService& compile,
                             const PassServiceOptions& options) {
  PF_ASSIGN(json reply, evaluate_request(body, compile, options));
  protocol::stamp_reply(reply);
  return reply;
}

void register_pass_handler(sandbox::HandlerTable& table, std::shared_ptr<CompileService> compile,
                           PassServiceOptions options) {
  table.add(protocol::kEvaluateRequestType, [compile, options](const json& body) {
    return handle_evaluate(body, *compile, options);
  });
}

}  // namespace pf::worker
