#include "trajectories/statement.h"

#include <sqlite3.h>

#include <utility>

#include "common/check.h"

namespace pf::traj {

Statement::Statement(Statement&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)), stmt_(std::exchange(other.stmt_, nullptr)) {}

Statement& Statement::operator=(Statement&& other) noexcept {
  if (this != &other) {
    sqlite3_finalize(stmt_);
    db_ = std::exchange(other.db_, nullptr);
    stmt_ = std::exchange(other.stmt_, nullptr);
  }
  return *this;
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

Statement& Statement::bind(int index, int64_t v) {
  PF_CHECK(sqlite3_bind_int64(stmt_, index, v) == SQLITE_OK);
  return *this;
}

Statement& Statement::bind(int index, double v) {
  PF_CHECK(sqlite3_bind_double(stmt_, index, v) == SQLITE_OK);
  return *this;
}

Statement& Statement::bind(int index, std::string_view v) {
  PF_CHECK(sqlite3_bind_text64(stmt_, index, v.data(), v.size(), SQLITE_TRANSIENT,
                               SQLITE_UTF8) == SQLITE_OK);
  return *this;
}

Statement& Statement::bind(int index, std::nullptr_t) {
  PF_CHECK(sqlite3_bind_null(stmt_, index) == SQLITE_OK);
  return *this;
}

Statement& Statement::bind(int index, const std::optional<double>& v) {
  return v ? bind(index, *v) : bind(index, nullptr);
}

Statement& Statement::bind_blob(int index, std::string_view bytes) {
  PF_CHECK(sqlite3_bind_blob64(stmt_, index, bytes.data(), bytes.size(), SQLITE_TRANSIENT) ==
           SQLITE_OK);
  return *this;
}

Statement& Statement::bind_text_or_null(int index, std::string_view v) {
  return v.empty() ? bind(index, nullptr) : bind(index, v);
}

Error Statement::error(int rc) const {
  ErrorCode code = ErrorCode::io_error;
  int primary = rc & 0xff;
  if (primary == SQLITE_CONSTRAINT) code = ErrorCode::invalid_argument;
  if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED) code = ErrorCode::unavailable;
  std::string sql = sqlite3_sql(stmt_) ? sqlite3_sql(stmt_) : "";
  if (sql.size() > 80) sql = sql.substr(0, 77) + "...";
  // The path, so a message read in a log of several runs says which store failed.
  const char* path = sqlite3_db_filename(db_, "main");
  return make_error(code, std::string(path != nullptr && *path != '\0' ? path : ":memory:") +
                              ": sqlite: " + sqlite3_errmsg(db_) + " (in: " + sql + ")");
}

Result<bool> Statement::step() {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return error(rc);
}

Status Statement::run() {
  PF_ASSIGN(bool row, step());
  (void)row;
  return ok_status();
}

void Statement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

bool Statement::is_null(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }

int64_t Statement::int64(int col) const { return sqlite3_column_int64(stmt_, col); }

double Statement::real(int col) const { return sqlite3_column_double(stmt_, col); }

std::optional<double> Statement::opt_real(int col) const {
  if (is_null(col)) return std::nullopt;
  return real(col);
}

std::string Statement::text(int col) const {
  const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, col));
  if (!p) return {};
  return std::string(p, static_cast<size_t>(sqlite3_column_bytes(stmt_, col)));
}

std::string Statement::blob(int col) const {
  const void* p = sqlite3_column_blob(stmt_, col);
  if (!p) return {};
  return std::string(static_cast<const char*>(p),
                     static_cast<size_t>(sqlite3_column_bytes(stmt_, col)));
}

}  // namespace pf::traj
