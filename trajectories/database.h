// RAII SQLite connection plus a scoped transaction. A Database is used by one
// thread at a time (the connection is opened without SQLite's own mutex);
// TrajectoryStore serialises its users with a mutex.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "common/result.h"
#include "trajectories/statement.h"

struct sqlite3;

namespace pf::traj {

class Database {
 public:
  enum class Access { read_only, read_write, create };

  static Result<Database> open(const std::filesystem::path& path, Access access);

  Database() = default;
  Database(Database&& other) noexcept;
  Database& operator=(Database&& other) noexcept;
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;
  ~Database();

  //! Runs one or more statements that return nothing of interest.
  Status exec(std::string_view sql);
  Result<Statement> prepare(std::string_view sql);
  //! Rows changed by the last INSERT/UPDATE/DELETE.
  int64_t changes() const;
  const std::filesystem::path& path() const { return path_; }

 private:
  Error error(const std::string& what) const;
  sqlite3* db_ = nullptr;
  std::filesystem::path path_;
};

//! BEGIN on construction; ROLLBACK on destruction unless commit() succeeded.
class Transaction {
 public:
  //! immediate: take the write lock now (writers), so a busy database fails
  //! at BEGIN (after the busy timeout) rather than half-way through.
  static Result<Transaction> begin(Database& db, bool immediate);
  Transaction(Transaction&& other) noexcept;
  Transaction& operator=(Transaction&&) = delete;
  Transaction(const Transaction&) = delete;
  ~Transaction();
  Status commit();

 private:
  explicit Transaction(Database* db) : db_(db) {}
  Database* db_ = nullptr;
};

}  // namespace pf::traj
