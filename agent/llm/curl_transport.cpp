#include "agent/llm/curl_transport.h"

#include <curl/curl.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>

#include "common/strings.h"

namespace pf::llm {
namespace {

// Idle handles kept for reuse; more are created on demand and freed after use.
constexpr size_t kMaxIdleHandles = 64;

using SteadyClock = std::chrono::steady_clock;

void global_init_once() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct TransferState {
  HttpReply* reply;
  const HttpRequest* request;
  SteadyClock::time_point last_byte;
  bool got_bytes = false;
  bool idle_expired = false;
  bool cancelled = false;
};

size_t on_body(char* data, size_t size, size_t count, void* user) {
  auto* state = static_cast<TransferState*>(user);
  state->reply->body.append(data, size * count);
  state->last_byte = SteadyClock::now();
  state->got_bytes = true;
  return size * count;
}

size_t on_header(char* data, size_t size, size_t count, void* user) {
  auto* state = static_cast<TransferState*>(user);
  std::string_view line(data, size * count);
  state->last_byte = SteadyClock::now();
  if (starts_with(line, "HTTP/")) {
    state->reply->headers.clear();  // a new response (after 100 Continue or a redirect)
    return size * count;
  }
  auto colon = line.find(':');
  if (colon == std::string_view::npos) return size * count;
  std::string name(trim(line.substr(0, colon)));
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  state->reply->headers[name] = std::string(trim(line.substr(colon + 1)));
  return size * count;
}

// libcurl re-sends a request by itself when a reused connection dies before
// any response byte (the server closed it while idle); it says so only in its
// verbose text. The server may have received and billed the first send, so
// the client must count it as an attempt.
int on_debug(CURL*, curl_infotype type, char* data, size_t size, void* user) {
  if (type != CURLINFO_TEXT) return 0;
  std::string_view text(data, size);
  if (text.find("retrying a fresh connect") != std::string_view::npos) {
    ++static_cast<TransferState*>(user)->reply->resends;
  }
  return 0;
}

int on_progress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  auto* state = static_cast<TransferState*>(user);
  if (state->request->cancel != nullptr && state->request->cancel->cancelled()) {
    state->cancelled = true;
    return 1;
  }
  if (state->request->idle_timeout_s > 0 && state->got_bytes) {
    double idle = std::chrono::duration<double>(SteadyClock::now() - state->last_byte).count();
    if (idle > state->request->idle_timeout_s) {
      state->idle_expired = true;
      return 1;
    }
  }
  return 0;
}

TransportError classify(CURLcode code, const TransferState& state) {
  switch (code) {
    case CURLE_OK:
      return TransportError::none;
    case CURLE_OPERATION_TIMEDOUT:
      return TransportError::timeout;
    case CURLE_ABORTED_BY_CALLBACK:
      if (state.cancelled) return TransportError::cancelled;
      if (state.idle_expired) return TransportError::idle_timeout;
      return TransportError::other;
    case CURLE_PARTIAL_FILE:
      return TransportError::truncated;
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_CONNECT:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
      return TransportError::connection;
    default:
      return TransportError::other;
  }
}

}  // namespace

// The share object and the locks libcurl asks for around its shared caches.
struct CurlTransport::Shared {
  CURLSH* share = nullptr;
  std::array<std::mutex, CURL_LOCK_DATA_LAST> locks;

  Shared() {
    share = curl_share_init();
    if (share == nullptr) return;  // still works, without the shared caches
    curl_share_setopt(share, CURLSHOPT_LOCKFUNC, &Shared::lock);
    curl_share_setopt(share, CURLSHOPT_UNLOCKFUNC, &Shared::unlock);
    curl_share_setopt(share, CURLSHOPT_USERDATA, this);
    // Not CURL_LOCK_DATA_CONNECT: libcurl does not support sharing connections
    // between concurrent threads; the handle pool gives reuse instead.
    curl_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS);
    curl_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
  }
  ~Shared() {
    if (share != nullptr) curl_share_cleanup(share);
  }
  static void lock(CURL*, curl_lock_data data, curl_lock_access, void* user) {
    static_cast<Shared*>(user)->locks[static_cast<size_t>(data)].lock();
  }
  static void unlock(CURL*, curl_lock_data data, void* user) {
    static_cast<Shared*>(user)->locks[static_cast<size_t>(data)].unlock();
  }
};

