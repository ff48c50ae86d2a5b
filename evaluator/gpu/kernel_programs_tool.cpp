// Build-time tool: writes every baseline kernel program (kernel_program.h) as
// a source file nvcc compiles into the prebuilt kernel library
// (prebuilt_kernels.h), so nvcc sees exactly the text NVRTC would.
//
//   pf_kernel_programs <out_dir> <program>...
//
// <program> is "<stem>.<dtype>" ("ew_arith.float32"), the list CMake derived
// from the `// pf-dtypes:` lines; the tool fails when that list and the
// programs kernel_program.h enumerates differ, so the two parsers cannot drift.
// For each program it writes <program>.cuh (the program) and <program>.cu
// (which includes it: nvcc's host preprocessor warns on `#pragma once` in a
// main file). Files are rewritten only when their text changes, so an edit to
// one kernel file recompiles only its programs.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>

#include "evaluator/gpu/kernel_program.h"

namespace {

namespace fs = std::filesystem;

bool write_if_different(const fs::path& path, const std::string& text) {
  {
    std::ifstream in(path, std::ios::binary);
    if (in) {
      std::string old((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      if (old == text) return true;
    }
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  return static_cast<bool>(out);
}

int run(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: pf_kernel_programs <out_dir> <stem.dtype>...\n");
    return 2;
  }
  const fs::path out_dir = argv[1];
  std::set<std::string> expected(argv + 2, argv + argc);
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec) {
    std::fprintf(stderr, "pf_kernel_programs: %s: %s\n", out_dir.c_str(), ec.message().c_str());
    return 1;
  }
  std::set<std::string> produced;
  for (const auto& file : pf::gpu::kernel_program_files()) {
    auto info = pf::gpu::kernel_program_info(file);
    if (!info.ok()) {
      std::fprintf(stderr, "pf_kernel_programs: %s\n", info.error().message.c_str());
      return 1;
    }
    for (pf::DType dtype : info->dtypes) {
      auto source = pf::gpu::kernel_program_source(file, dtype);
      if (!source.ok()) {
        std::fprintf(stderr, "pf_kernel_programs: %s\n", source.error().message.c_str());
        return 1;
      }
      const std::string stem = file.substr(0, file.size() - 3) + "." + pf::dtype_name(dtype);
      produced.insert(stem);
      if (!write_if_different(out_dir / (stem + ".cuh"), *source) ||
          !write_if_different(out_dir / (stem + ".cu"), "#include \"" + stem + ".cuh\"\n")) {
        std::fprintf(stderr, "pf_kernel_programs: cannot write %s\n", (out_dir / stem).c_str());
        return 1;
      }
    }
  }
  if (produced != expected) {
    std::ostringstream diff;
    for (const auto& p : produced) {
      if (!expected.count(p)) diff << " +" << p;
    }
    for (const auto& p : expected) {
      if (!produced.count(p)) diff << " -" << p;
    }
    std::fprintf(stderr,
                 "pf_kernel_programs: CMake's program list differs from kernel_program.h "
                 "(+ only in C++, - only in CMake):%s\n",
                 diff.str().c_str());
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return run(argc, argv);
}
