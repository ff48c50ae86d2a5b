// File helpers that return Result instead of throwing.
#pragma once

#include <filesystem>
#include <string>

#include "common/result.h"

namespace pf {

Result<std::string> read_file(const std::filesystem::path& path);

//! Writes via a temporary file and rename, so readers never see a torn file
//! (OutputFile: only over a regular file or nothing).
Status write_file_atomic(const std::filesystem::path& path, std::string_view content);

//! The directory holding the running executable (/proc/self/exe).
std::filesystem::path executable_dir();

}  // namespace pf
