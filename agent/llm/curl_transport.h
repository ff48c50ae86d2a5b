// HTTP over libcurl for the LLM client. Connections are reused: finished easy
// handles go back to a pool (each keeps its connection cache) and all share
// one DNS / TLS-session cache. Thread-safe: perform() may run on many threads.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "agent/llm/cancel_token.h"

namespace pf::llm {

struct HttpRequest {
  std::string method = "POST";  // POST or GET
  std::string url;
  std::vector<std::string> headers;  // "Name: value"
  std::string body;
  double timeout_s = 600;  // whole transfer
  double connect_timeout_s = 10;
  //! Abort when no byte arrived for this long once the response started
  //! (streaming); 0 disables. Time to first byte is bounded by timeout_s.
  double idle_timeout_s = 0;
  const CancelToken* cancel = nullptr;
};

enum class TransportError {
  none,          // an HTTP response arrived completely (any status)
  timeout,       // timeout_s or connect_timeout_s passed
  idle_timeout,  // idle_timeout_s passed between bytes
  connection,    // could not connect, reset, nothing received, TLS failure
  truncated,     // the connection closed before the announced body ended
  cancelled,
  other,
};

struct HttpReply {
  TransportError error = TransportError::none;
  std::string error_message;  // curl's explanation when error != none
  long status = 0;
  std::map<std::string, std::string> headers;  // names lower-cased, of the final response
  std::string body;
  double latency_s = 0;
  //! Times libcurl sent the request again by itself on a fresh connection
  //! (a reused one died before any response byte).
  int resends = 0;
};

class CurlTransport {
 public:
  CurlTransport();
  ~CurlTransport();
  CurlTransport(const CurlTransport&) = delete;
  CurlTransport& operator=(const CurlTransport&) = delete;

  HttpReply perform(const HttpRequest& request);

 private:
  struct Shared;
  void* acquire_handle();
  void release_handle(void* handle);

  std::unique_ptr<Shared> shared_;
  std::mutex pool_mutex_;
  std::vector<void*> idle_handles_;
};

}  // namespace pf::llm
