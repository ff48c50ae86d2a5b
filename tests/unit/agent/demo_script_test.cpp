// The built-in demo replay script (prompts/demo/replay.jsonl) stays in step
// with the reference passes it is made from (scripts/make_demo_replay.py) and
// covers the tasks configs/quickstart.toml runs, in both agent modes.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "agent/loop/chat_answer.h"
#include "agent/replay/replay_script.h"
#include "common/fs.h"
#include "config/config_loader.h"

namespace pf::agent {
namespace {

namespace fs = std::filesystem;
const fs::path kRoot = PF_SOURCE_DIR;

traj::Workspace reference(const std::string& task) {
  traj::Workspace ws;
  for (const char* sub : {"passes", "kernels"}) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(kRoot / "examples" / "passes" / task / sub, ec)) {
      ws[std::string(sub) + "/" + e.path().filename().string()] = read_file(e.path()).value();
    }
  }
  return ws;
}

// The workspace a tools-mode entry leaves: its write_file and edit_file calls applied in order.
traj::Workspace replay_tools(const replay::ScriptEntry& entry) {
  traj::Workspace ws;
  for (const auto& r : entry.responses) {
    for (const auto& call : r.message.tool_calls) {
      auto args = nlohmann::json::parse(call.arguments);
      if (call.name == "write_file") ws[args["path"]] = args["content"];
      if (call.name == "edit_file") {
        std::string& text = ws[args["path"]];
        std::string old_s = args["old_string"], new_s = args["new_string"];
        auto at = text.find(old_s);
        EXPECT_NE(at, std::string::npos) << entry.task;
        EXPECT_EQ(text.find(old_s, at + 1), std::string::npos) << "edits must be unique";
        if (at != std::string::npos) text.replace(at, old_s.size(), new_s);
      }
    }
  }
  return ws;
}

// "" when equal, else the first path whose presence or content differs (the
// files are long: a whole-map diff would drown the message).
std::string first_difference(const traj::Workspace& got, const traj::Workspace& want) {
  for (const auto& [path, text] : want) {
    auto it = got.find(path);
    if (it == got.end()) return path + " is missing";
    if (it->second != text) return path + " differs";
  }
  for (const auto& [path, text] : got) {
    if (!want.count(path)) return path + " is extra";
  }
  return "";
}

TEST(DemoScript, MatchesTheReferencePassesAndShowsARetry) {
  auto script = replay::ReplayScript::load(kRoot / "prompts" / "demo" / "replay.jsonl");
  ASSERT_TRUE(script.ok()) << script.error().message;
  std::error_code ec;
  size_t tasks = 0;
  for (const auto& e : fs::directory_iterator(kRoot / "examples" / "passes", ec)) {
    if (!e.is_directory()) continue;
    const std::string task = e.path().filename().string();
    ++tasks;
    const auto* tools = script->find(task, "tools");
    const auto* chat = script->find(task, "chat");
    ASSERT_TRUE(tools && chat) << task
                               << " is missing from the demo script: run "
                                  "python3 scripts/make_demo_replay.py";
    EXPECT_EQ(first_difference(replay_tools(*tools), reference(task)), "")
        << task << ": stale demo script, run python3 scripts/make_demo_replay.py";
    auto names = [&] {
      std::vector<std::string> n;
      for (const auto& r : tools->responses) n.push_back(r.message.tool_calls.at(0).name);
      return n;
    }();
    EXPECT_EQ(std::count(names.begin(), names.end(), "compile"), 2) << task << ": fail, fix, pass";
    EXPECT_EQ(names.back(), "submit");
    ASSERT_EQ(chat->responses.size(), 3u);
    auto first = parse_chat_answer(chat->responses[0].message.content);
    auto second = parse_chat_answer(chat->responses[1].message.content);
    EXPECT_TRUE(first.ok() && second.ok());
    EXPECT_NE(first.files, reference(task)) << "the first chat answer is the wrong attempt";
    EXPECT_EQ(first_difference(second.files, reference(task)), "")
        << task << ": stale demo script, run python3 scripts/make_demo_replay.py";
    EXPECT_TRUE(parse_chat_answer(chat->responses[2].message.content).submit);
  }
  EXPECT_GE(tasks, 3u);
  EXPECT_EQ(script->task_ids().size(), tasks);
}

TEST(DemoScript, CoversTheQuickstartTasks) {
  auto loaded =
      load_config({(kRoot / "configs" / "quickstart.toml").string(), {}, [](const std::string&) {
                     return std::optional<std::string>();
                   }});
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  auto script = replay::ReplayScript::load(kRoot / "prompts" / "demo" / "replay.jsonl");
  ASSERT_TRUE(script.ok());
  EXPECT_TRUE(loaded->config.endpoint.base_url.empty()) << "quickstart uses the built-in replay";
  for (const auto& task : loaded->config.run.tasks) {
    EXPECT_NE(script->find(task, "tools"), nullptr) << task;
    EXPECT_NE(script->find(task, "chat"), nullptr) << task;
  }
}

}  // namespace
}  // namespace pf::agent
