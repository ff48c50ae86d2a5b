#include "experiments/improve_loop.h"

#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <map>

#include "agent/scheduler/run_tasks.h"
#include "common/fs.h"
#include "common/strings.h"
#include "config/config_json.h"
#include "experiments/arm_session.h"
#include "experiments/exemplar_library.h"
#include "experiments/experiment_store.h"
#include "trajectories/exporter.h"
#include "trajectories/ids.h"
#include "trajectories/trajectory_reader.h"
#include "trajectories/trajectory_store.h"

namespace pf::experiments {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kKind = "improve";
constexpr const char* kSteps[] = {"train", "eval", "select", "export", "training"};

fs::path round_dir(const fs::path& dir, int k) {
  return dir / "rounds" / std::to_string(k);
}

std::string session_run_id(const std::string& id, int k, const char* step) {
  return id + ".r" + std::to_string(k) + "." + step;
}

bool step_done(const json& round, const std::string& step) {
  for (const auto& s : round.value("done", json::array())) {
    if (s == step) return true;
  }
  return false;
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Everything a loop needs, rebuilt from the store on every start.
struct Loop {
  const ImproveRequest* request = nullptr;
  const llm::CancelToken* cancel = nullptr;
  ImproveSpec spec;
  Config config;
  ExperimentStore* store = nullptr;
  ExperimentRecord record;
  std::vector<Task> train_tasks, eval_tasks;
  fs::path dir;

  Status save() { return store->save(record); }

  Config round_config(const json& round) const {
    Config c = config;
    if (!round.value("base_url", "").empty()) c.endpoint.base_url = round.value("base_url", "");
    if (!round.value("model", "").empty()) c.endpoint.model = round.value("model", "");
    return c;
  }

  // Runs one session step; false when it was interrupted.
  Result<bool> session(int k, const char* step, const json& round, const std::vector<Task>& tasks,
                       int samples, int64_t seed) {
    PF_ASSIGN(auto library, store->exemplars());
    SessionRequest s;
    s.store_dir = round_dir(dir, k) / step;
    s.tasks = tasks;
    s.terminal = request->terminal;
    s.notice = request->notice;
    ArmPlan arm;
    arm.name = step;
    arm.run_id = session_run_id(record.id, k, step);
    arm.config = round_config(round);
    arm.config.run.samples_per_task = samples;
    arm.config.run.seed = seed;
    arm.config_toml = spec.text;
    arm.llm = request->llm_options(arm.config.endpoint);
    int64_t with_examples = 0;
    for (const auto& t : tasks) {
      auto chosen = choose_exemplars(library, t.id, t.op_sequence, spec.exemplar_count,
                                     spec.exemplar_max_tokens);
      if (!chosen.empty()) ++with_examples;
      arm.task_context[t.id] = {{"exemplars", exemplar_context(chosen)}};
    }
    s.arms.push_back(std::move(arm));
    request->notice("round " + std::to_string(k) + ": " + step + ": " +
                    std::to_string(tasks.size()) + " tasks x " + std::to_string(samples) +
                    " samples, model " + s.arms[0].llm.model + ", " +
                    std::to_string(with_examples) +
                    " prompts with exemplars (library: " + std::to_string(library.size()) + ")");
    PF_ASSIGN(auto outcome, run_arm_session(s, *cancel));
    return !outcome.interrupted;
  }

  // The round's best training episodes into the exemplar library.
  Result<int64_t> select(int k) {
    const fs::path train_dir = round_dir(dir, k) / "train";
    PF_ASSIGN(auto reader, traj::TrajectoryReader::open(train_dir));
    PF_ASSIGN(auto mode, infer_mode(reader, {session_run_id(record.id, k, "train")}));
    const std::string run_id = session_run_id(record.id, k, "train");
    PF_ASSIGN(auto episodes, read_episode_metrics(reader, run_id, mode));
    std::map<std::string, std::vector<const EpisodeMetrics*>> by_task;
    // The verified rule (trajectories/verification.h): the final submit is
    // what the library keeps, so it must be correct everywhere, unflagged and
    // stable, and score above min_score.
    for (const auto& e : episodes) {
      bool eligible = e.status == traj::RunState::finished && e.correct &&
                      !e.submit_workspace_sha.empty() && e.submit_score &&
                      *e.submit_score > spec.min_score;
      if (eligible) by_task[e.task_id].push_back(&e);
    }
    std::map<std::string, std::vector<std::string>> ops;
    for (const auto& t : train_tasks) ops[t.id] = t.op_sequence;
    int64_t added = 0;
    for (auto& [task, list] : by_task) {
      std::stable_sort(
          list.begin(), list.end(), [](const EpisodeMetrics* a, const EpisodeMetrics* b) {
            return *a->submit_score != *b->submit_score ? *a->submit_score > *b->submit_score
                                                        : a->episode_id < b->episode_id;
          });
      size_t keep =
          spec.selection == SelectionMode::best_per_task ? 1 : static_cast<size_t>(spec.top_k);
      for (size_t i = 0; i < list.size() && i < keep; ++i) {
        PF_ASSIGN(auto files, reader.workspace(list[i]->submit_workspace_sha));
        Exemplar ex;
        ex.task_id = task;
        ex.op_sequence = ops[task];
        ex.round = k;
        ex.episode_id = list[i]->episode_id;
        ex.score = *list[i]->submit_score;
        for (const auto& [path, content] : files) ex.files[path] = content;
        PF_TRY(store->add_exemplar(ex));
        ++added;
      }
    }
    return added;
  }

  Status export_round(int k, json& round) {
    const fs::path rdir = round_dir(dir, k);
    for (auto format : {traj::ExportFormat::openai, traj::ExportFormat::dpo}) {
      traj::ExportOptions o;
      o.format = format;
      o.out = rdir / (format == traj::ExportFormat::openai ? "sft.jsonl" : "dpo.jsonl");
      // The export's default verified rule selects the training episodes
      // (compile-only rounds have none to train on: nothing ran on a GPU).
      o.min_as = spec.min_score;
      o.best_only =
          format == traj::ExportFormat::openai && spec.selection == SelectionMode::best_per_task;
      auto summary = traj::export_trajectories({rdir / "train"}, o);
      if (!summary.ok())
        return summary.error().with_context("exporting round " + std::to_string(k));
      round[format == traj::ExportFormat::openai ? "sft_records" : "dpo_records"] =
          summary->records();
    }
    return ok_status();
  }

  Status training(int k, json& round) {
    const fs::path rdir = round_dir(dir, k);
    std::string command = spec.training_command;
    auto replace = [&](const std::string& key, const std::string& value) {
      for (size_t at = command.find(key); at != std::string::npos;
           at = command.find(key, at + value.size())) {
        command.replace(at, key.size(), value);
      }
    };
    replace("{dataset}", shell_quote((rdir / "sft.jsonl").string()));
    replace("{dpo}", shell_quote((rdir / "dpo.jsonl").string()));
    replace("{dir}", shell_quote(rdir.string()));
    replace("{round}", std::to_string(k));
    request->notice("round " + std::to_string(k) + ": training: " + command);
    json endpoint = json::object();
    auto output = run_training_command(command, endpoint);
    if (!output.ok())
      return output.error().with_context("round " + std::to_string(k) + " training");
    PF_TRY(write_file_atomic(rdir / "training.log", *output));
    round["training_endpoint"] = endpoint;
    if (!endpoint.empty()) {
      record.state["endpoint"] = endpoint;
      request->notice("round " + std::to_string(k) +
                      ": training named the endpoint for later "
                      "rounds: " +
                      endpoint.dump());
    }
    return ok_status();
  }
};

Result<ImproveSpec> stored_spec(const ExperimentRecord& record) {
  return parse_improve_spec(record.spec_text, record.spec_path);
}

Result<std::vector<Task>> tasks_for(const std::vector<std::string>& specs) {
  return agent::load_run_tasks(specs);
}

}  // namespace

Result<std::string> run_training_command(const std::string& command, json& endpoint) {
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) {
    return make_error(ErrorCode::io_error, "cannot start the training command: " + command);
  }
  std::string output;
  char buf[4096];
  size_t n = 0;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) output.append(buf, n);
  int status = pclose(pipe);
  if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::string tail = output.size() > 2000 ? output.substr(output.size() - 2000) : output;
    return make_error(ErrorCode::unavailable,
                      "the training command failed (" +
                          (WIFEXITED(status) ? "exit status " + std::to_string(WEXITSTATUS(status))
                                             : std::string("killed by a signal")) +
                          "): " + command + (tail.empty() ? "" : "\n" + tail));
  }
  for (const auto& raw : split(output, '\n')) {
    std::string_view line = trim(raw);
    if (!line.starts_with("{")) continue;
    auto j = json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!j.is_object()) continue;
    json named = json::object();
    for (const char* key : {"base_url", "model"}) {
      if (j.contains(key) && j[key].is_string() && !j[key].get<std::string>().empty()) {
        named[key] = j[key];
      }
    }
    if (!named.empty()) endpoint = named;
  }
  return output;
}

