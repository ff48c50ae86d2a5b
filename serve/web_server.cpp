#include "serve/web_server.h"

#include <httplib.h>
#include <spdlog/spdlog.h>

#include <atomic>

#include "agent/replay/background_listener.h"
#include "serve/access_guard.h"
#include "serve/episode_view.h"
#include "serve/experiment_view.h"
#include "serve/run_views.h"
#include "serve/static_assets.h"

namespace pf::serve {
namespace {

using nlohmann::json;

std::string dump(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

void send_error(httplib::Response& res, int status, const std::string& message) {
  res.status = status;
  res.set_content(dump({{"error", message}}), "application/json");
}

int status_for(const Error& e) {
  return e.code == ErrorCode::not_found ? 404 : 500;
}

template <class T>
void send_json(httplib::Response& res, const Result<T>& r) {
  if (!r.ok()) return send_error(res, status_for(r.error()), r.error().message);
  res.set_content(dump(*r), "application/json");
}

void send_svg(httplib::Response& res, const Result<std::string>& r) {
  if (!r.ok()) return send_error(res, status_for(r.error()), r.error().message);
  res.set_content(*r, "image/svg+xml");
}

// Pages are routed in the browser; the server hands each the same shell.
constexpr const char* kPageRoutes[] = {"/", R"(/run/[A-Za-z0-9._-]+)",
                                       R"(/run/[A-Za-z0-9._-]+/episode/.+)",
                                       R"(/run/[A-Za-z0-9._-]+/experiment)", "/experiments"};

}  // namespace

struct WebServer::Impl {
  RunCatalog catalog;
  WebServerOptions options;
  AccessGuard guard;
  httplib::Server server;
  BackgroundListener listener;  // after server: stops before it is destroyed
  int port = 0;

  Impl(RunCatalog c, WebServerOptions o)
      : catalog(std::move(c)), options(std::move(o)), guard(options.token) {}

  // Runs fn with the catalog entry named by the first capture, 404 otherwise.
  template <class Fn>
  httplib::Server::Handler with_run(Fn fn) {
    return [this, fn](const httplib::Request& req, httplib::Response& res) {
      auto entry = catalog.find(req.matches[1]);
      if (!entry) return send_error(res, 404, "no run '" + std::string(req.matches[1]) + "'");
      fn(*entry, req, res);
    };
  }

  httplib::Server::HandlerResponse admit(const httplib::Request& req, httplib::Response& res) {
    Credentials c{req.get_header_value("Host"), req.get_header_value("Authorization"),
                  req.get_header_value("Cookie"), req.get_param_value("token")};
    switch (guard.check(c)) {
      case AccessVerdict::allowed:
        if (!c.query_token.empty()) res.set_header("Set-Cookie", guard.session_cookie());
        return httplib::Server::HandlerResponse::Unhandled;
      case AccessVerdict::bad_host:
        send_error(res, 403,
                   "Host '" + c.host_header +
                       "' is not a loopback name (this server answers only "
                       "localhost/127.0.0.1/[::1] without --token)");
        return httplib::Server::HandlerResponse::Handled;
      case AccessVerdict::bad_token:
        res.set_header("WWW-Authenticate", "Bearer");
        send_error(res, 401,
                   "a valid token is required (Authorization: Bearer <token>, or "
                   "open the page once with ?token=<token>)");
        return httplib::Server::HandlerResponse::Handled;
    }
    return httplib::Server::HandlerResponse::Handled;
  }

