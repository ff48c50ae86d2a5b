#include "trajectories/database.h"

#include <sqlite3.h>

#include <utility>

namespace pf::traj {

Result<Database> Database::open(const std::filesystem::path& path, Access access) {
  int flags = SQLITE_OPEN_NOMUTEX;
  switch (access) {
    case Access::read_only: flags |= SQLITE_OPEN_READONLY; break;
    case Access::read_write: flags |= SQLITE_OPEN_READWRITE; break;
    case Access::create: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE; break;
  }
  if (access != Access::create) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
      return make_error(ErrorCode::not_found, "no trajectory store at " + path.string());
    }
  }
  Database db;
  db.path_ = path;
  int rc = sqlite3_open_v2(path.c_str(), &db.db_, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = db.db_ ? sqlite3_errmsg(db.db_) : sqlite3_errstr(rc);
    return make_error(ErrorCode::io_error, "cannot open " + path.string() + ": " + msg);
  }
  sqlite3_extended_result_codes(db.db_, 1);
  return db;
}

Database::Database(Database&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)), path_(std::move(other.path_)) {}

Database& Database::operator=(Database&& other) noexcept {
  if (this != &other) {
    sqlite3_close_v2(db_);
    db_ = std::exchange(other.db_, nullptr);
    path_ = std::move(other.path_);
  }
  return *this;
}

Database::~Database() { sqlite3_close_v2(db_); }

Error Database::error(const std::string& what) const {
  int primary = sqlite3_errcode(db_) & 0xff;
  ErrorCode code = ErrorCode::io_error;
  if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED) code = ErrorCode::unavailable;
  if (primary == SQLITE_CONSTRAINT) code = ErrorCode::invalid_argument;
  return make_error(code, path_.string() + ": " + what + ": " + sqlite3_errmsg(db_));
}

Status Database::exec(std::string_view sql) {
  std::string text(sql);
  char* err = nullptr;
  int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &err);
  if (rc != SQLITE_OK) {
    std::string msg = err ? err : sqlite3_errstr(rc);
    sqlite3_free(err);
    std::string head = text.size() > 60 ? text.substr(0, 57) + "..." : text;
    ErrorCode code = (rc & 0xff) == SQLITE_BUSY ? ErrorCode::unavailable : ErrorCode::io_error;
    return make_error(code, path_.string() + ": sqlite: " + msg + " (in: " + head + ")");
  }
  return ok_status();
}

Result<Statement> Database::prepare(std::string_view sql) {
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt, nullptr);
  if (rc != SQLITE_OK) return error("prepare '" + std::string(sql.substr(0, 60)) + "'");
  return Statement(db_, stmt);
}

int64_t Database::changes() const { return sqlite3_changes64(db_); }

Result<Transaction> Transaction::begin(Database& db, bool immediate) {
  PF_TRY(db.exec(immediate ? "BEGIN IMMEDIATE" : "BEGIN"));
  return Transaction(&db);
}

Transaction::Transaction(Transaction&& other) noexcept : db_(std::exchange(other.db_, nullptr)) {}

Transaction::~Transaction() {
  if (db_) (void)db_->exec("ROLLBACK");
}

Status Transaction::commit() {
  Database* db = std::exchange(db_, nullptr);
  auto st = db->exec("COMMIT");
  if (!st.ok()) (void)db->exec("ROLLBACK");
  return st;
}

}  // namespace pf::traj
