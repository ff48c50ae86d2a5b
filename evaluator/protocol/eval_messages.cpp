#include "evaluator/protocol/eval_messages.h"

#include <set>

namespace pf::protocol {
namespace {

using nlohmann::json;

Error bad_request(const std::string& message) {
  return make_error(ErrorCode::invalid_argument, "evaluate: " + message);
}

Error bad_reply(const std::string& message) {
  return make_error(ErrorCode::invalid_argument, "evaluate reply: " + message);
}

Status check_version(const json& body, const char* what) {
  auto v = body.find(field::kProtocolVersion);
  if (v == body.end() || !v->is_number_integer()) {
    return make_error(ErrorCode::invalid_argument,
                      std::string(what) + ": no \"protocol_version\" (this side speaks version " +
                          std::to_string(kEvalProtocolVersion) + ")");
  }
  if (v->get<int64_t>() != kEvalProtocolVersion) {
    return make_error(ErrorCode::invalid_argument,
                      std::string(what) + ": protocol version " +
                          std::to_string(v->get<int64_t>()) + ", this side speaks " +
                          std::to_string(kEvalProtocolVersion) +
                          " (passforge and passforge-worker come from different builds)");
  }
  return ok_status();
}

Result<std::optional<double>> number(const json& obj, const char* key, const std::string& where) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return std::optional<double>{};
  if (!it->is_number()) return bad_reply(where + key + " must be a number or null");
  return std::optional<double>(it->get<double>());
}

Result<bool> flag(const json& obj, const char* key, bool fallback, const std::string& where) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return fallback;
  if (!it->is_boolean()) return bad_reply(where + key + " must be a boolean");
  return it->get<bool>();
}

Result<std::optional<FailureClass>> failure(const json& obj, const std::string& where) {
  auto it = obj.find(field::kFailureClass);
  if (it == obj.end() || it->is_null()) return std::optional<FailureClass>{};
  if (!it->is_string()) return bad_reply(where + "failure_class must be a string or null");
  auto c = parse_failure_class(it->get<std::string>());
  if (!c) return bad_reply(where + "unknown failure_class '" + it->get<std::string>() + "'");
  return std::optional<FailureClass>(*c);
}

// Every duration a variant's timing section reports (both sides).
Status collect_timing(const json& timing, std::vector<double>& out, const std::string& where) {
  if (timing.is_null()) return ok_status();
  if (!timing.is_object()) return bad_reply(where + "timing must be an object");
  for (const char* side : {"candidate", "eager"}) {
    auto s = timing.find(side);
    if (s == timing.end()) continue;
    if (!s->is_object()) return bad_reply(where + "timing." + side + " must be an object");
    for (const char* key : {"device_median_ms", "device_iqr_ms", "e2e_median_ms", "e2e_iqr_ms"}) {
      PF_ASSIGN(auto ms, number(*s, key, where + "timing." + side + "."));
      if (ms) out.push_back(*ms);
    }
  }
  return ok_status();
}

Result<VariantReport> parse_variant(const json& v, size_t index) {
  const std::string where = "variants[" + std::to_string(index) + "].";
  if (!v.is_object()) return bad_reply(where + " must be an object");
  VariantReport r;
  auto name = v.find("name");
  if (name == v.end() || !name->is_string()) return bad_reply(where + "name must be a string");
  r.name = name->get<std::string>();
  PF_ASSIGN(r.hidden, flag(v, "hidden", false, where));
  PF_ASSIGN(r.evaluated, flag(v, "evaluated", true, where));
  PF_ASSIGN(r.correct, flag(v, "correct", false, where));
  PF_ASSIGN(r.unstable, flag(v, "unstable", false, where));
  r.skipped = v.contains("skipped") && !v["skipped"].is_null();
  PF_ASSIGN(r.failure, failure(v, where));
  PF_ASSIGN(r.speedup, number(v, "speedup", where));
  PF_ASSIGN(r.max_abs_diff, number(v, "max_abs_diff", where));
  PF_ASSIGN(r.max_rel_diff, number(v, "max_rel_diff", where));
  if (auto l = v.find("first_passing_level"); l != v.end() && !l->is_null()) {
    if (!l->is_number_integer()) {
      return bad_reply(where + "first_passing_level must be an integer or null");
    }
    r.first_passing_level = l->get<int>();
  }
  if (auto t = v.find("timing"); t != v.end()) PF_TRY(collect_timing(*t, r.timing_ms, where));
  if (auto f = v.find("flags"); f != v.end() && !f->is_null()) {
    if (!f->is_array()) return bad_reply(where + "flags must be an array");
    for (const auto& flag : *f) {
      if (!flag.is_object() || !flag.contains("flag") || !flag["flag"].is_string()) {
        return bad_reply(where + "flags[] must be objects with a \"flag\" name");
      }
      r.flags.push_back(flag["flag"].get<std::string>());
    }
  }
  return r;
}

}  // namespace