  void install_routes() {
    server.set_pre_routing_handler(
        [this](const httplib::Request& req, httplib::Response& res) { return admit(req, res); });
    server.set_post_routing_handler([](const httplib::Request&, httplib::Response& res) {
      // The pages load only their own assets; nothing may frame them.
      res.set_header("Content-Security-Policy",
                     "default-src 'self'; img-src 'self' data:; style-src 'self'; "
                     "script-src 'self'; frame-ancestors 'none'; base-uri 'none'");
      res.set_header("X-Content-Type-Options", "nosniff");
      res.set_header("Referrer-Policy", "no-referrer");
      res.set_header("Cache-Control", "no-store");
    });
    auto shell = [](const httplib::Request&, httplib::Response& res) {
      const StaticAsset* page = find_static_asset("index.html");
      res.set_content(std::string(page->body), std::string(page->content_type));
    };
    for (const char* route : kPageRoutes) server.Get(route, shell);
    server.Get(R"(/assets/([A-Za-z0-9._-]+))",
               [](const httplib::Request& req, httplib::Response& res) {
                 const StaticAsset* a = find_static_asset(std::string(req.matches[1]));
                 if (!a)
                   return send_error(res, 404, "no asset '" + std::string(req.matches[1]) + "'");
                 res.set_content(std::string(a->body), std::string(a->content_type));
               });
    server.Get("/api/runs", [this](const httplib::Request&, httplib::Response& res) {
      json runs = json::array();
      for (const auto& entry : catalog.list()) {
        auto s = run_summary_json(entry);
        // One unreadable store does not hide the others.
        runs.push_back(s.ok() ? *s
                              : json{{"name", entry.name},
                                     {"path", entry.dir.string()},
                                     {"status", "unreadable"},
                                     {"error", s.error().message}});
      }
      res.set_content(dump({{"runs", runs}}), "application/json");
    });
    const std::string run = R"(/api/runs/([A-Za-z0-9._-]+))";
    server.Get(run, with_run([](const RunEntry& e, const httplib::Request&,
                                httplib::Response& res) { send_json(res, run_detail_json(e)); }));
    server.Get(run + R"(/episodes/(.+))",
               with_run([](const RunEntry& e, const httplib::Request& req, httplib::Response& res) {
                 send_json(res, episode_json(e, req.matches[2]));
               }));
    server.Get(run + R"(/charts/([a-z_]+)\.svg)",
               with_run([](const RunEntry& e, const httplib::Request& req, httplib::Response& res) {
                 send_svg(res, run_chart_svg(e, req.matches[2]));
               }));
    server.Get(run + "/experiment",
               with_run([](const RunEntry& e, const httplib::Request&, httplib::Response& res) {
                 send_json(res, experiment_json(e));
               }));
    server.Get(run + R"(/experiment\.svg)",
               with_run([](const RunEntry& e, const httplib::Request&, httplib::Response& res) {
                 send_svg(res, experiment_svg(e));
               }));
    server.Get(run + "/export",
               with_run([](const RunEntry& e, const httplib::Request&, httplib::Response& res) {
                 send_json(res, export_manifest_json(e));
               }));
    server.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
      if (!res.body.empty()) return;
      send_error(res, res.status,
                 req.method + " " + req.path + ": HTTP " + std::to_string(res.status) +
                     " (docs/serve.md lists the API)");
    });
    server.set_exception_handler(
        [](const httplib::Request&, httplib::Response& res, const std::exception_ptr& ep) {
          std::string what = "unknown exception";
          try {
            std::rethrow_exception(ep);
          } catch (const std::exception& e) {
            what = e.what();
          } catch (...) {
          }
          send_error(res, 500, "serve: " + what);
        });
  }
};

WebServer::WebServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

WebServer::~WebServer() {
  stop();
}

Result<std::unique_ptr<WebServer>> WebServer::start(RunCatalog catalog, WebServerOptions options) {
  PF_TRY(check_bind(options.host, options.token));
  auto impl = std::make_unique<Impl>(std::move(catalog), std::move(options));
  const auto& o = impl->options;
  size_t threads = static_cast<size_t>(std::max(o.threads, 1));
  impl->server.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  impl->server.set_keep_alive_timeout(2);
  impl->server.set_tcp_nodelay(true);
  impl->server.set_payload_max_length(1 << 16);  // it takes no uploads
  impl->install_routes();
  PF_ASSIGN(impl->port, impl->listener.start(impl->server, o.host, o.port, ""));
  return std::unique_ptr<WebServer>(new WebServer(std::move(impl)));
}

void WebServer::stop() {
  if (impl_) impl_->listener.stop();
}

int WebServer::port() const {
  return impl_->port;
}

std::string WebServer::url() const {
  return http_url(impl_->options.host, impl_->port, "/");
}

}  // namespace pf::serve