Result<ImproveOutcome> run_improve(const ImproveRequest& request, const llm::CancelToken& cancel) {
  ImproveOutcome outcome;
  Loop loop;
  loop.request = &request;
  loop.cancel = &cancel;
  std::optional<ExperimentStore> store;
  if (request.spec) {
    loop.spec = *request.spec;
    PF_ASSIGN(loop.config, improve_config(loop.spec));
    outcome.id = loop.spec.id.empty() ? "improve-" + traj::make_run_id() : loop.spec.id;
    outcome.dir = fs::path(loop.config.run.output_dir) / outcome.id;
    if (has_experiment(outcome.dir)) {
      return make_error(ErrorCode::invalid_argument,
                        "improve loop " + outcome.id + " already exists in " +
                            outcome.dir.string() + "; continue it with --resume " +
                            outcome.dir.string() + " or choose another id");
    }
    PF_ASSIGN(loop.train_tasks, tasks_for(loop.spec.train_tasks));
    PF_ASSIGN(loop.eval_tasks, tasks_for(loop.spec.eval_tasks));
    for (const auto& e : loop.eval_tasks) {
      for (const auto& t : loop.train_tasks) {
        if (t.id == e.id) {
          return make_error(ErrorCode::invalid_argument,
                            "task " + e.id + " is both a training and a held-out task");
        }
      }
    }
    PF_ASSIGN(store, ExperimentStore::open(outcome.dir));
    loop.record.id = outcome.id;
    loop.record.kind = kKind;
    loop.record.spec_text = loop.spec.text;
    loop.record.spec_path = loop.spec.file.string();
    loop.record.state = {{"config", config_to_json(loop.config)},
                         {"endpoint", json::object()},
                         {"rounds", json::array()}};
    json train = json::array(), held_out = json::array();
    for (const auto& t : loop.train_tasks) train.push_back(t.id);
    for (const auto& t : loop.eval_tasks) held_out.push_back(t.id);
    loop.record.state["train_tasks"] = train;
    loop.record.state["eval_tasks"] = held_out;
  } else {
    outcome.dir = request.resume_dir;
    PF_ASSIGN(store, ExperimentStore::open(outcome.dir));
    PF_ASSIGN(auto record, store->load());
    if (!record || record->kind != kKind) {
      return make_error(ErrorCode::not_found, outcome.dir.string() +
                                                  " holds no improve loop (start one with "
                                                  "--config FILE)");
    }
    loop.record = std::move(*record);
    outcome.id = loop.record.id;
    PF_ASSIGN(loop.spec, stored_spec(loop.record));
    auto config = config_from_json(loop.record.state.value("config", json::object()));
    if (!config.ok()) return config.error().with_context("the stored configuration of the loop");
    loop.config = std::move(config).value();
    std::vector<std::string> train, held_out;
    for (const auto& t : loop.record.state.value("train_tasks", json::array())) train.push_back(t);
    for (const auto& t : loop.record.state.value("eval_tasks", json::array()))
      held_out.push_back(t);
    PF_ASSIGN(loop.train_tasks, tasks_for(train));
    PF_ASSIGN(loop.eval_tasks, tasks_for(held_out));
  }
  loop.store = &*store;
  loop.dir = outcome.dir;
  PF_TRY(loop.save());
  request.notice("improve loop " + outcome.id + ": " + std::to_string(loop.spec.rounds) +
                 " rounds, " + std::to_string(loop.train_tasks.size()) + " training and " +
                 std::to_string(loop.eval_tasks.size()) + " held-out tasks; state in " +
                 traj::store_path(outcome.dir).string());

  json& rounds = loop.record.state["rounds"];
  for (int k = 1; k <= loop.spec.rounds; ++k) {
    if (rounds.size() < static_cast<size_t>(k)) {
      const json& endpoint = loop.record.state["endpoint"];
      PF_ASSIGN(auto library, loop.store->exemplars());
      rounds.push_back({{"round", k},
                        {"base_url", endpoint.value("base_url", loop.config.endpoint.base_url)},
                        {"model", endpoint.value("model", loop.config.endpoint.model)},
                        {"exemplars", library.size()},
                        {"done", json::array()}});
      PF_TRY(loop.save());
    }
    for (const char* step : kSteps) {
      if (step_done(rounds[k - 1], step)) {
        request.notice("round " + std::to_string(k) + ": " + step + ": done earlier, skipped");
        continue;
      }
      if (cancel.cancelled()) {
        outcome.interrupted = true;
        break;
      }
      json& round = rounds[k - 1];
      const std::string name = step;
      if (name == "train" || name == "eval") {
        bool train = name == "train";
        auto finished =
            loop.session(k, step, round, train ? loop.train_tasks : loop.eval_tasks,
                         train ? loop.spec.samples_per_task : loop.spec.eval_samples_per_task,
                         train ? loop.config.run.seed + k : loop.config.run.seed);
        if (!finished.ok()) return finished.error().with_context("round " + std::to_string(k));
        if (!*finished) {
          outcome.interrupted = true;
          break;
        }
      } else if (name == "select") {
        PF_ASSIGN(round["selected"], loop.select(k));
      } else if (name == "export") {
        PF_TRY(loop.export_round(k, round));
      } else if (!loop.spec.training_command.empty()) {
        PF_TRY(loop.training(k, round));
      }
      round["done"].push_back(name);
      PF_TRY(loop.save());
    }
    if (outcome.interrupted) break;
  }
  PF_ASSIGN(outcome.report, report_improve(outcome.dir));
  return outcome;
}

}  // namespace pf::experiments
