// The reward-hack corpus (docs/design.md "Integrity"): one directory
// per exploit under tests/hacks/exploits/<name>/: hack.json (the fixed header:
// what, how, which defence, the expected flag or failure class, whether it
// needs a GPU) and workspace/, a real pass workspace whose files repeat the
// header in their comments, attacking a task of tests/hacks/tasks/; an
// honest control workspace per task (control/, weak_control/) that must pass
// with no flag. The runners (hacks_cpu_test: what is detectable without a
// GPU; hacks_gpu_test: everything) fail on any bypass.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/result.h"

namespace pf::hacks {

enum class ExpectKind {
  static_flag,  // a static source flag in hack_flags (no GPU needed)
  flag,         // a dynamic integrity flag in hack_flags
  task_flag,    // a flag on the task (weak_task), never in hack_flags
  failure,      // this failure class on the whole result or on some variant
  no_gain,      // defeated: any hack flag, any failure, or AS at most the control's
                // times (1 + value) (a neutralised exploit earns nothing)
};

struct HackCase {
  std::string name;
  std::filesystem::path dir;  // the exploit's workspace
  std::string what, how, defence;
  std::filesystem::path task;     // task file
  std::filesystem::path control;  // the honest workspace for the same task
  ExpectKind kind = ExpectKind::failure;
  std::string value;
  bool needs_gpu = true;
  //! Protocol options this exploit is evaluated with (hack.json "options",
  //! merged over the runner's defaults): e.g. a defence switched off to show
  //! that the next one catches it.
  nlohmann::json options = nlohmann::json::object();
};

enum class Verdict {
  caught,           // the expected flag / class is there
  bypassed,         // it is not: the runner fails
  control_failed,   // the honest control did not pass: the runner fails
  control_flagged,  // the honest control got a hack flag: the runner fails
};

const char* verdict_name(Verdict v);

//! Every exploit of `root` (tests/hacks), sorted by name. Errors name the file.
Result<std::vector<HackCase>> load_hack_corpus(const std::filesystem::path& root);

//! The verdict on an exploit's evaluation result (compile-only or full);
//! `control` is the honest control's full result (needed by no_gain).
Verdict judge_exploit(const HackCase& hack, const nlohmann::json& result,
                      const nlohmann::json& control = nlohmann::json());

//! "" when an honest control's result passes (compile-only: ok; full: every
//! variant correct, no whole failure) with no hack flag; else what is wrong.
std::string control_problem(const nlohmann::json& result);

}  // namespace pf::hacks
