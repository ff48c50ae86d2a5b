// A file that appears complete or not at all, and only where a regular file
// (or nothing) was: the content goes to a temporary file in the destination's
// directory, which is renamed over the destination on commit(). Destinations
// that are devices, directories, FIFOs or sockets (directly or through a
// symlink) are refused, so `--out /dev/null` can never replace the device
// node; a symlink to a regular file is followed and its target replaced.
// Every failure names the call and errno's reason.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "common/result.h"

namespace pf {

class OutputFile {
 public:
  //! Checks the destination and creates the temporary (and missing parent
  //! directories).
  static Result<OutputFile> open(const std::filesystem::path& path);

  OutputFile(OutputFile&& other) noexcept;
  OutputFile& operator=(OutputFile&& other) noexcept;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  //! Removes the temporary unless committed.
  ~OutputFile();

  Status write(std::string_view data);
  //! fsync, close and rename over the destination (checked again first).
  Status commit();

  //! The path as given.
  const std::filesystem::path& path() const { return path_; }
  int64_t bytes() const { return bytes_; }

 private:
  OutputFile() = default;
  void discard();

  std::filesystem::path path_;    // as given (for messages)
  std::filesystem::path target_;  // after following a symlink to a regular file
  std::filesystem::path tmp_;
  int fd_ = -1;
  int64_t bytes_ = 0;
};

//! Why `path` may not be replaced by a regular file ("" when it may):
//! it exists and is (or links to) something other than a regular file.
std::string unsafe_destination(const std::filesystem::path& path);

}  // namespace pf
