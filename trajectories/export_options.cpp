#include "trajectories/export_options.h"

#include <charconv>
#include <cmath>

#include "common/check.h"
#include "common/sha256.h"
#include "common/strings.h"

namespace pf::traj {
namespace {

Error bad(const std::string& msg) { return make_error(ErrorCode::invalid_argument, msg); }

}  // namespace

Result<ExportFormat> parse_export_format(std::string_view s) {
  if (s == "openai") return ExportFormat::openai;
  if (s == "sharegpt") return ExportFormat::sharegpt;
  if (s == "trl") return ExportFormat::trl;
  if (s == "dpo") return ExportFormat::dpo;
  if (s == "raw") return ExportFormat::raw;
  return bad("unknown export format '" + std::string(s) +
             "' (one of openai, sharegpt, trl, dpo, raw)");
}

std::string_view to_string(ExportFormat f) {
  switch (f) {
    case ExportFormat::openai: return "openai";
    case ExportFormat::sharegpt: return "sharegpt";
    case ExportFormat::trl: return "trl";
    case ExportFormat::dpo: return "dpo";
    case ExportFormat::raw: return "raw";
  }
  return "?";
}

Result<ReasoningMode> parse_reasoning_mode(std::string_view s) {
  if (s == "keep") return ReasoningMode::keep;
  if (s == "drop") return ReasoningMode::drop;
  return bad("--reasoning must be keep or drop, not '" + std::string(s) + "'");
}

Result<WeightMode> parse_weight_mode(std::string_view s) {
  if (s == "all") return WeightMode::all;
  if (s == "final") return WeightMode::final;
  if (s == "improving") return WeightMode::improving;
  return bad("--weight must be all, final or improving, not '" + std::string(s) + "'");
}

Result<std::vector<SplitSpec>> parse_splits(std::string_view s) {
  std::vector<SplitSpec> out;
  double sum = 0;
  for (const auto& part : split(s, ',')) {
    auto eq = part.find('=');
    if (eq == std::string::npos) {
      return bad("--split: '" + part + "' is not name=fraction (e.g. train=0.9,val=0.1)");
    }
    SplitSpec spec{std::string(trim(part.substr(0, eq))), 0};
    std::string num(trim(part.substr(eq + 1)));
    auto [ptr, ec] = std::from_chars(num.data(), num.data() + num.size(), spec.fraction);
    if (ec != std::errc() || ptr != num.data() + num.size() || !(spec.fraction > 0)) {
      return bad("--split: fraction '" + num + "' of '" + spec.name + "' must be a number > 0");
    }
    if (spec.name.empty() ||
        spec.name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                    "0123456789_-") != std::string::npos) {
      return bad("--split: name '" + spec.name + "' may use only letters, digits, _ and -");
    }
    for (const auto& o : out) {
      if (o.name == spec.name) return bad("--split: '" + spec.name + "' appears twice");
    }
    sum += spec.fraction;
    out.push_back(spec);
  }
  if (std::fabs(sum - 1.0) > 1e-9) {
    return bad("--split: fractions sum to " + format_double(sum) + ", not 1");
  }
  return out;
}

const std::string& split_for_task(const std::vector<SplitSpec>& splits, std::string_view task_id) {
  PF_CHECK(!splits.empty());
  std::string hex = sha256_hex(task_id).substr(0, 16);
  uint64_t h = 0;
  std::from_chars(hex.data(), hex.data() + hex.size(), h, 16);
  double u = static_cast<double>(h >> 11) / static_cast<double>(uint64_t{1} << 53);
  double cumulative = 0;
  for (const auto& s : splits) {
    cumulative += s.fraction;
    if (u < cumulative) return s.name;
  }
  return splits.back().name;
}

std::filesystem::path split_path(const std::filesystem::path& out, const std::string& split) {
  auto p = out;
  if (out.has_extension()) {
    p.replace_extension("." + split + out.extension().string());
  } else {
    p += "." + split;
  }
  return p;
}

}  // namespace pf::traj
