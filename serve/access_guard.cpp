#include "serve/access_guard.h"

#include <arpa/inet.h>

#include <cctype>

#include "common/sha256.h"

namespace pf::serve {
namespace {

constexpr size_t kMinTokenLength = 16;

// The host part of a Host header: "[::1]:8765" -> "::1", "a:80" -> "a".
std::string host_of(const std::string& header) {
  if (!header.empty() && header[0] == '[') {
    auto close = header.find(']');
    return close == std::string::npos ? header : header.substr(1, close - 1);
  }
  auto colon = header.find(':');
  return colon == std::string::npos ? header : header.substr(0, colon);
}

std::string cookie_value(const std::string& cookies, const std::string& name) {
  size_t pos = 0;
  while (pos < cookies.size()) {
    size_t end = cookies.find(';', pos);
    if (end == std::string::npos) end = cookies.size();
    std::string part = cookies.substr(pos, end - pos);
    size_t start = part.find_first_not_of(' ');
    if (start != std::string::npos) part = part.substr(start);
    if (part.rfind(name + "=", 0) == 0) return part.substr(name.size() + 1);
    pos = end + 1;
  }
  return "";
}

}  // namespace

bool is_loopback_address(const std::string& host) {
  if (host == "localhost") return true;
  in_addr v4{};
  if (inet_pton(AF_INET, host.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6{};
  if (inet_pton(AF_INET6, host.c_str(), &v6) == 1) return IN6_IS_ADDR_LOOPBACK(&v6);
  return false;
}

Status check_bind(const std::string& host, const std::string& token) {
  if (!token.empty() && token.size() < kMinTokenLength) {
    return make_error(ErrorCode::invalid_argument,
                      "--token must be at least " + std::to_string(kMinTokenLength) +
                          " characters (e.g. from `openssl rand -hex 16`)");
  }
  for (char ch : token) {
    bool ok = std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_' || ch == '.' ||
              ch == '~';
    if (!ok) {
      return make_error(ErrorCode::invalid_argument,
                        "--token may hold only letters, digits and - _ . ~ (it travels in a "
                        "cookie and a URL)");
    }
  }
  if (!is_loopback_address(host) && token.empty()) {
    return make_error(ErrorCode::invalid_argument,
                      "--host " + host +
                          " is not a loopback address: anyone who reaches it could read the "
                          "runs; give --token (every request must carry it)");
  }
  return ok_status();
}

bool AccessGuard::token_matches(const std::string& presented) const {
  // Comparing digests keeps the time independent of where the strings differ
  // and of the presented length.
  std::string a = sha256_hex(presented), b = sha256_hex(token_);
  unsigned char diff = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  }
  return diff == 0 && a.size() == b.size();
}

AccessVerdict AccessGuard::check(const Credentials& c) const {
  if (token_.empty()) {
    return is_loopback_address(host_of(c.host_header)) ? AccessVerdict::allowed
                                                       : AccessVerdict::bad_host;
  }
  const std::string bearer = "Bearer ";
  std::string presented;
  if (c.authorization.rfind(bearer, 0) == 0) {
    presented = c.authorization.substr(bearer.size());
  } else if (!c.query_token.empty()) {
    presented = c.query_token;
  } else {
    presented = cookie_value(c.cookie, kCookieName);
  }
  return !presented.empty() && token_matches(presented) ? AccessVerdict::allowed
                                                        : AccessVerdict::bad_token;
}

std::string AccessGuard::session_cookie() const {
  return std::string(kCookieName) + "=" + token_ + "; Path=/; HttpOnly; SameSite=Strict";
}

}  // namespace pf::serve
