#include "config/config_fields.h"

#include <gtest/gtest.h>

#include <set>

#include "common/fs.h"
#include "config/config_json.h"
#include "config/config_loader.h"

namespace pf {
namespace {

using nlohmann::json;

TEST(ConfigFields, EveryKeyIsDescribedOnceAndDefaultsPassTheirOwnChecks) {
  Config c;
  auto fields = describe_fields(c);
  EXPECT_GT(fields.size(), 50u);
  std::set<std::string> keys;
  for (auto& f : fields) {
    EXPECT_TRUE(keys.insert(f.key()).second) << "duplicate key " << f.key();
    EXPECT_FALSE(f.doc.empty()) << f.key();
    EXPECT_EQ(f.doc.find('\n'), std::string::npos) << f.key() << ": docs are one line";
    json before = f.get();
    auto st = f.set(before);
    EXPECT_TRUE(st.ok()) << f.key() << ": " << st.error().message;
    EXPECT_EQ(f.get(), before) << f.key();
  }
  EXPECT_TRUE(validate_config(c).empty());
}

TEST(ConfigFields, SectionsInFileOrder) {
  EXPECT_EQ(config_sections(), (std::vector<std::string>{"endpoint", "endpoint.sampling", "agent",
                                                         "evaluator", "run", "prompts"}));
}

TEST(ConfigFields, ChoicesAreTheEnumNames) {
  Config c;
  for (const auto& f : describe_fields(c)) {
    if (f.key() == "agent.context_policy") {
      EXPECT_EQ(f.choices, (std::vector<std::string>{"keep_all", "drop_reasoning", "last_n_reports"}));
    }
  }
  EXPECT_STREQ(to_string(CompileOnly::auto_detect), "auto");
  EXPECT_STREQ(to_string(ScoringMode::graphnet), "graphnet");
  EXPECT_STREQ(to_string(Config{}.evaluator.scoring_mode), "strict");
}

TEST(ConfigJson, RoundTripKeepsEveryValue) {
  auto loaded = load_config({"",
                             {"agent.mode=chat", "endpoint.sampling.seed=3", "evaluator.gpus=[1]",
                              "endpoint.extra.top_k=20", "run.tasks=[\"a\", \"b\"]",
                              "evaluator.b=0.25"},
                             [](const std::string&) { return std::optional<std::string>(); }});
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  json j = config_to_json(loaded->config);
  EXPECT_EQ(j["agent"]["mode"], "chat");
  EXPECT_EQ(j["endpoint"]["sampling"]["seed"], 3);
  EXPECT_TRUE(j["endpoint"]["sampling"]["max_tokens"].is_null());
  EXPECT_EQ(j["endpoint"]["extra"]["top_k"], 20);
  EXPECT_EQ(j["evaluator"]["gpus"], json::array({1}));
  auto back = config_from_json(j);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(config_to_json(*back), j);
}

TEST(ConfigJson, MissingKeysDefaultUnknownKeysFail) {
  auto partial = config_from_json(json::parse(R"({"agent": {"max_steps": 9}})"));
  ASSERT_TRUE(partial.ok()) << partial.error().message;
  EXPECT_EQ(partial->agent.max_steps, 9);
  EXPECT_EQ(partial->evaluator.trials, 100);

  auto bad = config_from_json(
      json::parse(R"({"agent": {"max_stepz": 9, "mode": 3}, "extra_section": {}})"));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("unknown key 'agent.max_stepz'"), std::string::npos);
  EXPECT_NE(bad.error().message.find("unknown key 'extra_section'"), std::string::npos);
  EXPECT_NE(bad.error().message.find("agent.mode: expected one of tools, chat, got the integer 3"),
            std::string::npos)
      << bad.error().message;
}

TEST(ConfigReference, ListsEveryKeyWithItsDefault) {
  std::string md = config_reference_markdown();
  Config c;
  for (const auto& f : describe_fields(c)) {
    EXPECT_NE(md.find("| `" + f.name + "` |"), std::string::npos) << f.key();
  }
  EXPECT_NE(md.find("| `max_steps` | integer | `20` | 1 .. 10000 |"), std::string::npos);
  EXPECT_NE(md.find("| `seed` | integer | unset |"), std::string::npos);
  EXPECT_NE(md.find("| `mode` | choice | `\"tools\"` | tools, chat |"), std::string::npos);
}

// configs/README.md is the generated reference; regenerate with
// `build/passforge doctor --config-keys > configs/README.md`.
TEST(ConfigReference, CommittedCopyIsCurrent) {
  auto committed = read_file(PF_SOURCE_DIR "/configs/README.md");
  ASSERT_TRUE(committed.ok()) << committed.error().message;
  EXPECT_EQ(*committed, config_reference_markdown())
      << "configs/README.md is stale: run build/passforge doctor --config-keys > configs/README.md";
}

}  // namespace
}  // namespace pf
