#include "agent/llm/llm_options.h"

#include "common/strings.h"

namespace pf::llm {
namespace {

Status positive(double v, const char* field) {
  if (v > 0) return ok_status();
  return make_error(ErrorCode::invalid_argument, std::string("endpoint.") + field +
                                                     " must be > 0 (got " + format_double(v) + ")");
}

}  // namespace

Status LlmOptions::validate() const {
  if (!starts_with(base_url, "http://") && !starts_with(base_url, "https://")) {
    return make_error(ErrorCode::invalid_argument,
                      "endpoint.base_url must start with http:// or https:// (got '" + base_url +
                          "'), e.g. http://127.0.0.1:8000/v1");
  }
  for (const auto& url : base_urls) {
    if (!starts_with(url, "http://") && !starts_with(url, "https://")) {
      return make_error(ErrorCode::invalid_argument,
                        "endpoint.base_urls: '" + url + "' must start with http:// or https://");
    }
  }
  PF_TRY(positive(request_timeout_s, "request_timeout_s"));
  PF_TRY(positive(connect_timeout_s, "connect_timeout_s"));
  PF_TRY(positive(models_timeout_s, "models_timeout_s"));
  PF_TRY(positive(stream_idle_timeout_s, "stream_idle_timeout_s"));
  PF_TRY(positive(backoff_initial_s, "backoff_initial_s"));
  PF_TRY(positive(backoff_max_s, "backoff_max_s"));
  if (max_attempts < 1) {
    return make_error(ErrorCode::invalid_argument, "endpoint.max_attempts must be >= 1");
  }
  if (max_concurrent < 1) {
    return make_error(ErrorCode::invalid_argument, "endpoint.max_concurrent must be >= 1");
  }
  if (max_retry_time_s < 0 || requests_per_minute < 0 || tokens_per_minute < 0) {
    return make_error(
        ErrorCode::invalid_argument,
        "endpoint.max_retry_time_s, requests_per_minute and tokens_per_minute must be "
        ">= 0");
  }
  if (!extra.is_object()) {
    return make_error(ErrorCode::invalid_argument, "endpoint.extra must be a table (JSON object)");
  }
  return ok_status();
}

}  // namespace pf::llm
