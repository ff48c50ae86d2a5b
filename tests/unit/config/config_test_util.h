// Helpers shared by the config tests: temporary config files, no environment.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>

#include "config/config_loader.h"

namespace pf::testing_util {

//! Writes `text` to a fresh file under the test temp dir; returns its path.
inline std::string write_temp_config(const std::string& text) {
  static std::atomic<int> counter{0};
  auto path = std::filesystem::path(::testing::TempDir()) /
              ("pf_config_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + ".toml");
  std::ofstream(path) << text;
  return path.string();
}

//! An environment where nothing is set (the machine's OPENAI_* must not leak in).
inline std::optional<std::string> no_env(const std::string&) { return std::nullopt; }

inline Result<LoadedConfig> load_text(const std::string& text, std::vector<std::string> sets = {}) {
  return load_config({write_temp_config(text), std::move(sets), no_env});
}

}  // namespace pf::testing_util
