#include "sandbox/nvrtc/source_flags.h"

#include <set>
#include <stdexcept>

namespace pf::nvrtc {
namespace {

const std::set<std::string> kTimerCalls = {"clock",     "clock64",       "__clock",
                                           "__clock64", "__globaltimer", "__nanosleep_timer"};
const std::set<std::string> kAllocCalls = {"malloc",  "free",  "new", "__nv_aligned_device_malloc",
                                           "realloc", "calloc"};
// PTX special registers that read time, as they appear in asm strings.
const char* const kTimerRegisters[] = {"%globaltimer", "%clock", "%clock64", "%%globaltimer",
                                       "%%clock"};

}  // namespace

const char* source_flag_name(SourceFlagKind kind) {
  switch (kind) {
    case SourceFlagKind::timer_read:
      return "timer_read";
    case SourceFlagKind::device_malloc:
      return "device_malloc";
    case SourceFlagKind::mutable_global:
      return "mutable_global";
    case SourceFlagKind::inline_asm:
      return "inline_asm";
  }
  return "unknown";
}

nlohmann::json SourceFlag::to_json() const {
  return {{"flag", source_flag_name(kind)},
          {"file", file},
          {"line", line},
          {"detail", detail},
          {"origin", origin}};
}

SourceFlag SourceFlag::from_json(const nlohmann::json& j) {
  const std::string name = j.at("flag").get<std::string>();
  for (SourceFlagKind k : {SourceFlagKind::timer_read, SourceFlagKind::device_malloc,
                           SourceFlagKind::mutable_global, SourceFlagKind::inline_asm}) {
    if (name == source_flag_name(k)) {
      SourceFlag f{k, j.at("file").get<std::string>(), j.at("line").get<int>(),
                   j.at("detail").get<std::string>()};
      f.origin = j.at("origin").get<std::string>();
      return f;
    }
  }
  throw std::runtime_error("unknown source flag " + name);
}

std::vector<SourceFlag> detect_source_flags(const std::string& file, const std::vector<Token>& t) {
  std::vector<SourceFlag> out;
  auto add = [&](SourceFlagKind k, int line, std::string detail) {
    out.push_back({k, file, line, std::move(detail)});
  };
  int depth = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    const Token& tok = t[i];
    if (tok.in_directive) continue;
    if (tok.text == "{") ++depth;
    if (tok.text == "}" && depth > 0) --depth;
    const bool call = i + 1 < t.size() && t[i + 1].text == "(";
    if (tok.kind == TokenKind::identifier) {
      if (kTimerCalls.count(tok.text) && call)
        add(SourceFlagKind::timer_read, tok.line, tok.text + "()");
      if (kAllocCalls.count(tok.text) && (call || tok.text == "new")) {
        add(SourceFlagKind::device_malloc, tok.line, tok.text);
      }
      if (tok.text == "asm" || tok.text == "__asm__" || tok.text == "__asm") {
        add(SourceFlagKind::inline_asm, tok.line, tok.text);
      }
      // A namespace-scope __device__ / __managed__ declaration that is not a
      // function and not const: a variable that outlives launches. `const`
      // before a `*` makes the pointee const, not the variable
      // (`const float* last` is a mutable pointer).
      if ((tok.text == "__device__" || tok.text == "__managed__") && depth == 0) {
        bool is_const = false, is_function = false;
        size_t j = i + 1;
        for (; j < t.size(); ++j) {
          const std::string& x = t[j].text;
          if (x == "(") is_function = true;
          if (x == "(" || x == ";" || x == "=" || x == "{") break;
          if (x == "const") is_const = true;
          if (x == "*") is_const = false;
          if (x == "constexpr" || x == "__constant__") {
            is_const = true;
            break;
          }
        }
        while (j < t.size() && t[j].text != "(" && t[j].text != ";" && t[j].text != "=" &&
               t[j].text != "{") {
          ++j;
        }
        if (!is_function && !is_const && j < t.size() && j > i + 1) {
          add(SourceFlagKind::mutable_global, tok.line,
              "__device__ variable '" + t[j - 1].text + "'");
        }
      }
    }
    if (tok.kind == TokenKind::string_literal) {
      for (const char* reg : kTimerRegisters) {
        if (tok.text.find(reg) != std::string::npos) {
          add(SourceFlagKind::timer_read, tok.line, std::string(reg) + " in inline PTX");
          break;
        }
      }
    }
  }
  return out;
}

}  // namespace pf::nvrtc
