// `passforge serve-replay` as a user runs it: a real process that prints its
// URL, answers the client, and stops cleanly on SIGINT.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "agent/llm/llm_client.h"

namespace pf::replay {
namespace {

const std::string kPassforge = std::string(PF_BINARY_DIR) + "/passforge";

struct Child {
  pid_t pid = -1;
  int out = -1;  // stdout
  int err = -1;  // stderr
};

Child spawn(const std::vector<std::string>& args) {
  int out[2], err[2];
  EXPECT_EQ(pipe(out), 0);
  EXPECT_EQ(pipe(err), 0);
  // Built before fork: the child may only make async-signal-safe calls.
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  Child c;
  c.pid = fork();
  if (c.pid == 0) {
    dup2(out[1], 1);
    dup2(err[1], 2);
    close(out[0]);
    close(err[0]);
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(out[1]);
  close(err[1]);
  c.out = out[0];
  c.err = err[0];
  return c;
}

// Reads until a newline or EOF.
std::string read_line(int fd) {
  std::string line;
  char ch;
  while (read(fd, &ch, 1) == 1 && ch != '\n') line.push_back(ch);
  return line;
}

std::string read_all(int fd) {
  std::string s;
  char buf[4096];
  ssize_t n;
  while ((n = read(fd, buf, sizeof buf)) > 0) s.append(buf, static_cast<size_t>(n));
  return s;
}

int wait_exit(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::filesystem::path write_temp(const std::string& name, const std::string& text) {
  auto path = std::filesystem::temp_directory_path() / (name + "." + std::to_string(getpid()));
  std::ofstream(path) << text;
  return path;
}

TEST(ServeReplayCli, ServesUntilSigint) {
  ASSERT_TRUE(std::filesystem::exists(kPassforge)) << kPassforge;
  auto script = write_temp(
      "pf_serve_replay.jsonl",
      R"({"task": "t1", "mode": "chat", "responses": [{"content": "hello from the script"}]})"
      "\n");
  Child c = spawn({kPassforge, "serve-replay", "--script", script.string(), "--port", "0",
                   "--model", "cli-replay"});
  std::string first = read_line(c.out);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(first, m, std::regex("http://127\\.0\\.0\\.1:[0-9]+/v1")))
      << "first line: " << first << "\nstderr: " << read_all(c.err);
  EXPECT_NE(first.find("not asking a model"), std::string::npos);

  llm::LlmOptions o;
  o.base_url = m.str();
  o.max_attempts = 1;
  auto client = llm::LlmClient::create(o);
  ASSERT_TRUE(client.ok());
  llm::ChatRequest req;
  req.messages = {llm::ChatMessage::user("Task id: t1")};
  auto out = (*client)->chat(req);
  ASSERT_TRUE(out.ok()) << out.failure().message;
  EXPECT_EQ(out.response().message.content, "hello from the script");
  auto models = (*client)->list_models();
  ASSERT_TRUE(models.ok());
  EXPECT_EQ(*models, std::vector<std::string>{"cli-replay"});

  kill(c.pid, SIGINT);
  EXPECT_EQ(wait_exit(c.pid), 0);
  std::string rest = read_all(c.out);
  EXPECT_NE(rest.find("stopped after 2 requests"), std::string::npos) << rest;
  close(c.out);
  close(c.err);
  std::filesystem::remove(script);
}

TEST(ServeReplayCli, BadScriptIsAUsageErrorNamingTheLine) {
  ASSERT_TRUE(std::filesystem::exists(kPassforge)) << kPassforge;
  auto script = write_temp("pf_serve_replay_bad.jsonl",
                           R"({"task": "t1", "mode": "chat", "responses": [{"content": "x"}]})"
                           "\n{\"task\": \"t2\"}\n");
  Child c = spawn({kPassforge, "serve-replay", "--script", script.string(), "--port", "0"});
  std::string err = read_all(c.err);
  EXPECT_EQ(wait_exit(c.pid), 2);
  EXPECT_NE(err.find(script.string() + ":2: "), std::string::npos) << err;
  close(c.out);
  close(c.err);
  std::filesystem::remove(script);
}

}  // namespace
}  // namespace pf::replay
