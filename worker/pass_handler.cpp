#include "worker/pass_handler.h"

#include "evaluator/ops/op_registry.h"
#include "evaluator/passes/compile_only.h"
#include "evaluator/tasks/task.h"

namespace pf::worker {

using nlohmann::json;

namespace {

Error bad(const std::string& message) {
  return make_error(ErrorCode::invalid_argument, "evaluate: " + message);
}

struct Request {
  Task task;
  std::map<std::string, std::string> files;
  std::string arch;
  passes::CompileOnlyOptions options;
};

Result<Request> parse_request(const json& body) {
  if (!body.is_object()) return bad("the body must be an object");
  Request r;
  auto task = body.find("task");
  if (task == body.end() || !task->is_object()) {
    return bad("\"task\" must be a task object (docs/tasks.md)");
  }
  auto parsed = task_from_json(*task, "evaluate request");
  if (!parsed.ok()) return parsed.error().with_context("evaluate");
  r.task = std::move(*parsed);
  auto files = parse_files(body);
  if (!files.ok()) return bad(files.error().message);
  r.files = std::move(*files);
  std::string mode = "compile_only";
  if (auto m = body.find("mode"); m != body.end() && !m->is_null()) {
    if (!m->is_string()) return bad("\"mode\" must be a string");
    mode = m->get<std::string>();
  }
  if (mode != "compile_only") {
    return make_error(ErrorCode::unsupported, "evaluate: mode '" + mode +
                                                  "' is not available; this worker evaluates "
                                                  "\"compile_only\"");
  }
  if (auto o = body.find("options"); o != body.end() && !o->is_null()) {
    if (!o->is_object()) return bad("\"options\" must be an object");
    if (auto a = o->find("arch"); a != o->end() && !a->is_null()) {
      if (!a->is_string()) return bad("options.arch must be a string or null");
      r.arch = a->get<std::string>();
    }
    if (auto p = o->find("include_rewritten"); p != o->end() && !p->is_null()) {
      if (!p->is_boolean()) return bad("options.include_rewritten must be a boolean");
      r.options.include_rewritten = p->get<bool>();
    }
    if (auto s = o->find("max_match_steps"); s != o->end() && !s->is_null()) {
      if (!s->is_number_unsigned() || s->get<uint64_t>() == 0) {
        return bad("options.max_match_steps must be a positive integer");
      }
      r.options.match.max_steps = s->get<size_t>();
    }
  }
  return r;
}

}  // namespace

Result<json> handle_evaluate(const json& body, CompileService& compile,
                             const PassServiceOptions& options) {
  PF_ASSIGN(Request req, parse_request(body));
  auto workspace = passes::PassWorkspace::from_files(req.files, options.limits);
  if (!workspace.ok()) {
    // The model's files are wrong, not the request: a compile failure it can act on.
    passes::CompileOnlyResult failed;
    failed.failure = FailureClass::compile_fail;
    failed.message = workspace.error().message;
    return failed.to_json();
  }
  if (cuda::CudaContext* ctx = compile.context()) {
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

void register_pass_handler(sandbox::HandlerTable& table, std::shared_ptr<CompileService> compile,
                           PassServiceOptions options) {
  table.add("evaluate", [compile, options](const json& body) {
    return handle_evaluate(body, *compile, options);
  });
}

}  // namespace pf::worker