CurlTransport::CurlTransport() {
  global_init_once();
  shared_ = std::make_unique<Shared>();
}

CurlTransport::~CurlTransport() {
  for (void* h : idle_handles_) curl_easy_cleanup(static_cast<CURL*>(h));
}

void* CurlTransport::acquire_handle() {
  {
    std::lock_guard lock(pool_mutex_);
    if (!idle_handles_.empty()) {
      void* h = idle_handles_.back();
      idle_handles_.pop_back();
      return h;
    }
  }
  return curl_easy_init();
}

void CurlTransport::release_handle(void* handle) {
  std::lock_guard lock(pool_mutex_);
  if (idle_handles_.size() < kMaxIdleHandles) {
    idle_handles_.push_back(handle);
  } else {
    curl_easy_cleanup(static_cast<CURL*>(handle));
  }
}

HttpReply CurlTransport::perform(const HttpRequest& request) {
  HttpReply reply;
  auto* curl = static_cast<CURL*>(acquire_handle());
  if (curl == nullptr) {
    reply.error = TransportError::other;
    reply.error_message = "curl_easy_init failed (out of memory?)";
    return reply;
  }
  // Reset keeps the handle's live connections while clearing every option.
  curl_easy_reset(curl);
  TransferState state{&reply, &request, SteadyClock::now()};
  std::array<char, CURL_ERROR_SIZE> error_buffer{};

  curl_slist* headers = nullptr;
  for (const auto& h : request.headers) headers = curl_slist_append(headers, h.c_str());
  headers = curl_slist_append(headers, "Expect:");  // no 100-continue round trip for big bodies

  curl_easy_setopt(curl, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  if (request.method == "POST") {
    curl_easy_setopt(curl, CURLOPT_POST, 1L);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.data());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE,
                     static_cast<curl_off_t>(request.body.size()));
  } else {
    curl_easy_setopt(curl, CURLOPT_HTTPGET, 1L);
  }
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);  // required with threads
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(request.timeout_s * 1000));
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS,
                   static_cast<long>(request.connect_timeout_s * 1000));
  curl_easy_setopt(curl, CURLOPT_TCP_KEEPALIVE, 1L);
  curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");  // whatever libcurl can decode
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error_buffer.data());
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &on_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &state);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, &on_header);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &state);
  curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, &on_progress);
  curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &state);
  curl_easy_setopt(curl, CURLOPT_VERBOSE, 1L);  // to on_debug only, never to stderr
  curl_easy_setopt(curl, CURLOPT_DEBUGFUNCTION, &on_debug);
  curl_easy_setopt(curl, CURLOPT_DEBUGDATA, &state);
  if (shared_->share != nullptr) curl_easy_setopt(curl, CURLOPT_SHARE, shared_->share);

  auto start = SteadyClock::now();
  CURLcode code = curl_easy_perform(curl);
  reply.latency_s = std::chrono::duration<double>(SteadyClock::now() - start).count();
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &reply.status);
  reply.error = classify(code, state);
  if (reply.error != TransportError::none) {
    reply.error_message = error_buffer[0] != '\0' ? std::string(error_buffer.data())
                                                  : std::string(curl_easy_strerror(code));
    if (reply.error == TransportError::idle_timeout) {
      reply.error_message = "no data for " + format_double(request.idle_timeout_s) +
                            " s while streaming (stream_idle_timeout_s)";
    } else if (reply.error == TransportError::cancelled) {
      reply.error_message = "cancelled";
    }
  }
  curl_slist_free_all(headers);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, nullptr);
  release_handle(curl);
  return reply;
}

}  // namespace pf::llm
