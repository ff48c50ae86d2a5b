// Who may read `passforge serve`. Loopback is the default and needs no token;
// any other address needs --token, checked on every request (page, API and
// asset alike) in constant time. Without a token the Host header must name
// the loopback too: a web page on another origin that rebinds its DNS name to
// 127.0.0.1 is refused (DNS rebinding). Thread-safe (immutable).
#pragma once

#include <string>

#include "common/result.h"

namespace pf::serve {

//! 127.0.0.0/8, ::1 and "localhost".
bool is_loopback_address(const std::string& host);

//! Errors: a non-loopback address without a token; a token shorter than 16
//! characters or with characters outside [A-Za-z0-9._~-].
Status check_bind(const std::string& host, const std::string& token);

//! What a request presents: its Host header, Authorization header, Cookie
//! header and ?token= query parameter.
struct Credentials {
  std::string host_header;
  std::string authorization;
  std::string cookie;
  std::string query_token;
};

enum class AccessVerdict { allowed, bad_host, bad_token };

class AccessGuard {
 public:
  explicit AccessGuard(std::string token) : token_(std::move(token)) {}

  AccessVerdict check(const Credentials& c) const;
  bool needs_token() const { return !token_.empty(); }
  //! The Set-Cookie value that lets a browser given ?token= keep reading.
  std::string session_cookie() const;

  static constexpr const char* kCookieName = "pf_serve_token";

 private:
  bool token_matches(const std::string& presented) const;
  std::string token_;
};

}  // namespace pf::serve
