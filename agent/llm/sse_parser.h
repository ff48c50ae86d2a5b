// Incremental parser of a text/event-stream body (the WHATWG server-sent
// events format): bytes go in as they arrive, complete events come out.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace pf::llm {

struct SseEvent {
  std::string event;  // the `event:` field, "" for the default type
  std::string data;   // `data:` lines joined with '\n'
};

//! Not thread-safe; one per stream.
class SseParser {
 public:
  //! Consumes a chunk (any split, even inside a line or a CRLF pair) and
  //! returns the events it completed. Comment lines (":" ...) and the `id` /
  //! `retry` fields are ignored.
  std::vector<SseEvent> feed(std::string_view chunk);

  //! End of stream: a final line without its newline, and an event without
  //! its blank line, are still delivered (servers often end with "data: [DONE]\n").
  std::vector<SseEvent> finish();

 private:
  void process_line(std::string_view line, std::vector<SseEvent>& out);
  void dispatch(std::vector<SseEvent>& out);

  std::string line_;
  bool after_cr_ = false;
  bool has_data_ = false;
  SseEvent pending_;
};

}  // namespace pf::llm
