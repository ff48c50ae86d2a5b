// The shipped configs/ files: each one loads, and quickstart.toml stays a
// complete, truthful tour of every key.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <regex>

#include "common/fs.h"
#include "common/strings.h"
#include "config/config_fields.h"
#include "config/config_json.h"
#include "tests/unit/config/config_test_util.h"

namespace pf {
namespace {

const std::string kConfigsDir = PF_SOURCE_DIR "/configs";
const std::string kQuickstart = kConfigsDir + "/quickstart.toml";

TEST(ConfigFiles, EveryShippedConfigValidates) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kConfigsDir)) {
    if (entry.path().extension() != ".toml") continue;
    // Experiment specs (ab-*.toml, improve-*.toml) name a base config and are
    // checked by the experiments suites.
    auto text = read_file(entry.path());
    if (text.ok() && std::regex_search(*text, std::regex(R"((^|\n)base_config\s*=)"))) continue;
    ++count;
    auto r = load_config({entry.path().string(), {}, testing_util::no_env});
    EXPECT_TRUE(r.ok()) << entry.path() << ":\n" << (r.ok() ? "" : r.error().message);
  }
  EXPECT_GE(count, 2) << "quickstart.toml and passbench-eval.toml at least";
}

struct Mention {
  int line = 0;
  std::string text;
};

// key -> the line naming it, set or commented out (`# seed = 0`); a table
// key may be written as its own [section.key] header.
std::map<std::string, Mention> mentions(const std::string& text) {
  static const std::regex kHeader(R"(^\s*#?\s*\[([A-Za-z0-9_.]+)\]\s*(#.*)?$)");
  static const std::regex kKey(R"(^\s*#?\s*([A-Za-z0-9_]+)\s*=.*$)");
  std::map<std::string, Mention> out;
  std::string section;
  auto lines = split(text, '\n');
  for (size_t i = 0; i < lines.size(); ++i) {
    std::smatch m;
    if (std::regex_match(lines[i], m, kHeader)) {
      section = m[1];
      out.emplace(section, Mention{static_cast<int>(i + 1), lines[i]});
    } else if (std::regex_match(lines[i], m, kKey)) {
      std::string above = i > 0 ? std::string(trim(lines[i - 1])) : "";
      std::string text_with_comment = lines[i] + (starts_with(above, "#") ? "\n" + above : "");
      out.emplace(section + "." + std::string(m[1]),
                  Mention{static_cast<int>(i + 1), text_with_comment});
    }
  }
  return out;
}

TEST(ConfigFiles, QuickstartMentionsEveryKeyWithAComment) {
  auto text = read_file(kQuickstart);
  ASSERT_TRUE(text.ok()) << text.error().message;
  auto found = mentions(*text);
  Config c;
  for (const auto& f : describe_fields(c)) {
    auto it = found.find(f.key());
    if (it == found.end()) {
      ADD_FAILURE() << "configs/quickstart.toml does not mention " << f.key() << " (" << f.doc
                    << ")";
      continue;
    }
    const std::string& t = it->second.text;
    bool commented_out = starts_with(trim(t), "#");
    size_t hashes = std::count(t.begin(), t.end(), '#');
    EXPECT_GE(hashes, commented_out ? 2u : 1u)
        << "quickstart.toml:" << it->second.line << ": " << f.key() << " needs a one-line comment";
  }
}

// Quickstart shows the defaults; where it deliberately differs, the line says
// what the default is.
TEST(ConfigFiles, QuickstartValuesAreDefaultsOrSayTheDefault) {
  auto loaded = load_config({kQuickstart, {}, testing_util::no_env});
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  auto lines = split(read_file(kQuickstart).value(), '\n');
  Config defaults;
  auto default_fields = describe_fields(defaults);
  auto fields = describe_fields(loaded->config);
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].get() == default_fields[i].get()) continue;
    std::string source = loaded->source_of(fields[i].key());
    int line = std::stoi(source.substr(source.rfind(':') + 1));
    EXPECT_NE(lines[line - 1].find("default"), std::string::npos)
        << "quickstart.toml:" << line << ": " << fields[i].key()
        << " differs from the default; its comment must say the default";
  }
}

}  // namespace
}  // namespace pf
