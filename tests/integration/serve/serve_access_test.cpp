// Who may read `passforge serve`, tried the way an attacker would: no token,
// a wrong one, a prefix of the right one, a page of another origin reaching
// the loopback through DNS rebinding, paths that climb out of the catalog.
#include <gtest/gtest.h>
#include <httplib.h>

#include "serve/access_guard.h"
#include "serve/web_server.h"
#include "tests/integration/serve/replay_run.h"

namespace pf::serve {
namespace {

const std::string kToken = "0123456789abcdef-serve-token";

std::unique_ptr<WebServer> start(const std::string& token) {
  auto catalog = RunCatalog::create({{serve_test::replay_run_dir()}, {}});
  if (!catalog.ok()) return nullptr;
  WebServerOptions o;
  o.port = 0;
  o.token = token;
  auto server = WebServer::start(std::move(catalog).value(), o);
  return server.ok() ? std::move(server).value() : nullptr;
}

int status(httplib::Client& c, const std::string& path, const httplib::Headers& headers = {}) {
  auto res = c.Get(path.c_str(), headers);
  return res ? res->status : -1;
}

TEST(ServeAccess, OffTheLoopbackATokenIsRequired) {
  EXPECT_FALSE(check_bind("0.0.0.0", "").ok());
  EXPECT_FALSE(check_bind("192.168.1.20", "").ok());
  EXPECT_FALSE(check_bind("::", "").ok());
  EXPECT_TRUE(check_bind("0.0.0.0", kToken).ok());
  EXPECT_TRUE(check_bind("127.0.0.1", "").ok());
  EXPECT_TRUE(check_bind("::1", "").ok());
  EXPECT_TRUE(check_bind("localhost", "").ok());
  EXPECT_FALSE(check_bind("127.0.0.1", "short").ok()) << "a guessable token";
  EXPECT_FALSE(check_bind("0.0.0.0", "0123456789abcdef; Path=/x").ok()) << "cookie injection";
  auto catalog = RunCatalog::create({{serve_test::replay_run_dir()}, {}});
  ASSERT_TRUE(catalog.ok());
  WebServerOptions o;
  o.host = "0.0.0.0";
  o.port = 0;
  EXPECT_FALSE(WebServer::start(std::move(catalog).value(), o).ok());
}

TEST(ServeAccess, EveryRequestNeedsTheTokenWhenOneIsSet) {
  auto server = start(kToken);
  ASSERT_TRUE(server);
  httplib::Client c("127.0.0.1", server->port());
  for (const char* path : {"/", "/api/runs", "/api/runs/replay", "/assets/app.js",
                           "/api/runs/replay/charts/es_curve.svg", "/no/such/path"}) {
    EXPECT_EQ(status(c, path), 401) << path;
    EXPECT_EQ(status(c, path, {{"Authorization", "Bearer wrong-token-wrong-token"}}), 401) << path;
    EXPECT_EQ(status(c, path, {{"Authorization", "Bearer " + kToken.substr(0, 20)}}), 401) << path;
    EXPECT_EQ(status(c, path, {{"Authorization", "Bearer " + kToken + "x"}}), 401) << path;
    EXPECT_EQ(status(c, path, {{"Cookie", "pf_serve_token=" + kToken + "0"}}), 401) << path;
  }
  EXPECT_EQ(status(c, "/api/runs", {{"Authorization", "Bearer " + kToken}}), 200);
  EXPECT_EQ(status(c, "/api/runs", {{"Cookie", "a=b; pf_serve_token=" + kToken}}), 200);
  auto first = c.Get(("/?token=" + kToken).c_str());
  ASSERT_TRUE(first);
  EXPECT_EQ(first->status, 200);
  std::string cookie = first->get_header_value("Set-Cookie");
  EXPECT_NE(cookie.find("HttpOnly"), std::string::npos) << cookie;
  EXPECT_NE(cookie.find("SameSite=Strict"), std::string::npos) << cookie;
  EXPECT_EQ(status(c, "/api/runs", {{"Cookie", cookie.substr(0, cookie.find(';'))}}), 200);
}

TEST(ServeAccess, WithoutATokenOnlyLoopbackHostNamesAreAnswered) {
  auto server = start("");
  ASSERT_TRUE(server);
  httplib::Client c("127.0.0.1", server->port());
  // A page on attacker.example whose name now resolves to 127.0.0.1.
  EXPECT_EQ(status(c, "/api/runs", {{"Host", "attacker.example:8765"}}), 403);
  EXPECT_EQ(status(c, "/api/runs", {{"Host", "127.0.0.1.attacker.example"}}), 403);
  EXPECT_EQ(status(c, "/", {{"Host", "localhost.attacker.example"}}), 403);
  EXPECT_EQ(status(c, "/api/runs", {{"Host", "localhost:8765"}}), 200);
  EXPECT_EQ(status(c, "/api/runs", {{"Host", "[::1]:8765"}}), 200);
  EXPECT_EQ(status(c, "/api/runs"), 200);
}

TEST(ServeAccess, PathsCannotClimbOutOfTheCatalogOrTheAssets) {
  auto server = start("");
  ASSERT_TRUE(server);
  httplib::Client c("127.0.0.1", server->port());
  for (const char* path : {"/assets/../CMakeLists.txt", "/assets/%2e%2e%2fCMakeLists.txt",
                           "/api/runs/..", "/api/runs/%2e%2e%2f%2e%2e%2fetc",
                           "/api/runs/..%2freplay", "/assets/..%2f..%2fREADME.md"}) {
    int s = status(c, path);
    EXPECT_TRUE(s == 404 || s == 400) << path << " -> " << s;
  }
  EXPECT_EQ(status(c, "/api/runs/replay/episodes/x'%20OR%20'1'='1"), 404) << "SQL is bound";
}

TEST(ServeAccess, OnlyReads) {
  auto server = start("");
  ASSERT_TRUE(server);
  httplib::Client c("127.0.0.1", server->port());
  auto post = c.Post("/api/runs", "{}", "application/json");
  ASSERT_TRUE(post);
  EXPECT_GE(post->status, 400);
  auto del = c.Delete("/api/runs/replay");
  ASSERT_TRUE(del);
  EXPECT_GE(del->status, 400);
}

}  // namespace
}  // namespace pf::serve
