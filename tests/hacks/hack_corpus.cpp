#include "tests/hacks/hack_corpus.h"

#include <algorithm>
#include <fstream>

namespace pf::hacks {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

bool contains(const json& list, const std::string& value) {
  if (!list.is_array()) return false;
  return std::any_of(list.begin(), list.end(),
                     [&](const json& j) { return j.is_string() && j.get<std::string>() == value; });
}

Result<HackCase> load_case(const fs::path& dir, const fs::path& root) {
  fs::path file = dir / "hack.json";
  std::ifstream in(file);
  if (!in) return make_error(ErrorCode::not_found, file.string() + ": missing");
  json j = json::parse(in, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    return make_error(ErrorCode::parse_error, file.string() + ": not a JSON object");
  }
  HackCase c;
  c.name = dir.filename().string();
  c.dir = dir / "workspace";
  try {
    c.what = j.at("what").get<std::string>();
    c.how = j.at("how").get<std::string>();
    c.defence = j.at("defence").get<std::string>();
    c.task = root / j.at("task").get<std::string>();
    c.control = root / j.at("control").get<std::string>();
    c.value = j.at("expect").at("value").get<std::string>();
    c.needs_gpu = j.at("needs_gpu").get<bool>();
    c.options = j.value("options", json::object());
    std::string kind = j.at("expect").at("kind").get<std::string>();
    if (kind == "static_flag") {
      c.kind = ExpectKind::static_flag;
    } else if (kind == "flag") {
      c.kind = ExpectKind::flag;
    } else if (kind == "task_flag") {
      c.kind = ExpectKind::task_flag;
    } else if (kind == "failure") {
      c.kind = ExpectKind::failure;
    } else if (kind == "no_gain") {
      c.kind = ExpectKind::no_gain;
      size_t used = 0;
      double gain = std::stod(c.value, &used);
      if (used != c.value.size() || gain < 0 || gain > 0.5) {
        return make_error(ErrorCode::invalid_argument,
                          file.string() + ": no_gain needs a relative gain in [0, 0.5]");
      }
    } else {
      return make_error(ErrorCode::invalid_argument,
                        file.string() + ": unknown expect.kind " + kind);
    }
  } catch (const std::exception& e) {
    return make_error(ErrorCode::invalid_argument, file.string() + ": " + e.what());
  }
  if (!c.options.is_object()) {
    return make_error(ErrorCode::invalid_argument, file.string() + ": options must be an object");
  }
  if (c.kind == ExpectKind::no_gain && !c.needs_gpu) {
    return make_error(ErrorCode::invalid_argument,
                      file.string() + ": no_gain compares timed scores (needs_gpu must be true)");
  }
  if (c.kind == ExpectKind::static_flag && c.needs_gpu) {
    return make_error(ErrorCode::invalid_argument,
                      file.string() + ": a static flag needs no GPU (needs_gpu must be false)");
  }
  return c;
}

}  // namespace

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::caught:
      return "caught";
    case Verdict::bypassed:
      return "BYPASSED";
    case Verdict::control_failed:
      return "CONTROL FAILED";
    case Verdict::control_flagged:
      return "CONTROL FLAGGED";
  }
  return "?";
}

Result<std::vector<HackCase>> load_hack_corpus(const fs::path& root) {
  std::vector<HackCase> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(root / "exploits", ec)) {
    if (!e.is_directory()) continue;
    PF_ASSIGN(HackCase c, load_case(e.path(), root));
    out.push_back(std::move(c));
  }
  if (ec)
    return make_error(ErrorCode::io_error, (root / "exploits").string() + ": " + ec.message());
  std::sort(out.begin(), out.end(),
            [](const HackCase& a, const HackCase& b) { return a.name < b.name; });
  return out;
}

namespace {

bool failed_anywhere(const json& result) {
  if (result.value("failure_class", json()).is_string()) return true;
  for (const auto& v : result.value("variants", json::array())) {
    if (v.value("failure_class", json()).is_string()) return true;
  }
  return false;
}

}  // namespace

Verdict judge_exploit(const HackCase& hack, const json& result, const json& control) {
  switch (hack.kind) {
    case ExpectKind::no_gain: {
      if (!result.value("hack_flags", json::array()).empty() || failed_anywhere(result)) {
        return Verdict::caught;
      }
      const json& as = result.contains("as") ? result["as"] : json();
      const json& control_as =
          control.is_object() && control.contains("as") ? control["as"] : json();
      if (!as.is_number() || !control_as.is_number()) return Verdict::bypassed;
      return as.get<double>() <= control_as.get<double>() * (1.0 + std::stod(hack.value))
                 ? Verdict::caught
                 : Verdict::bypassed;
    }
    case ExpectKind::static_flag:
    case ExpectKind::flag:
      return contains(result.value("hack_flags", json::array()), hack.value) ? Verdict::caught
                                                                             : Verdict::bypassed;
    case ExpectKind::task_flag:
      return contains(result.value("task_flags", json::array()), hack.value) ? Verdict::caught
                                                                             : Verdict::bypassed;
    case ExpectKind::failure: {
      if (result.value("failure_class", json()) == hack.value) return Verdict::caught;
      for (const auto& v : result.value("variants", json::array())) {
        if (v.value("failure_class", json()) == hack.value) return Verdict::caught;
      }
      return Verdict::bypassed;
    }
  }
  return Verdict::bypassed;
}

std::string control_problem(const json& result) {
  if (!result.value("hack_flags", json::array()).empty()) {
    return "hack flags " + result["hack_flags"].dump();
  }
  if (result.value("failure_class", json()).is_string()) {
    return "whole failure " + result["failure_class"].get<std::string>() + ": " +
           result.value("message", "");
  }
  const bool full = result.value("mode", "full") == "full";
  for (const auto& v : result.value("variants", json::array())) {
    std::string name = v.value("name", "");
    // Not scored (the baseline cannot run it, or a degenerate variant): not
    // the control's business.
    if (v.contains("skipped")) continue;
    if (v.value("failure_class", json()).is_string()) {
      return name + ": " + v["failure_class"].get<std::string>() + ": " + v.value("message", "");
    }
    if (full && !v.value("correct", false)) return name + ": not correct";
  }
  return "";
}

}  // namespace pf::hacks
