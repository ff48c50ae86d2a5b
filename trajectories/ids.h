// Stable identifiers and timestamps. Ids are what make `merge` loss-free and
// duplicate-free: a run id is unique across machines (UTC time + 32 random
// bits), every other id is derived from it, and message / LLM-call identity is
// (episode id, seq) / (episode id, turn).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pf::traj {

//! "20250131T120000Z-1a2b3c4d": sorts by start time; never contains ':'.
std::string make_run_id();

//! "<run id>:<task id>:s<sample>".
std::string episode_id(std::string_view run_id, std::string_view task_id, int64_t sample);

//! "<episode id>:t<turn>:e<index>" (index counts evaluations within the turn).
std::string evaluation_id(std::string_view episode_id, int64_t turn, int64_t index);

//! Current UTC time as "2025-01-31T12:00:00.123Z".
std::string now_iso8601();

//! Seconds since the Unix epoch of a timestamp written by now_iso8601 (also
//! accepts no fraction and a missing 'Z'); nullopt when it does not parse.
std::optional<double> parse_iso8601(std::string_view text);

}  // namespace pf::traj
