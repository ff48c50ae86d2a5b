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
  Verdict verdict;
};

//! Judges the continuation starting at message `d`; false when no
//! evaluation follows it.
bool score_side(const DpoEpisode& ep, size_t d, const VerifyRule& rule, Side& side) {
  side.ep = &ep;
  int64_t turn = ep.messages[d].turn;
  for (const auto& e : ep.candidate->evaluations) {
    if (e.kind == EvalKind::compile || e.turn < turn) continue;
    side.evaluation = &e;
    side.verdict = verify_evaluation(e, *ep.task, rule);
    side.score = e.as_score.value_or(failure_score(e.result));
    side.last = d;
    for (size_t i = d; i < ep.messages.size() && ep.messages[i].turn <= e.turn; ++i) {
      if (ep.messages[i].role == Role::assistant) side.last = i;
    }
    return true;
  }
  return false;
}

//! a strictly better than b: verified over unverified, then the higher AS.
bool strictly_better(const Side& a, const Side& b) {
  if (a.verdict.verified() != b.verdict.verified()) return a.verdict.verified();
  return a.score > b.score;
}

Json continuation(const Side& s, size_t d, bool keep) {
  Json out = Json::array();
  for (size_t i = d; i <= s.last; ++i) out.push_back(trl_message(s.ep->messages, i, keep));
  return out;
}

Json opt(const std::optional<double>& v) {
  return v ? Json(*v) : Json(nullptr);
}

Json side_metadata(const Side& s) {
  const auto& ep = s.ep->candidate->episode;
  const auto& e = *s.evaluation;
  return {
      {"run", ep.run_id},
      {"episode", ep.id},
      {"sample", ep.sample_index},
      {"model", ep.model},
      {"as", opt(e.as_score)},
      {"hidden_as", opt(e.hidden_as)},
      {"correct_rate", opt(e.correct_rate)},
      {"correct_share", opt(s.verdict.correct_share)},
      {"verified", s.verdict.verified()},
      {"rejection", s.verdict.verified() ? Json(nullptr) : Json(to_string(s.verdict.rejection))},
      {"mode", to_string(e.mode)},
      {"evaluation", e.id},
      {"flags", e.hack_flags},
      {"unstable", e.unstable},
      {"es_curve", e.es_curve}};
}

}  // namespace

DpoOutcome dpo_pairs(const std::vector<DpoEpisode>& eps, const ExportOptions& options,
                     const VerifyRule& rule) {
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
      if (!score_side(eps[a], d, rule, sa) || !score_side(eps[b], d, rule, sb)) {
        ++out.skipped["no_evaluation"];
        continue;
      }
      if (!sa.verdict.verified() && !sb.verdict.verified()) {
        ++out.skipped["no_verified_side"];
        continue;
      }
      if (!strictly_better(sa, sb) && !strictly_better(sb, sa)) {
        ++out.skipped["equal_as"];
        continue;
      }
      const Side& chosen = strictly_better(sa, sb) ? sa : sb;
      const Side& rejected = strictly_better(sa, sb) ? sb : sa;
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
      out.chosen.push_back(chosen.ep->candidate);
    }
  }
  return out;
}

}  // namespace pf::traj
