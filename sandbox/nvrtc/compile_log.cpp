#include "sandbox/nvrtc/compile_log.h"

#include <algorithm>
#include <cctype>

#include "common/strings.h"

namespace pf::nvrtc {
namespace {

// Hand-written matchers (std::regex recurses per character and can exhaust
// the stack on the very long source lines a log may echo).

// "kernels/a.cu(12): error: msg", "x.cu(3): warning #177-D: msg",
// "kernels/a.cu(1): catastrophic error: msg"
bool match_header(const std::string& l, Diagnostic& d) {
  size_t close = l.find("): ");
  if (close == std::string::npos) return false;
  size_t open = l.rfind('(', close);
  if (open == std::string::npos || open == 0 || open + 1 == close) return false;
  for (size_t i = open + 1; i < close; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(l[i]))) return false;
  }
  std::string_view rest(l);
  rest.remove_prefix(close + 3);
  std::string sev;
  for (const char* s : {"catastrophic error", "fatal error", "error", "warning", "remark"}) {
    if (starts_with(rest, s)) {
      sev = s;
      break;
    }
  }
  if (sev.empty()) return false;
  rest.remove_prefix(sev.size());
  if (starts_with(rest, " #")) {
    size_t colon = rest.find(':');
    if (colon == std::string_view::npos) return false;
    rest.remove_prefix(colon);
  }
  if (!starts_with(rest, ": ")) return false;
  rest.remove_prefix(2);
  d.file = l.substr(0, open);
  d.line = static_cast<int>(std::min<size_t>(
      std::stoull(l.substr(open + 1, std::min<size_t>(close - open - 1, 9))), 1u << 30));
  d.severity = sev == "warning" || sev == "remark" ? sev : "error";
  d.message = std::string(rest);
  d.text = l;
  return true;
}

// "ptxas error   : Entry function 'k' uses too much shared data", "nvrtc: error: ..."
bool match_tool(const std::string& l, Diagnostic& d) {
  std::string_view v(l);
  bool tool = false;
  for (const char* t : {"ptxas", "nvrtc", "nvvm", "nvlink"}) {
    if (starts_with(v, t)) {
      v.remove_prefix(std::string_view(t).size());
      tool = true;
      break;
    }
  }
  if (!tool) return false;
  while (!v.empty() && (v.front() == ' ' || v.front() == ':')) v.remove_prefix(1);
  std::string sev;
  for (const char* s : {"fatal", "error", "warning", "info"}) {
    if (starts_with(v, s)) {
      sev = s;
      break;
    }
  }
  if (sev.empty()) return false;
  v.remove_prefix(sev.size());
  while (!v.empty() && v.front() == ' ') v.remove_prefix(1);
  if (v.empty() || v.front() != ':') return false;
  v.remove_prefix(1);
  d.file.clear();
  d.line = 0;
  d.severity = sev == "fatal" ? "error" : sev == "info" ? "remark" : sev;
  d.message = std::string(trim(v));
  d.text = l;
  return true;
}

bool is_summary(std::string_view line) {
  auto t = trim(line);
  return t.empty() || t.find("detected in the compilation of") != std::string_view::npos ||
         starts_with(t, "Compilation terminated") ||
         starts_with(t, "Remark: The warnings can be suppressed");
}

std::string render(const std::vector<Diagnostic>& ds, size_t total, const char* noun,
                   size_t max_bytes) {
  std::string out;
  for (const auto& d : ds) out += d.text + "\n";
  if (total > ds.size()) {
    out += "(" + std::to_string(total - ds.size()) + " more " + noun +
           (total - ds.size() == 1 ? "" : "s") + " not shown)\n";
  }
  return trim_to_bytes(out, max_bytes);
}

}  // namespace

nlohmann::json CleanLog::to_json() const {
  auto list = [](const std::vector<Diagnostic>& ds) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& d : ds) {
      a.push_back(
          {{"file", d.file}, {"line", d.line}, {"severity", d.severity}, {"message", d.message}});
    }
    return a;
  };
  return {{"errors", list(errors)},       {"warnings", list(warnings)},
          {"total_errors", total_errors}, {"total_warnings", total_warnings},
          {"errors_text", errors_text},   {"warnings_text", warnings_text}};
}

std::string trim_to_bytes(const std::string& text, size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  size_t cut = text.rfind('\n', max_bytes);
  if (cut == std::string::npos || cut < max_bytes / 2) cut = max_bytes;
  return text.substr(0, cut) + "\n... (" + std::to_string(text.size() - cut) + " more bytes)\n";
}

CleanLog clean_compile_log(std::string_view raw, const LogLimits& limits) {
  // A log past this size is a compile bomb's; its start says enough.
  constexpr size_t kMaxRawBytes = 1 << 20;
  constexpr size_t kMaxLineBytes = 400;
  if (raw.size() > kMaxRawBytes) raw = raw.substr(0, kMaxRawBytes);
  std::vector<Diagnostic> all;
  std::vector<size_t> extra_lines;  // per diagnostic: continuation lines beyond the limit
  for (auto& l : split(raw, '\n')) {
    if (!l.empty() && l.back() == '\r') l.pop_back();
    if (l.size() > kMaxLineBytes) l = l.substr(0, kMaxLineBytes) + " ...";
    Diagnostic d;
    if (match_header(l, d) || match_tool(l, d)) {
      all.push_back(std::move(d));
      extra_lines.push_back(0);
    } else if (is_summary(l)) {
      continue;
    } else if (!all.empty()) {
      auto& last = all.back();
      if (static_cast<size_t>(std::count(last.text.begin(), last.text.end(), '\n')) + 1 <
          limits.max_lines_per_diagnostic) {
        last.text += "\n" + l;
      } else {
        ++extra_lines.back();
      }
    } else {
      all.push_back({"", 0, "error", l, l});  // unrecognised leading text: keep it visible
      extra_lines.push_back(0);
    }
  }
  CleanLog out;
  for (size_t i = 0; i < all.size(); ++i) {
    if (extra_lines[i] > 0)
      all[i].text += "\n    ... (" + std::to_string(extra_lines[i]) + " more lines)";
    if (all[i].severity == "error") {
      ++out.total_errors;
      if (out.errors.size() < limits.max_errors) out.errors.push_back(std::move(all[i]));
    } else {
      ++out.total_warnings;
      if (out.warnings.size() < limits.max_warnings) out.warnings.push_back(std::move(all[i]));
    }
  }
  out.errors_text = render(out.errors, out.total_errors, "error", limits.max_bytes);
  out.warnings_text = render(out.warnings, out.total_warnings, "warning", limits.max_bytes);
  return out;
}

}  // namespace pf::nvrtc
