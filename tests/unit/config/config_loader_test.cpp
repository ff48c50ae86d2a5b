#include "config/config_loader.h"

#include <gtest/gtest.h>

#include "config/config_json.h"
#include "tests/unit/config/config_test_util.h"

namespace pf {
namespace {

using testing_util::load_text;
using testing_util::no_env;
using testing_util::write_temp_config;

std::string error_of(const Result<LoadedConfig>& r) {
  EXPECT_FALSE(r.ok());
  return r.ok() ? "" : r.error().message;
}

TEST(ConfigLoader, NoFileGivesDefaults) {
  auto r = load_config({"", {}, no_env});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(config_to_json(r->config), config_to_json(Config{}));
  EXPECT_TRUE(r->sources.empty());
  EXPECT_EQ(r->source_of("agent.max_steps"), "default");
  EXPECT_EQ(r->config.agent.max_steps, 20);
  EXPECT_EQ(r->config.evaluator.trials, 100);
}

TEST(ConfigLoader, FileValuesAndTheirLines) {
  auto r = load_text(
      "[agent]\n"
      "mode = \"chat\"\n"
      "max_steps = 50\n"
      "\n"
      "[endpoint]\n"
      "base_url = \"http://localhost:8000/v1\"\n"
      "model = \"qwen\"\n"
      "[endpoint.sampling]\n"
      "temperature = 0.6\n"
      "seed = 7\n"
      "stop = [\"</s>\"]\n"
      "[endpoint.extra]\n"
      "chat_template_kwargs = { enable_thinking = false }\n"
      "[evaluator]\n"
      "gpus = [1, 0]\n"
      "compile_only = true\n");
  ASSERT_TRUE(r.ok()) << r.error().message;
  const Config& c = r->config;
  EXPECT_EQ(c.agent.mode, AgentMode::chat);
  EXPECT_EQ(c.agent.max_steps, 50);
  EXPECT_EQ(c.endpoint.model, "qwen");
  EXPECT_EQ(c.endpoint.sampling.temperature, 0.6);
  EXPECT_EQ(c.endpoint.sampling.seed, 7);
  EXPECT_FALSE(c.endpoint.sampling.max_tokens.has_value());
  EXPECT_EQ(c.endpoint.sampling.stop, std::vector<std::string>{"</s>"});
  EXPECT_EQ(c.endpoint.extra["chat_template_kwargs"]["enable_thinking"], false);
  EXPECT_EQ(c.evaluator.gpus, (GpuSelection{false, {1, 0}}));
  EXPECT_EQ(c.evaluator.compile_only, CompileOnly::yes);
  EXPECT_TRUE(r->source_of("agent.max_steps").ends_with(".toml:3")) << r->source_of("agent.max_steps");
  EXPECT_TRUE(r->source_of("endpoint.sampling.seed").ends_with(".toml:10"));
  EXPECT_EQ(r->source_of("agent.context_policy"), "default");
}

TEST(ConfigLoader, UnknownKeyNamesFileLineAndSuggests) {
  auto r = load_text("[agent]\nmode = \"tools\"\nmax_setps = 3\n");
  std::string msg = error_of(r);
  EXPECT_NE(msg.find(".toml:3: unknown key 'max_setps' in [agent] (did you mean 'max_steps'?)"),
            std::string::npos)
      << msg;
}

TEST(ConfigLoader, ReportsEveryErrorAtOnce) {
  auto r = load_text(
      "[agent]\n"
      "max_steps = \"20\"\n"        // wrong type
      "context_policy = \"keep\"\n"  // bad choice
      "[evaluator]\n"
      "trials = 0\n"                 // out of range
      "b = 1.5\n"                    // out of range
      "[agnet]\n"                    // misspelt section
      "mode = \"chat\"\n");
  std::string msg = error_of(r);
  EXPECT_NE(msg.find(".toml:2: agent.max_steps: expected an integer, got the string \"20\""),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find(".toml:3: agent.context_policy: must be one of keep_all, drop_reasoning, "
                     "last_n_reports, got 'keep'"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find(".toml:5: evaluator.trials: must be between 1 and 1000000, got 0"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find(".toml:6: evaluator.b: must be between 0 and 1, got 1.5"), std::string::npos)
      << msg;
  EXPECT_NE(msg.find(".toml:7: unknown section [agnet] (did you mean [agent]?)"), std::string::npos)
      << msg;
  EXPECT_EQ(std::count(msg.begin(), msg.end(), '\n'), 4) << msg;
}

TEST(ConfigLoader, KeyInTheWrongPlaceSaysWhereItBelongs) {
  std::string msg = error_of(load_text("max_steps = 5\n[run]\nwarmup = 3\n"));
  EXPECT_NE(msg.find(".toml:1: key 'max_steps' outside a section (it belongs in [agent])"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find(".toml:3: unknown key 'warmup' in [run] (it belongs in [evaluator])"),
            std::string::npos)
      << msg;
}

TEST(ConfigLoader, SyntaxErrorNamesLineAndColumn) {
  std::string msg = error_of(load_text("[agent]\nmax_steps = = 3\n"));
  EXPECT_NE(msg.find(".toml:2:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("TOML syntax error"), std::string::npos) << msg;
}

TEST(ConfigLoader, MissingFileIsAnError) {
  auto r = load_config({"/nonexistent/passforge.toml", {}, no_env});
  EXPECT_NE(error_of(r).find("/nonexistent/passforge.toml"), std::string::npos);
}

TEST(ConfigLoader, SectionMustBeATable) {
  std::string msg = error_of(load_text("agent = 3\n"));
  EXPECT_NE(msg.find("'agent' must be a table"), std::string::npos) << msg;
}

TEST(ConfigLoader, PrecedenceDefaultsFileEnvSet) {
  auto path = write_temp_config(
      "[endpoint]\nbase_url = \"http://file:1/v1\"\nmodel = \"from-file\"\n[agent]\nmax_steps = 7\n");
  auto env = [](const std::string& name) -> std::optional<std::string> {
    if (name == "OPENAI_BASE_URL") return "http://env:2/v1";
    if (name == "OPENAI_MODEL") return "from-env";
    return std::nullopt;
  };
  auto r = load_config({path, {"endpoint.model=from-set"}, env});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->config.endpoint.base_url, "http://env:2/v1");
  EXPECT_EQ(r->source_of("endpoint.base_url"), "env OPENAI_BASE_URL");
  EXPECT_EQ(r->config.endpoint.model, "from-set");
  EXPECT_EQ(r->source_of("endpoint.model"), "--set");
  EXPECT_EQ(r->config.agent.max_steps, 7);
  EXPECT_EQ(r->config.agent.mode, AgentMode::tools);
}

TEST(ConfigLoader, SetIsTypedByTheField) {
  auto r = load_config({"",
                        {"agent.max_steps=50", "endpoint.stream=true", "endpoint.model=1.5",
                         "run.tasks=tasks/softmax*", "evaluator.gpus=[2, 3]", "agent.mode = chat",
                         "evaluator.compile_only=false", "endpoint.sampling.temperature=0",
                         "endpoint.extra.chat_template_kwargs.enable_thinking=false",
                         "endpoint.sampling.seed=5", "endpoint.sampling.seed="},
                        no_env});
  ASSERT_TRUE(r.ok()) << r.error().message;
  const Config& c = r->config;
  EXPECT_EQ(c.agent.max_steps, 50);
  EXPECT_TRUE(c.endpoint.stream);
  EXPECT_EQ(c.endpoint.model, "1.5");
  EXPECT_EQ(c.run.tasks, std::vector<std::string>{"tasks/softmax*"});
  EXPECT_EQ(c.evaluator.gpus, (GpuSelection{false, {2, 3}}));
  EXPECT_EQ(c.agent.mode, AgentMode::chat);
  EXPECT_EQ(c.evaluator.compile_only, CompileOnly::no);
  EXPECT_EQ(c.endpoint.sampling.temperature, 0.0);
  EXPECT_FALSE(c.endpoint.sampling.top_p.has_value());
  EXPECT_EQ(c.endpoint.extra, nlohmann::json::parse(R"({"chat_template_kwargs":{"enable_thinking":false}})"));
  EXPECT_FALSE(c.endpoint.sampling.seed.has_value());  // the empty value unsets it again
}

TEST(ConfigLoader, SetErrorsNameTheKey) {
  auto r = load_config({"",
                        {"agent.max_setps=3", "agent.max_steps=many", "evaluator.gpus=[0, 0]",
                         "agent", "agent.mode=tool", "agent=3"},
                        no_env});
  std::string msg = error_of(r);
  EXPECT_NE(msg.find("--set agent.max_setps=3: unknown key 'agent.max_setps' (did you mean "
                     "'agent.max_steps'?)"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("--set: agent.max_steps: expected an integer, got the string \"many\""),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("--set: evaluator.gpus: GPU 0 listed twice"), std::string::npos) << msg;
  EXPECT_NE(msg.find("--set agent: expected section.key=value"), std::string::npos) << msg;
  EXPECT_NE(msg.find("(did you mean 'tools'?)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'agent' is a section; use agent.KEY=VALUE"), std::string::npos) << msg;
}

// A resumed run starts from its stored configuration; --set still applies,
// with the same typing and errors, and the environment can be left out.
TEST(ConfigLoader, SetOnTopOfABaseConfig) {
  Config stored;
  stored.agent.max_steps = 33;
  stored.endpoint.base_url = "http://stored:1/v1";
  stored.endpoint.model = "m";
  ConfigInputs inputs;
  inputs.sets = {"agent.mode=chat"};
  inputs.env = nullptr;
  inputs.base = stored;
  auto r = load_config(inputs);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->config.agent.max_steps, 33);
  EXPECT_EQ(r->config.agent.mode, AgentMode::chat);
  EXPECT_EQ(r->source_of("agent.max_steps"), "run record");
  EXPECT_EQ(r->source_of("agent.mode"), "--set");

  inputs.sets = {"agent.max_stepz=3"};
  auto bad = load_config(inputs);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("did you mean 'agent.max_steps'?"), std::string::npos);
}

TEST(ConfigLoader, CrossKeyChecksNameTheSource) {
  auto env = [](const std::string& name) -> std::optional<std::string> {
    if (name == "OPENAI_BASE_URL") return "http://localhost:8000/v1";
    return std::nullopt;
  };
  auto path = write_temp_config("[evaluator]\ntolerance_min = 2\ntolerance_max = 1\n");
  auto r = load_config({path, {"endpoint.extra.messages=[]"}, env});
  std::string msg = error_of(r);
  EXPECT_NE(msg.find("default: endpoint.model: is empty but endpoint.base_url is set"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find(".toml:3: evaluator.tolerance_max: must not be below evaluator.tolerance_min"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("--set: endpoint.extra: may not set 'messages'"), std::string::npos) << msg;
}

TEST(ConfigLoader, RejectsBadShapes) {
  std::string msg = error_of(load_text(
      "[endpoint]\nbase_url = \"localhost:8000\"\nmodel = \"m\"\napi_key_env = \"sk-abc\"\n"
      "[evaluator]\ngpu_arch = \"hopper\"\n[run]\nrun_id = \"../x\"\ntasks = []\n"));
  for (const char* key : {"endpoint.base_url: must start with http", "endpoint.api_key_env: must be the NAME",
                          "evaluator.gpu_arch: must look like sm_90", "run.run_id: must be a plain",
                          "run.tasks: needs at least one"}) {
    EXPECT_NE(msg.find(key), std::string::npos) << key << "\n" << msg;
  }
}

TEST(ConfigLoader, DatesAreRejected) {
  std::string msg = error_of(load_text("[run]\nrun_id = 1979-05-27\n"));
  EXPECT_NE(msg.find(".toml:2: run.run_id: dates and times are not supported"), std::string::npos)
      << msg;
}

TEST(ConfigLoader, NonFiniteNumbersAreRejected) {
  std::string msg = error_of(load_text("[evaluator]\niqr_threshold = nan\n"));
  EXPECT_NE(msg.find("evaluator.iqr_threshold: must be a finite number"), std::string::npos) << msg;
}

}  // namespace
}  // namespace pf