const char* eval_mode_name(EvalMode mode) {
  return mode == EvalMode::full ? "full" : "compile_only";
}

std::optional<EvalMode> parse_eval_mode(std::string_view name) {
  if (name == "full") return EvalMode::full;
  if (name == "compile_only") return EvalMode::compile_only;
  return std::nullopt;
}

json to_json(const EvalRequest& request) {
  json body = {{field::kProtocolVersion, kEvalProtocolVersion},
               {"task", task_to_json(request.task)},
               {"files", request.files},
               {field::kMode, eval_mode_name(request.mode)},
               {"options", request.options.is_object() ? request.options : json::object()}};
  body["variants"] = request.variants ? json(*request.variants) : json(nullptr);
  return body;
}

Result<EvalRequest> parse_eval_request(const json& body) {
  if (!body.is_object()) return bad_request("the body must be an object");
  PF_TRY(check_version(body, "evaluate"));
  EvalRequest r;
  auto task = body.find("task");
  if (task == body.end() || !task->is_object()) {
    return bad_request("\"task\" must be a task object (docs/tasks.md)");
  }
  auto parsed = task_from_json(*task, "evaluate request");
  if (!parsed.ok()) return parsed.error().with_context("evaluate");
  r.task = std::move(*parsed);
  auto files = body.find("files");
  if (files == body.end() || !files->is_object()) {
    return bad_request("\"files\" must be an object of path -> text");
  }
  for (const auto& [path, text] : files->items()) {
    if (!text.is_string()) return bad_request("\"files\"['" + path + "'] must be a string");
    r.files[path] = text.get<std::string>();
  }
  if (auto m = body.find(field::kMode); m != body.end() && !m->is_null()) {
    if (!m->is_string()) return bad_request("\"mode\" must be a string");
    auto mode = parse_eval_mode(m->get<std::string>());
    if (!mode) {
      return bad_request("\"mode\" must be \"compile_only\" or \"full\", not '" +
                         m->get<std::string>() + "'");
    }
    r.mode = *mode;
  }
  if (auto o = body.find("options"); o != body.end() && !o->is_null()) {
    if (!o->is_object()) return bad_request("\"options\" must be an object");
    r.options = *o;
  }
  if (auto v = body.find("variants"); v != body.end() && !v->is_null()) {
    if (r.mode != EvalMode::full) return bad_request("\"variants\" is for full mode only");
    if (!v->is_array()) return bad_request("\"variants\" must be an array of variant names");
    std::vector<std::string> names;
    for (const auto& name : *v) {
      if (!name.is_string()) return bad_request("\"variants\" must be an array of variant names");
      bool known = false;
      for (const auto& tv : r.task.variants) known = known || tv.name == name.get<std::string>();
      if (!known) return bad_request("the task has no variant '" + name.get<std::string>() + "'");
      names.push_back(name.get<std::string>());
    }
    if (names.empty()) return bad_request("\"variants\" names no variant");
    r.variants = std::move(names);
  }
  return r;
}

void stamp_reply(json& body) {
  if (body.is_object()) body[field::kProtocolVersion] = kEvalProtocolVersion;
}

Result<EvalReply> parse_eval_reply(json body) {
  if (!body.is_object()) return bad_reply("the body must be an object");
  PF_TRY(check_version(body, "evaluate reply"));
  EvalReply r;
  auto mode = body.find(field::kMode);
  if (mode == body.end() || !mode->is_string() || !parse_eval_mode(mode->get<std::string>())) {
    return bad_reply("\"mode\" must be \"compile_only\" or \"full\"");
  }
  r.mode = *parse_eval_mode(mode->get<std::string>());
  PF_ASSIGN(r.failure, failure(body, ""));
  PF_ASSIGN(r.as, number(body, "as", ""));
  PF_ASSIGN(r.hidden_as, number(body, "hidden_as", ""));
  PF_ASSIGN(r.correct_rate, number(body, "correct_rate", ""));
  PF_ASSIGN(r.geomean_speedup, number(body, "geomean_speedup", ""));
  r.fatal = body.contains(field::kFatal) && !body[field::kFatal].is_null();
  auto variants = body.find(field::kVariants);
  if (variants != body.end() && !variants->is_null()) {
    if (!variants->is_array()) return bad_reply("\"variants\" must be an array");
    for (size_t i = 0; i < variants->size(); ++i) {
      PF_ASSIGN(auto v, parse_variant((*variants)[i], i));
      r.variants.push_back(std::move(v));
    }
  }
  r.body = std::move(body);
  return r;
}

}  // namespace pf::protocol
