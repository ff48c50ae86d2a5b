#include "trajectories/exporter.h"

#include <functional>
#include <memory>
#include <set>

#include "common/output_file.h"
#include "common/sha256.h"
#include "common/strings.h"
#include "trajectories/conversation.h"
#include "trajectories/dpo_pairs.h"
#include "trajectories/export_manifest.h"
#include "trajectories/export_record.h"
#include "trajectories/export_selection.h"
#include "trajectories/record_json.h"
#include "trajectories/trajectory_reader.h"
#include "trajectories/verification.h"

namespace pf::traj {
namespace {

struct Source {
  std::filesystem::path path;
  std::unique_ptr<TrajectoryReader> reader;
  std::map<std::string, RunRecord> runs;
  std::map<std::string, TaskRecord> tasks;
};

//! Output files by split name ("" without --split), written to temporaries
//! and hashed as they are written.
class Outputs {
 public:
  static Result<Outputs> open(const ExportOptions& options) {
    Outputs o;
    std::vector<std::string> names;
    if (options.splits.empty()) names.push_back("");
    for (const auto& s : options.splits) names.push_back(s.name);
    for (const auto& name : names) {
      auto path = name.empty() ? options.out : split_path(options.out, name);
      PF_ASSIGN(OutputFile file, OutputFile::open(path));
      File f{std::move(file), Sha256(), {}};
      f.info.path = path;
      f.info.split = name;
      o.files_.emplace(name, std::move(f));
    }
    return o;
  }
  Status write(const std::string& split, const Json& record, const std::string& task) {
    auto& f = files_.at(split);
    std::string line = json_text(record) + "\n";
    f.sha.update(line);
    PF_TRY(f.out.write(line));
    ++f.info.records;
    f.info.tasks.insert(task);
    return ok_status();
  }
  Status commit(ExportSummary& summary) {
    for (auto& [name, f] : files_) {
      PF_TRY(f.out.commit());
      f.info.bytes = f.out.bytes();
      f.info.sha256 = f.sha.hex_digest();
      summary.records_per_file[f.info.path.string()] = f.info.records;
      summary.files.push_back(f.info);
    }
    return ok_status();
  }

