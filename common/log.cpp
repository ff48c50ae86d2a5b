#include "common/log.h"

#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <vector>

namespace pf {

Status setup_logging(const LogOptions& options) {
  auto level = spdlog::level::from_str(options.level);
  if (level == spdlog::level::off && options.level != "off") {
    return make_error(ErrorCode::invalid_argument,
                      "unknown log level '" + options.level +
                          "' (use trace, debug, info, warn, error or off)");
  }
  std::vector<spdlog::sink_ptr> sinks;
  sinks.push_back(std::make_shared<spdlog::sinks::stderr_color_sink_mt>());
  if (!options.file.empty()) {
    try {
      sinks.push_back(std::make_shared<spdlog::sinks::basic_file_sink_mt>(options.file));
    } catch (const spdlog::spdlog_ex& e) {
      return make_error(ErrorCode::io_error, std::string("log file: ") + e.what());
    }
  }
  auto logger = std::make_shared<spdlog::logger>("passforge", sinks.begin(), sinks.end());
  logger->set_level(level);
  logger->set_pattern("%Y-%m-%d %H:%M:%S.%e %^%l%$ %v");
  spdlog::set_default_logger(logger);
  return ok_status();
}

}  // namespace pf
