#include "prompts/prompt_variant.h"

#include "common/fs.h"
#include "common/sha256.h"

namespace pf::prompts {
namespace {

namespace fs = std::filesystem;

Error bad(const std::string& where, const std::string& what) {
  return make_error(ErrorCode::invalid_argument, where + ": " + what);
}

Status check_tools(const nlohmann::json& tools, const std::string& where) {
  if (!tools.is_array() || tools.empty()) {
    return bad(where, "must be a non-empty JSON array of {\"type\": \"function\", ...} schemas");
  }
  for (size_t i = 0; i < tools.size(); ++i) {
    const auto& t = tools[i];
    const std::string at = where + ": [" + std::to_string(i) + "]";
    if (!t.is_object() || t.value("type", "") != "function" || !t.contains("function") ||
        !t["function"].is_object()) {
      return bad(at, "expected {\"type\": \"function\", \"function\": {...}}");
    }
    const auto& f = t["function"];
    if (!f.contains("name") || !f["name"].is_string() || f["name"].get<std::string>().empty()) {
      return bad(at, "function.name must be a non-empty string");
    }
    if (f.contains("parameters") && !f["parameters"].is_object()) {
      return bad(at, "function.parameters must be a JSON schema object");
    }
  }
  return ok_status();
}

}  // namespace

std::string collapse_blank_lines(std::string_view text) {
  std::string out, indent;
  out.reserve(text.size());
  size_t newlines = 0;  // newlines since the last visible character
  for (char c : text) {
    if (c == '\n') {
      indent.clear();  // whitespace on a blank line is dropped
      if (++newlines > 2) continue;
      out.push_back(c);
    } else if ((c == ' ' || c == '\t') && newlines > 0) {
      indent.push_back(c);  // kept only if the line turns out not to be blank
    } else {
      out += indent;
      indent.clear();
      newlines = 0;
      out.push_back(c);
    }
  }
  return out;
}

std::string hash_files(const std::map<std::string, std::string>& files) {
  Sha256 h;
  for (const auto& [name, content] : files) {
    h.update(name).update(std::string_view("\0", 1));
    h.update(std::to_string(content.size())).update(std::string_view("\0", 1));
    h.update(content);
  }
  return h.hex_digest();
}

Result<PromptVariant> PromptVariant::load(const fs::path& prompts_dir, const std::string& name) {
  if (name.empty() || name.find('/') != std::string::npos || name == "." || name == "..") {
    return make_error(
        ErrorCode::invalid_argument,
        "prompt variant '" + name + "' must be a directory name under " + prompts_dir.string());
  }
  const fs::path dir = prompts_dir / name;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    std::string known;
    for (const auto& e : fs::directory_iterator(prompts_dir, ec)) {
      if (e.is_directory() && fs::exists(e.path() / kSystemFile)) {
        known += (known.empty() ? "" : ", ") + e.path().filename().string();
      }
    }
    return make_error(ErrorCode::not_found,
                      "no prompt variant '" + name + "': " + dir.string() + " is not a directory" +
                          (known.empty() ? "" : " (variants there: " + known + ")"));
  }
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string file = entry.path().filename().string();
    if (file.empty() || file[0] == '.') continue;
    if (!entry.is_regular_file()) continue;
    PF_ASSIGN(files[file], read_file(entry.path()));
  }
  if (ec) return make_error(ErrorCode::io_error, "reading " + dir.string() + ": " + ec.message());
  auto variant = from_files(name, std::move(files));
  if (!variant.ok()) return variant.error().with_context(dir.string());
  return variant;
}

Result<PromptVariant> PromptVariant::from_files(std::string name,
                                                std::map<std::string, std::string> files) {
  PromptVariant v;
  v.name_ = std::move(name);
  for (const char* required : {kSystemFile, kTaskFile, kFeedbackFile, kToolsFile, kMessagesFile}) {
    if (!files.count(required)) {
      return make_error(ErrorCode::not_found, std::string("missing ") + required);
    }
  }
  for (const auto& [file, content] : files) {
    if (file.size() > 3 && file.ends_with(".md")) {
      PF_TRY(check_template(content, file));
      v.partials_[file.substr(0, file.size() - 3)] = content;
    }
  }
  auto tools = nlohmann::json::parse(files[kToolsFile], nullptr, false);
  if (tools.is_discarded()) return bad(kToolsFile, "not valid JSON");
  PF_TRY(check_tools(tools, kToolsFile));
  v.tools_ = std::move(tools);

  auto messages = nlohmann::json::parse(files[kMessagesFile], nullptr, false);
  if (messages.is_discarded() || !messages.is_object()) {
    return bad(kMessagesFile, "must be a JSON object of \"key\": \"template\"");
  }
  for (const auto& [key, value] : messages.items()) {
    if (!value.is_string()) return bad(kMessagesFile, "\"" + key + "\" must be a string");
    PF_TRY(check_template(value.get<std::string>(), std::string(kMessagesFile) + ": " + key));
    v.messages_[key] = value.get<std::string>();
  }
  v.hash_ = hash_files(files);
  v.files_ = std::move(files);
  return v;
}

std::vector<std::string> PromptVariant::tool_names() const {
  std::vector<std::string> names;
  for (const auto& t : tools_) names.push_back(t["function"]["name"].get<std::string>());
  return names;
}

Result<std::string> PromptVariant::render(const std::string& file,
                                          const nlohmann::json& context) const {
  auto it = files_.find(file);
  if (it == files_.end()) {
    return make_error(ErrorCode::not_found, "prompt variant '" + name_ + "' has no file " + file);
  }
  PF_ASSIGN(std::string text, render_template(it->second, context, partials_, name_ + "/" + file));
  return collapse_blank_lines(text);
}

Result<std::string> PromptVariant::message(const std::string& key,
                                           const nlohmann::json& context) const {
  auto it = messages_.find(key);
  if (it == messages_.end()) {
    return make_error(ErrorCode::not_found, "prompt variant '" + name_ + "': " + kMessagesFile +
                                                " has no message \"" + key + "\"");
  }
  return render_template(it->second, context.is_object() ? context : nlohmann::json::object(),
                         partials_, name_ + "/" + kMessagesFile + ": " + key);
}

bool PromptVariant::has_message(const std::string& key) const {
  return messages_.count(key) > 0;
}

}  // namespace pf::prompts
