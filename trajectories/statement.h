// RAII prepared statement over SQLite's C API. Binding an index the SQL does
// not have is a bug (PF_CHECK); stepping returns SQLite's failures as Errors.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/result.h"

struct sqlite3;
struct sqlite3_stmt;

namespace pf::traj {

class Statement {
 public:
  Statement() = default;
  Statement(sqlite3* db, sqlite3_stmt* stmt) : db_(db), stmt_(stmt) {}
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  ~Statement();

  //! Parameters are 1-based, as in SQLite.
  Statement& bind(int index, int64_t v);
  Statement& bind(int index, int v) { return bind(index, static_cast<int64_t>(v)); }
  Statement& bind(int index, bool v) { return bind(index, static_cast<int64_t>(v)); }
  Statement& bind(int index, double v);
  Statement& bind(int index, std::string_view v);
  Statement& bind(int index, const std::string& v) { return bind(index, std::string_view(v)); }
  Statement& bind(int index, const char* v) { return bind(index, std::string_view(v)); }
  Statement& bind(int index, std::nullptr_t);
  Statement& bind(int index, const std::optional<double>& v);
  Statement& bind_blob(int index, std::string_view bytes);
  //! Binds "" as NULL (optional references such as a missing workspace).
  Statement& bind_text_or_null(int index, std::string_view v);

  //! Binds the arguments to parameters 1..n.
  template <typename... Args>
  Statement& bind_all(const Args&... args) {
    int i = 0;
    (bind(++i, args), ...);
    return *this;
  }

  //! true: a row is available; false: done.
  Result<bool> step();
  //! Steps a statement that returns no rows.
  Status run();
  void reset();

  bool is_null(int col) const;
  int64_t int64(int col) const;
  double real(int col) const;
  std::optional<double> opt_real(int col) const;
  std::string text(int col) const;  // NULL reads as ""
  std::string blob(int col) const;

 private:
  Error error(int rc) const;
  sqlite3* db_ = nullptr;
  sqlite3_stmt* stmt_ = nullptr;
};

}  // namespace pf::traj
