#include "prompts/template_renderer.h"

#include <kainjow/mustache.hpp>

#include "common/strings.h"

namespace pf::prompts {
namespace {

namespace mst = kainjow::mustache;

mst::data to_data(const nlohmann::json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::object: {
      mst::data d{mst::data::type::object};
      for (const auto& [key, value] : j.items()) d.set(key, to_data(value));
      return d;
    }
    case nlohmann::json::value_t::array: {
      mst::data d{mst::data::type::list};
      for (const auto& item : j) d.push_back(to_data(item));
      return d;
    }
    case nlohmann::json::value_t::string: {
      const auto& s = j.get_ref<const std::string&>();
      if (s.empty()) return mst::data{false};
      return mst::data{s};
    }
    case nlohmann::json::value_t::boolean:
      return mst::data{j.get<bool>()};
    case nlohmann::json::value_t::number_integer:
      return mst::data{std::to_string(j.get<int64_t>())};
    case nlohmann::json::value_t::number_unsigned:
      return mst::data{std::to_string(j.get<uint64_t>())};
    case nlohmann::json::value_t::number_float:
      return mst::data{format_double(j.get<double>())};
    default:
      return mst::data{false};
  }
}

}  // namespace

Status check_template(std::string_view text, const std::string& source) {
  mst::mustache tpl{std::string(text)};
  if (!tpl.is_valid()) {
    return make_error(ErrorCode::parse_error, source + ": " + tpl.error_message());
  }
  return ok_status();
}

Result<std::string> render_template(std::string_view text, const nlohmann::json& context,
                                    const Partials& partials, const std::string& source) {
  mst::mustache tpl{std::string(text)};
  if (!tpl.is_valid()) {
    return make_error(ErrorCode::parse_error, source + ": " + tpl.error_message());
  }
  tpl.set_custom_escape([](const std::string& s) { return s; });
  mst::data data = context.is_object() ? to_data(context) : mst::data{mst::data::type::object};
  for (const auto& [name, partial_text] : partials) {
    if (context.is_object() && context.contains(name)) continue;  // the context wins
    std::string copy = partial_text;
    data.set(name, mst::data{mst::partial{[copy] { return copy; }}});
  }
  std::string out = tpl.render(data);
  if (!tpl.is_valid()) {
    return make_error(ErrorCode::invalid_argument,
                      source + ": rendering failed: " + tpl.error_message());
  }
  return out;
}

}  // namespace pf::prompts
