// Which run stores `passforge serve` shows: the run directories named on the
// command line, and every store directly under a directory of runs (--runs,
// or a named directory that holds no store itself, like `runs/`), rescanned
// on each listing so runs started while serving appear. Each store gets a URL-safe
// name that the pages and the API use; nothing outside the catalog is read.
// Thread-safe: it holds only its options.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"

namespace pf::serve {

struct RunEntry {
  std::string name;  // [A-Za-z0-9._-]+, unique in the catalog
  std::filesystem::path dir;
};

struct CatalogOptions {
  //! Each holds passforge.db (or is a .db), or is a directory of runs.
  std::vector<std::filesystem::path> run_dirs;
  std::vector<std::filesystem::path> runs_roots;  // directories of runs
};

class RunCatalog {
 public:
  //! Errors: a path that is neither a store nor a directory.
  static Result<RunCatalog> create(CatalogOptions options);

  //! Named run directories first, then each root's stores, newest name first.
  std::vector<RunEntry> list() const;
  std::optional<RunEntry> find(const std::string& name) const;

 private:
  explicit RunCatalog(CatalogOptions options) : options_(std::move(options)) {}
  CatalogOptions options_;
};

}  // namespace pf::serve