 private:
  struct File {
    OutputFile out;
    Sha256 sha;
    ExportFile info;
  };
  std::map<std::string, File> files_;
};

//! The task record of an episode; a store without one (it cannot happen
//! through the writer API) reads as a task without listed variants.
const TaskRecord& task_of(const Source& src, const std::string& task_id) {
  static const TaskRecord kNone;
  auto it = src.tasks.find(task_id);
  return it == src.tasks.end() ? kNone : it->second;
}

//! Training records end at the verified submit (raw keeps everything).
std::vector<int> weights_of(const EpisodeCandidate& c, const std::vector<MessageRecord>& messages,
                            const ExportOptions& options) {
  std::optional<int64_t> last_turn;
  if (options.format != ExportFormat::raw && c.best_evaluation()) {
    last_turn = c.best_evaluation()->turn;
  }
  return assistant_weights(messages, c.evaluations, options.weight, options.include_flagged,
                           last_turn);
}

Result<std::vector<EpisodeCandidate>> load_candidates(std::vector<Source>& sources,
                                                      const ExportOptions& options,
                                                      const VerifyRule& rule,
                                                      ExportSummary& summary) {
  std::vector<EpisodeCandidate> out;
  std::set<std::string> seen;
  for (size_t s = 0; s < sources.size(); ++s) {
    auto& reader = *sources[s].reader;
    PF_ASSIGN(auto episodes, reader.episodes());
    PF_ASSIGN(auto evaluations, reader.evaluations(""));
    std::map<std::string, std::vector<EvaluationRecord>> by_episode;
    for (auto& e : evaluations) by_episode[e.episode_id].push_back(std::move(e));
    for (auto& ep : episodes) {
      ++summary.episodes_read;
      if (!seen.insert(ep.id).second) {
        ++summary.excluded["duplicate_episode"];
        continue;
      }
      EpisodeCandidate c;
      c.source = s;
      c.evaluations = std::move(by_episode[ep.id]);
      c.episode = std::move(ep);
      score_candidate(c, task_of(sources[s], c.episode.task_id), rule);
      ++summary.verdicts[std::string(to_string(c.verdict.rejection))];
      if (!options.splits.empty()) c.split = split_for_task(options.splits, c.episode.task_id);
      if (options.format != ExportFormat::dpo) {
        PF_ASSIGN(auto messages, reader.messages(c.episode.id));
        auto weights = weights_of(c, messages, options);
        size_t end = options.format == ExportFormat::raw ? messages.size() : trained_end(weights);
        c.has_trained_turn = trained_end(weights) > 0;
        c.tokens = conversation_tokens(messages, end);
      }
      out.push_back(std::move(c));
    }
  }
  return out;
}

Result<Json> raw_artifacts(TrajectoryReader& reader, const EpisodeCandidate& c) {
  Json artifacts = Json::object();
  for (const auto& e : c.evaluations) {
    if (e.workspace_sha.empty() || artifacts.contains(e.workspace_sha)) continue;
    PF_ASSIGN(std::string manifest, reader.artifact(e.workspace_sha));
    artifacts[e.workspace_sha] = manifest;
    Json m = Json::parse(manifest, nullptr, false);
    if (!m.is_object()) continue;
    for (const auto& [path, sha] : m.items()) {
      if (!sha.is_string() || artifacts.contains(sha.get<std::string>())) continue;
      PF_ASSIGN(artifacts[sha.get<std::string>()], reader.artifact(sha.get<std::string>()));
    }
  }
  return artifacts;
}

void count_record(ExportSummary& summary, const EpisodeCandidate& c) {
  summary.models.insert(c.episode.model);
  summary.prompt_variants.insert(c.episode.prompt_variant);
  for (auto& run : summary.runs) {
    if (run["id"] == c.episode.run_id) run["records"] = run["records"].get<int64_t>() + 1;
  }
}

Status write_episodes(std::vector<Source>& sources, std::vector<EpisodeCandidate> candidates,
                      const ExportOptions& options, Outputs& outputs, ExportSummary& summary) {
  Selection sel = select_episodes(std::move(candidates), options);
  for (const auto& [k, v] : sel.excluded) summary.excluded[k] += v;
  for (const auto& c : sel.kept) {
    auto& src = sources[c.source];
    ExportItem item;
    item.run = &src.runs.at(c.episode.run_id);
    item.task = &src.tasks.at(c.episode.task_id);
    item.candidate = &c;
    item.source = src.path.string();
    PF_ASSIGN(item.messages, src.reader->messages(c.episode.id));
    item.weights = weights_of(c, item.messages, options);
    item.end = trained_end(item.weights);
    Json record;
    switch (options.format) {
      case ExportFormat::openai:
        record = openai_record(item, options);
        break;
      case ExportFormat::sharegpt:
        record = sharegpt_record(item, options);
        break;
      case ExportFormat::trl:
        record = trl_record(item, options);
        break;
      case ExportFormat::raw: {
        item.end = item.messages.size();
        PF_ASSIGN(auto calls, src.reader->llm_calls(c.episode.id));
        PF_ASSIGN(auto artifacts, raw_artifacts(*src.reader, c));
        record = raw_record(item, calls, artifacts);
        break;
      }
      case ExportFormat::dpo:
        break;
    }
    PF_TRY(outputs.write(c.split, record, c.episode.task_id));
    count_record(summary, c);
  }
  return ok_status();
}

Status write_dpo(std::vector<Source>& sources, std::vector<EpisodeCandidate> candidates,
                 const ExportOptions& options, const VerifyRule& rule, Outputs& outputs,
                 ExportSummary& summary) {
  std::map<std::string, std::vector<const EpisodeCandidate*>> by_task;
  for (const auto& c : candidates) {
    if (c.episode.status == RunState::running) {
      ++summary.excluded["unfinished"];
      continue;
    }
    by_task[c.episode.task_id].push_back(&c);
  }
  for (auto& [task, group] : by_task) {
    std::vector<DpoEpisode> eps;
    for (const auto* c : group) {
      auto& src = sources[c->source];
      DpoEpisode d;
      d.run = &src.runs.at(c->episode.run_id);
      d.task = &src.tasks.at(c->episode.task_id);
      d.candidate = c;
      d.source = src.path.string();
      PF_ASSIGN(d.messages, src.reader->messages(c->episode.id));
      eps.push_back(std::move(d));
    }
    auto outcome = dpo_pairs(eps, options, rule);
    for (const auto& [k, v] : outcome.skipped) summary.excluded["pairs:" + k] += v;
    std::string split = group.front()->split;
    for (size_t i = 0; i < outcome.records.size(); ++i) {
      PF_TRY(outputs.write(split, outcome.records[i], task));
      count_record(summary, *outcome.chosen[i]);
    }
  }
  return ok_status();
}

//! Runs fn with a read snapshot open on every source.
Status with_snapshots(std::vector<Source>& sources, size_t i, const std::function<Status()>& fn) {
  if (i == sources.size()) return fn();
  return sources[i].reader->snapshot([&] { return with_snapshots(sources, i + 1, fn); });
}

}  // namespace

int64_t ExportSummary::records() const {
  int64_t n = 0;
  for (const auto& [f, r] : records_per_file) n += r;
  return n;
}

std::string ExportSummary::to_text() const {
  std::string s = "export " + std::string(to_string(format)) + ": " + std::to_string(records()) +
                  (format == ExportFormat::dpo ? " pairs" : " records") + " from " +
                  std::to_string(episodes_read) + " episodes\n";
  for (const auto& [path, n] : records_per_file) {
    s += "  " + path + ": " + std::to_string(n) + "\n";
  }
  if (!excluded.empty()) {
    s += format == ExportFormat::dpo ? "skipped:\n" : "dropped episodes by reason:\n";
    for (const auto& [k, n] : excluded) s += "  " + k + ": " + std::to_string(n) + "\n";
  }
  for (const auto& n : notes) s += "note: " + n + "\n";
  if (!manifest_path.empty()) {
    s += "manifest: " + manifest_path.string() + ", dataset card: " + card_path.string() + "\n";
  }
  return s;
}

Result<ExportSummary> export_trajectories(const std::vector<std::filesystem::path>& stores,
                                          const ExportOptions& options) {
  if (stores.empty()) return make_error(ErrorCode::invalid_argument, "no run directory given");
  if (options.out.empty()) return make_error(ErrorCode::invalid_argument, "--out is required");
  ExportSummary summary;
  summary.format = options.format;
  if (options.format == ExportFormat::dpo) {
    if (options.best_only) summary.notes.push_back("--best-only does not apply to dpo");
    if (options.dedupe) summary.notes.push_back("--dedupe does not apply to dpo");
    if (options.weight != WeightMode::all)
      summary.notes.push_back("--weight does not apply to dpo");
  }
  if (options.format == ExportFormat::raw && options.reasoning == ReasoningMode::drop) {
    summary.notes.push_back("raw keeps reasoning: it is loss-free");
  }
  CorrectnessLevels levels;
  if (!options.correctness_levels.empty()) {
    PF_ASSIGN(levels, load_correctness_levels(options.correctness_levels));
  }
  VerifyRule rule = verify_rule(options, options.correctness_levels.empty() ? nullptr : &levels);
  std::vector<Source> sources;
  for (const auto& p : stores) {
    PF_ASSIGN(auto reader, TrajectoryReader::open(p));
    sources.push_back({p, std::make_unique<TrajectoryReader>(std::move(reader)), {}, {}});
  }
  PF_ASSIGN(Outputs outputs, Outputs::open(options));
  PF_TRY(with_snapshots(sources, 0, [&]() -> Status {
    for (auto& src : sources) {
      PF_ASSIGN(auto runs, src.reader->runs());
      for (auto& r : runs) {
        Json j = to_json(r);
        // The configuration is in the store; the manifest names the run.
        j.erase("config_toml");
        j.erase("config_json");
        j["store"] = src.path.string();
        j["records"] = 0;
        summary.runs.push_back(std::move(j));
        src.runs[r.id] = std::move(r);
      }
      PF_ASSIGN(auto tasks, src.reader->tasks());
      for (auto& t : tasks) src.tasks[t.id] = std::move(t);
    }
    PF_ASSIGN(auto candidates, load_candidates(sources, options, rule, summary));
    if (options.format == ExportFormat::dpo) {
      return write_dpo(sources, std::move(candidates), options, rule, outputs, summary);
    }
    return write_episodes(sources, std::move(candidates), options, outputs, summary);
  }));
  PF_TRY(outputs.commit(summary));
  PF_TRY(write_manifest(options, rule, summary));
  return summary;
}

Result<ExportPreview> preview_export(const std::vector<std::filesystem::path>& stores,
                                     const ExportOptions& options) {
  if (options.format == ExportFormat::dpo) {
    return make_error(ErrorCode::invalid_argument, "no preview of dpo exports");
  }
  CorrectnessLevels levels;
  if (!options.correctness_levels.empty()) {
    PF_ASSIGN(levels, load_correctness_levels(options.correctness_levels));
  }
  // The same verified rule as the export itself.
  const VerifyRule rule =
      verify_rule(options, options.correctness_levels.empty() ? nullptr : &levels);
  std::vector<Source> sources;
  for (const auto& p : stores) {
    PF_ASSIGN(auto reader, TrajectoryReader::open(p));
    sources.push_back({p, std::make_unique<TrajectoryReader>(std::move(reader)), {}, {}});
  }
  ExportPreview preview;
  PF_TRY(with_snapshots(sources, 0, [&]() -> Status {
    for (auto& src : sources) {
      PF_ASSIGN(auto runs, src.reader->runs());
      for (auto& r : runs) src.runs[r.id] = std::move(r);
      PF_ASSIGN(auto tasks, src.reader->tasks());
      for (auto& t : tasks) src.tasks[t.id] = std::move(t);
    }
    ExportSummary summary;
    PF_ASSIGN(auto candidates, load_candidates(sources, options, rule, summary));
    Selection sel = select_episodes(std::move(candidates), options);
    preview.episodes_read = summary.episodes_read;
    preview.excluded = std::move(summary.excluded);
    for (const auto& [k, v] : sel.excluded) preview.excluded[k] += v;
    for (const auto& c : sel.kept) preview.kept.push_back(c.episode.id);
    return ok_status();
  }));
  return preview;
}

}  // namespace pf::traj
