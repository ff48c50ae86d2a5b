// Backoff between attempts: exponential with full jitter, unless the server
// said how long to wait (Retry-After).
#pragma once

#include <chrono>
#include <optional>
#include <string_view>

namespace pf::llm {

//! Full-jitter exponential backoff: `u01 * min(max_s, initial_s * 2^(retry-1))`
//! for the retry-th retry (1-based); `u01` is a uniform sample in [0, 1).
double backoff_delay_s(int retry, double initial_s, double max_s, double u01);

//! Seconds to wait from a Retry-After value: delta-seconds ("120", also a
//! decimal "1.5") or an HTTP date (IMF-fixdate, RFC 850, asctime) relative to
//! `now` (a past date gives 0). nullopt when the value is neither.
std::optional<double> parse_retry_after(std::string_view value,
                                        std::chrono::system_clock::time_point now);

//! Seconds from a `retry-after-ms` value (OpenAI sends it beside Retry-After).
std::optional<double> parse_retry_after_ms(std::string_view value);

}  // namespace pf::llm
