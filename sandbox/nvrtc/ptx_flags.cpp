#include "sandbox/nvrtc/ptx_flags.h"

#include <cctype>
#include <map>
#include <regex>
#include <set>

#include "common/strings.h"

namespace pf::nvrtc {
namespace {

const std::set<std::string> kAllocFunctions = {"malloc",  "free",   "__nv_aligned_device_malloc",
                                               "realloc", "calloc", "_Znwm",
                                               "_Znam",   "_ZdlPv", "_ZdaPv",
                                               "_ZdlPvm", "_ZdaPvm"};

// Comments removed, so that `// begin inline asm` and the like cannot hide
// or fake anything.
std::string strip_comments(std::string_view ptx) {
  std::string out;
  out.reserve(ptx.size());
  for (size_t i = 0; i < ptx.size(); ++i) {
    if (ptx.compare(i, 2, "//") == 0) {
      while (i < ptx.size() && ptx[i] != '\n') ++i;
      out += '\n';
    } else if (ptx.compare(i, 2, "/*") == 0) {
      size_t end = ptx.find("*/", i + 2);
      i = end == std::string_view::npos ? ptx.size() : end + 1;
      out += ' ';
    } else {
      out += ptx[i];
    }
  }
  return out;
}

bool name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '$';
}

// Identifiers and registers of an operand: `[%rd3+8]` -> {"%rd3"}; numbers
// (`0f3F800000`, `8`) are skipped.
std::vector<std::string> names_in(std::string_view text) {
  std::vector<std::string> out;
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    const bool start =
        c == '%' || c == '_' || c == '$' || std::isalpha(static_cast<unsigned char>(c));
    if (!start) {
      if (std::isdigit(static_cast<unsigned char>(c))) {
        while (i < text.size() && name_char(text[i])) ++i;
      } else {
        ++i;
      }
      continue;
    }
    size_t j = i + 1;
    while (j < text.size() && name_char(text[j])) ++j;
    out.emplace_back(text.substr(i, j - i));
    i = j;
  }
  return out;
}

