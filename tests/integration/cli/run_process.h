// Runs build/passforge as a real subprocess and captures what it printed.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace pf::testing_util {

struct ProcessResult {
  int exit_code = -1;  // 128 + signal when killed by one
  std::string out;
  std::string err;
};

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

//! Runs PF_BINARY_DIR/passforge with `args` from the source tree root, with
//! OPENAI_BASE_URL / OPENAI_MODEL removed so the machine's environment cannot
//! change the outcome. stdout and stderr go through files (no pipe deadlock).
inline ProcessResult run_passforge(const std::vector<std::string>& args) {
  static int counter = 0;
  auto dir = std::filesystem::temp_directory_path() /
             ("pf_cli_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
  std::filesystem::create_directories(dir);
  auto out_path = dir / "out", err_path = dir / "err";
  pid_t pid = ::fork();
  if (pid == 0) {
    int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (out < 0 || err < 0 || ::dup2(out, 1) < 0 || ::dup2(err, 2) < 0) ::_exit(126);
    ::unsetenv("OPENAI_BASE_URL");
    ::unsetenv("OPENAI_MODEL");
    std::string exe = std::string(PF_BINARY_DIR) + "/passforge";
    std::vector<char*> argv{exe.data()};
    std::vector<std::string> copy = args;
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(exe.c_str(), argv.data());
    ::_exit(127);
  }
  ProcessResult r;
  if (!std::filesystem::exists(std::string(PF_BINARY_DIR) + "/passforge")) {
    r.err = std::string(PF_BINARY_DIR) + "/passforge does not exist (build the passforge target)";
  }
  int status = 0;
  if (pid > 0 && ::waitpid(pid, &status, 0) == pid) {
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  r.out = slurp(out_path);
  r.err += slurp(err_path);
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  return r;
}

//! A passforge process left running (a server); SIGINT and reaped on destruction.
class BackgroundPassforge {
 public:
  explicit BackgroundPassforge(const std::vector<std::string>& args) {
    int out[2];
    if (::pipe(out) != 0) return;
    std::string exe = std::string(PF_BINARY_DIR) + "/passforge";
    std::vector<std::string> copy = args;
    std::vector<char*> argv{exe.data()};
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_ = ::fork();
    if (pid_ == 0) {
      ::dup2(out[1], 1);
      ::close(out[0]);
      ::execv(exe.c_str(), argv.data());
      ::_exit(127);
    }
    ::close(out[1]);
    out_ = out[0];
  }
  ~BackgroundPassforge() {
    if (pid_ > 0) {
      ::kill(pid_, SIGINT);
      int status = 0;
      ::waitpid(pid_, &status, 0);
    }
    if (out_ >= 0) ::close(out_);
  }
  BackgroundPassforge(const BackgroundPassforge&) = delete;
  BackgroundPassforge& operator=(const BackgroundPassforge&) = delete;

  //! The next line the process printed on stdout ("" at EOF).
  std::string read_line() {
    std::string line;
    char ch;
    while (out_ >= 0 && ::read(out_, &ch, 1) == 1 && ch != '\n') line.push_back(ch);
    return line;
  }

 private:
  pid_t pid_ = -1;
  int out_ = -1;
};

}  // namespace pf::testing_util
