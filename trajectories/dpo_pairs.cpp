#include "trajectories/dpo_pairs.h"

#include "trajectories/conversation.h"
#include "trajectories/export_record.h"
#include "trajectories/result_summary.h"

namespace pf::traj {
namespace {

bool same_message(const MessageRecord& a, const MessageRecord& b) {
  return a.role == b.role && a.content == b.content && a.reasoning == b.reasoning &&
         a.tool_calls == b.tool_calls && a.tool_call_id == b.tool_call_id;
}

struct Side {
  const DpoEpisode* ep = nullptr;
  size_t last = 0;  // index of the continuation's last (assistant) message
  double score = 0;
  const EvaluationRecord* evaluation = nullptr;
};

//! Scores the continuation starting at message `d`; "" or the skip reason.
std::string score_side(const DpoEpisode& ep, size_t d, bool include_flagged, Side& side) {
  side.ep = &ep;
  int64_t turn = ep.messages[d].turn;
  for (const auto& e : ep.candidate->evaluations) {
    if (e.kind == EvalKind::compile || e.turn < turn) continue;
    bool flagged = e.hack_flags.is_array() && !e.hack_flags.empty();
    if (!include_flagged && e.unstable) return "unstable";
    if (!include_flagged && e.mode == EvalMode::compile_only) return "compile_only";
    side.evaluation = &e;
    side.score = !include_flagged && flagged ? 0.0 : e.as_score.value_or(failure_score(e.result));
    side.last = d;
    for (size_t i = d; i < ep.messages.size() && ep.messages[i].turn <= e.turn; ++i) {
      if (ep.messages[i].role == Role::assistant) side.last = i;
    }
    return "";
  }
  return "no_evaluation";
}

Json continuation(const Side& s, size_t d, bool keep) {
  Json out = Json::array();
  for (size_t i = d; i <= s.last; ++i) out.push_back(trl_message(s.ep->messages, i, keep));
  return out;
}

Json side_metadata(const Side& s) {
  const auto& ep = s.ep->candidate->episode;
  return {{"run", ep.run_id},
          {"episode", ep.id},
          {"sample", ep.sample_index},
          {"model", ep.model},
          {"as", s.score},
          {"evaluation", s.evaluation->id},
          {"flags", s.evaluation->hack_flags},
          {"es_curve", s.evaluation->es_curve}};
}

}  // namespace

DpoOutcome dpo_pairs(const std::vector<DpoEpisode>& eps, const ExportOptions& options) {
  DpoOutcome out;
  auto min_as = effective_min_as(options);
  bool keep = options.reasoning == ReasoningMode::keep;
  for (size_t a = 0; a < eps.size(); ++a) {
    for (size_t b = a + 1; b < eps.size(); ++b) {
      const auto& ma = eps[a].messages;
      const auto& mb = eps[b].messages;
      size_t d = 0;
      while (d < ma.size() && d < mb.size() && same_message(ma[d], mb[d])) ++d;
      if (d == ma.size() || d == mb.size()) {
        ++out.skipped["no_divergence"];
        continue;
      }
      if (ma[d].role != Role::assistant || mb[d].role != Role::assistant) {
        ++out.skipped["prefix_differs"];
        continue;
      }
      Side sa, sb;
      std::string why = score_side(eps[a], d, options.include_flagged, sa);
      if (why.empty()) why = score_side(eps[b], d, options.include_flagged, sb);
      if (!why.empty()) {
        ++out.skipped[why];
        continue;
      }
      if (sa.score == sb.score) {
        ++out.skipped["equal_as"];
        continue;
      }
      const Side& chosen = sa.score > sb.score ? sa : sb;
      const Side& rejected = sa.score > sb.score ? sb : sa;
      if (min_as && !(chosen.score > *min_as)) {
        ++out.skipped["min_as"];
        continue;
      }
      Json c = continuation(chosen, d, keep), r = continuation(rejected, d, keep);
      if (c == r) {
        ++out.skipped["identical"];
        continue;
      }
      int64_t tokens = std::max(conversation_tokens(chosen.ep->messages, chosen.last + 1),
                                conversation_tokens(rejected.ep->messages, rejected.last + 1));
      if (options.max_tokens && tokens > *options.max_tokens) {
        ++out.skipped["max_tokens"];
        continue;
      }
      Json prompt = Json::array();
      for (size_t i = 0; i < d; ++i) prompt.push_back(trl_message(ma, i, keep));
      ExportItem item;
      item.run = chosen.ep->run;
      item.task = chosen.ep->task;
      item.candidate = chosen.ep->candidate;
      item.source = chosen.ep->source;
      Json meta = export_metadata(item);
      Json record = {{"prompt", prompt}, {"chosen", c}, {"rejected", r}};
      const auto& tools = chosen.ep->candidate->episode.tools;
      if (tools.is_array() && !tools.empty()) record["tools"] = tools;
      Json m = {{"task", meta["task"]},
                {"prompt_variant", meta["prompt_variant"]},
                {"prefix_messages", d},
                {"tokens", tokens},
                {"chosen", side_metadata(chosen)},
                {"rejected", side_metadata(rejected)},
                {"provenance", meta["provenance"]}};
      if (meta.contains("split")) m["split"] = meta["split"];
      record["metadata"] = m;
      out.records.push_back(std::move(record));
    }
  }
  return out;
}

}  // namespace pf::traj