std::vector<std::string> split_operands(const std::string& text) {
  std::vector<std::string> out;
  int depth = 0;
  std::string cur;
  for (char c : text) {
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
    if (c == ',' && depth == 0) {
      out.emplace_back(trim(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!trim(cur).empty()) out.emplace_back(trim(cur));
  return out;
}

// One instruction: its opcode and the names (registers, symbols) of each operand.
struct Instruction {
  std::string opcode;
  std::vector<std::vector<std::string>> operands;
};

bool starts_with(const std::string& s, std::string_view p) {
  return s.compare(0, p.size(), p) == 0;
}

class GlobalWrites {
 public:
  explicit GlobalWrites(std::set<std::string> globals) : globals_(std::move(globals)) {}

  // The globals an operand may address: named directly or through a tainted register.
  std::set<std::string> refs(const std::vector<std::string>& operand) const {
    std::set<std::string> out;
    for (const auto& n : operand) {
      if (globals_.count(n) != 0) out.insert(n);
      if (auto it = taint_.find(n); it != taint_.end())
        out.insert(it->second.begin(), it->second.end());
    }
    return out;
  }

  void run(const std::vector<Instruction>& code) {
    // Flow-insensitive: iterate to a fixpoint (loops use registers defined later).
    for (int round = 0; round < 64; ++round) {
      bool changed = false;
      for (const auto& ins : code) changed |= propagate(ins);
      if (!changed) break;
    }
    for (const auto& ins : code) record_writes(ins);
  }

  //! Global -> how it is written ("st", "atom", "red", "address escapes").
  const std::map<std::string, std::set<std::string>>& written() const { return written_; }

 private:
  static bool is_memory_write(const std::string& op) {
    return starts_with(op, "st.") || op == "st" || starts_with(op, "red.") ||
           starts_with(op, "atom.") || starts_with(op, "cp.") || starts_with(op, "stmatrix");
  }

  bool propagate(const Instruction& ins) {
    if (ins.operands.empty() || is_memory_write(ins.opcode) || starts_with(ins.opcode, "ld") ||
        starts_with(ins.opcode, "call") || starts_with(ins.opcode, "bra") ||
        starts_with(ins.opcode, "setp")) {
      return false;
    }
    std::set<std::string> from;
    for (size_t k = 1; k < ins.operands.size(); ++k) {
      auto r = refs(ins.operands[k]);
      from.insert(r.begin(), r.end());
    }
    if (from.empty()) return false;
    bool changed = false;
    for (const auto& n : ins.operands[0]) {
      if (n[0] != '%') continue;
      auto& t = taint_[n];
      for (const auto& g : from) changed |= t.insert(g).second;
    }
    return changed;
  }

  void record_writes(const Instruction& ins) {
    const std::string& op = ins.opcode;
    if (ins.operands.empty()) return;
    if (starts_with(op, "call")) {
      for (const auto& o : ins.operands) mark(refs(o), "address passed to a call");
      return;
    }
    if (!is_memory_write(op)) return;
    const bool atom = starts_with(op, "atom.");
    const size_t address = atom ? 1 : 0;
    if (address >= ins.operands.size()) return;
    std::string how = atom ? "atomic " + op : starts_with(op, "red.") ? "reduction " + op : op;
    mark(refs(ins.operands[address]), how);
    for (size_t k = address + 1; k < ins.operands.size(); ++k) {
      mark(refs(ins.operands[k]), "address stored to memory");
    }
  }

  void mark(const std::set<std::string>& globals, const std::string& how) {
    for (const auto& g : globals) written_[g].insert(how);
  }

  std::set<std::string> globals_;
  std::map<std::string, std::set<std::string>> taint_;
  std::map<std::string, std::set<std::string>> written_;
};

// A `.global` declaration's variable name: `.global .align 4 .b8 t[16] = {...}` -> t.
std::string declared_name(const std::string& decl) {
  std::string head = decl.substr(0, decl.find('='));
  head = head.substr(0, head.find('['));
  auto names = names_in(head);
  return names.empty() ? "" : names.back();
}

}  // namespace

std::vector<SourceFlag> detect_ptx_flags(const std::string& file, std::string_view ptx) {
  std::vector<SourceFlag> out;
  auto add = [&](SourceFlagKind k, std::string detail) {
    SourceFlag f{k, file, 0, "PTX: " + std::move(detail)};
    f.origin = "ptx";
    out.push_back(std::move(f));
  };
  const std::string text = strip_comments(ptx);

  static const std::regex kTimer(
      R"(%(globaltimer_lo|globaltimer_hi|globaltimer|clock64|clock_hi|clock)\b)");
  std::set<std::string> timers;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kTimer);
       it != std::sregex_iterator(); ++it) {
    timers.insert(it->str());
  }
  for (const auto& t : timers) add(SourceFlagKind::timer_read, "reads the special register " + t);

  static const std::regex kExtern(
      R"(\.extern\s+\.func\s*(\([^)]*\))?\s*([A-Za-z_$][A-Za-z0-9_$]*))");
  std::set<std::string> allocs;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kExtern);
       it != std::sregex_iterator(); ++it) {
    if (kAllocFunctions.count((*it)[2].str()) != 0) allocs.insert((*it)[2].str());
  }
  for (const auto& a : allocs)
    add(SourceFlagKind::device_malloc, "calls the device allocator " + a);

  // Statements: braces only group, labels only name a position.
  std::set<std::string> globals;
  std::vector<Instruction> code;
  static const std::regex kLabel(R"(^\$?[A-Za-z_$][A-Za-z0-9_$]*:\s*)");
  static const std::regex kPredicate(R"(^@!?%[A-Za-z0-9_$]+\s+)");
  std::string stmt;
  auto flush = [&]() {
    std::string s(trim(std::regex_replace(std::string(trim(stmt)), kLabel, "")));
    stmt.clear();
    if (s.empty()) return;
    if (s[0] == '.') {
      auto words = split(s, ' ');
      bool global_var = false;
      for (const auto& w : words) {
        if (w == ".extern" || w == ".func" || w == ".entry") break;
        if (w == ".global") global_var = true;
      }
      if (global_var) {
        std::string name = declared_name(s);
        if (!name.empty()) globals.insert(name);
      }
      return;
    }
    s = std::regex_replace(s, kPredicate, "");
    size_t sp = s.find_first_of(" \t");
    Instruction ins;
    ins.opcode = s.substr(0, sp);
    if (sp != std::string::npos) {
      for (const auto& o : split_operands(s.substr(sp + 1))) ins.operands.push_back(names_in(o));
    }
    code.push_back(std::move(ins));
  };
  for (char c : text) {
    if (c == ';') {
      flush();
    } else if (c == '{' || c == '}') {
      // `.global ... = {1, 2}` keeps its braces out of statement boundaries.
      if (stmt.find('=') == std::string::npos) {
        flush();
      } else {
        stmt += ' ';
      }
    } else {
      stmt += (c == '\n' || c == '\t') ? ' ' : c;
    }
  }
  flush();

  GlobalWrites writes(globals);
  writes.run(code);
  for (const auto& [name, hows] : writes.written()) {
    std::string detail = ".global variable '" + name + "'";
    if (starts_with(name, "_ZZ")) detail += " (a function-scope static)";
    detail += " is written: " + join(std::vector<std::string>(hows.begin(), hows.end()), ", ");
    add(SourceFlagKind::mutable_global, detail);
  }
  return out;
}

}  // namespace pf::nvrtc
