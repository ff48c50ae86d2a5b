#include "evaluator/gpu/kernel_program.h"

#include <algorithm>
#include <sstream>

#include "evaluator/gpu/kernel_sources.h"

namespace pf::gpu {
namespace {

constexpr std::string_view kDtypesTag = "// pf-dtypes:";
constexpr std::string_view kRequiresTag = "// pf-requires:";
constexpr const char* kAlwaysFirst[] = {"pf_abi.cuh", "pf_common.cuh"};

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::vector<std::string> words_after(std::string_view line, std::string_view tag) {
  std::istringstream in(std::string(line.substr(tag.size())));
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

}  // namespace

const KernelSource* find_kernel_source(std::string_view name) {
  for (const auto& s : kernel_sources()) {
    if (name == s.name) return &s;
  }
  return nullptr;
}

std::vector<std::string> kernel_program_files() {
  std::vector<std::string> out;
  for (const auto& s : kernel_sources()) {
    if (ends_with(s.name, ".cu")) out.emplace_back(s.name);
  }
  std::sort(out.begin(), out.end());
  return out;
}

Result<KernelProgramInfo> kernel_program_info(std::string_view file) {
  const KernelSource* src = find_kernel_source(file);
  if (src == nullptr || !ends_with(file, ".cu")) {
    return make_error(ErrorCode::not_found, "no baseline kernel file '" + std::string(file) + "'");
  }
  KernelProgramInfo info;
  info.file = std::string(file);
  std::istringstream in(src->text);
  for (std::string line; std::getline(in, line) && line.rfind("//", 0) == 0;) {
    if (line.rfind(kDtypesTag, 0) == 0) {
      for (const auto& w : words_after(line, kDtypesTag)) {
        auto t = parse_dtype(w);
        if (!t) {
          return make_error(ErrorCode::invalid_argument,
                            info.file + ": pf-dtypes: unknown dtype '" + w + "'");
        }
        info.dtypes.push_back(*t);
      }
    } else if (line.rfind(kRequiresTag, 0) == 0) {
      for (const auto& w : words_after(line, kRequiresTag)) {
        if (find_kernel_source(w) == nullptr) {
          return make_error(ErrorCode::invalid_argument,
                            info.file + ": pf-requires: no kernel header '" + w + "'");
        }
        info.headers.push_back(w);
      }
    }
  }
  if (info.dtypes.empty()) {
    return make_error(ErrorCode::invalid_argument, info.file + ": missing '// pf-dtypes:' line");
  }
  return info;
}

Result<std::string> kernel_program_source(std::string_view file, DType dtype) {
  PF_ASSIGN(KernelProgramInfo info, kernel_program_info(file));
  if (std::find(info.dtypes.begin(), info.dtypes.end(), dtype) == info.dtypes.end()) {
    return make_error(ErrorCode::unsupported, info.file + " is not built for " + dtype_name(dtype));
  }
  std::string text = "// program " + kernel_program_name(file, dtype) + " (generated)\n";
  text += "#define PF_DTYPE " + std::to_string(static_cast<int>(dtype)) + "\n";
  for (const char* name : kAlwaysFirst) {
    text += find_kernel_source(name)->text;
    text += "\n";
  }
  for (const auto& name : info.headers) {
    text += find_kernel_source(name)->text;
    text += "\n";
  }
  text += find_kernel_source(file)->text;
  return text;
}

std::string kernel_program_name(std::string_view file, DType dtype) {
  std::string stem(file.substr(0, file.size() - (ends_with(file, ".cu") ? 3 : 0)));
  return "kernels/" + stem + "." + dtype_name(dtype) + ".cu";
}

}  // namespace pf::gpu
