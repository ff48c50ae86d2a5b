// Expected failures as values: a compile error, a pass that does
// not match, an HTTP 429 or a bad config line travel as Error through threads
// and processes. Broken invariants use PF_CHECK (common/check.h) instead.
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace pf {

//! Coarse category of an expected failure; the message carries the detail.
enum class ErrorCode {
  invalid_argument,  // the caller (user, config, LLM) gave something malformed
  not_found,         // a file, task, op, kernel or key that does not exist
  unsupported,       // valid but not handled (an op we lack, no GPU, ...)
  parse_error,       // text that does not parse; message names file:line:col
  io_error,          // a system call failed; message names the call and errno
  timeout,
  unavailable,       // a peer (endpoint, worker, GPU) cannot serve now; retryable
  internal,          // a bug on our side, reported instead of aborting
};

const char* error_code_name(ErrorCode code);

struct [[nodiscard]] Error {
  ErrorCode code = ErrorCode::internal;
  std::string message;

  //! Prepends context ("loading tasks/x.json: ") while keeping the code.
  Error with_context(const std::string& context) const {
    return Error{code, context + ": " + message};
  }
};

inline Error make_error(ErrorCode code, std::string message) {
  return Error{code, std::move(message)};
}

//! Result<T>: a T or an Error. Result<void> is Status.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : data_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  Result(Error error) : data_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return data_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & {
    assert(ok());
    return std::get<0>(data_);
  }
  const T& value() const& {
    assert(ok());
    return std::get<0>(data_);
  }
  T&& value() && {
    assert(ok());
    return std::get<0>(std::move(data_));
  }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const Error& error() const& {
    assert(!ok());
    return std::get<1>(data_);
  }
  Error&& error() && {
    assert(!ok());
    return std::get<1>(std::move(data_));
  }

  T value_or(T fallback) const& { return ok() ? value() : std::move(fallback); }

 private:
  std::variant<T, Error> data_;
};

template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error) : error_(std::move(error)), ok_(false) {}  // NOLINT

  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const Error& error() const& {
    assert(!ok_);
    return error_;
  }
  Error&& error() && {
    assert(!ok_);
    return std::move(error_);
  }

 private:
  Error error_;
  bool ok_ = true;
};

using Status = Result<void>;

inline Status ok_status() { return Status(); }

}  // namespace pf

//! Propagates an Error from an expression returning Status/Result.
#define PF_TRY(expr)                                          \
  do {                                                        \
    auto pf_try_result_ = (expr);                             \
    if (!pf_try_result_.ok()) return std::move(pf_try_result_).error(); \
  } while (0)

#define PF_CONCAT_INNER(a, b) a##b
#define PF_CONCAT(a, b) PF_CONCAT_INNER(a, b)

//! `PF_ASSIGN(auto x, f())` declares x from a Result or returns its Error.
// `decl` is a declaration and `tmp` a name: neither can be parenthesised.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define PF_ASSIGN(decl, expr) PF_ASSIGN_IMPL(PF_CONCAT(pf_assign_, __LINE__), decl, expr)
#define PF_ASSIGN_IMPL(tmp, decl, expr)              \
  auto tmp = (expr);                                 \
  if (!tmp.ok()) return std::move(tmp).error();      \
  decl = std::move(tmp).value()
// NOLINTEND(bugprone-macro-parentheses)
