#include "evaluator/protocol/input_draw_cache.h"

#include <cstring>
#include <nlohmann/json.hpp>

#include "common/sha256.h"

namespace pf::protocol {
namespace {

InputDraw deep_copy(const InputDraw& draw) {
  InputDraw out = draw;
  for (auto& t : out.inputs) t = t.contiguous_copy();
  for (auto& t : out.outputs) t = t.contiguous_copy();
  return out;
}

uint64_t draw_bytes(const InputDraw& draw) {
  uint64_t n = 0;
  for (const auto& t : draw.inputs) n += t.nbytes();
  for (const auto& t : draw.outputs) n += t.nbytes();
  return n;
}

void append_raw(std::string& out, const void* p, size_t n) {
  out.append(static_cast<const char*>(p), n);
}

}  // namespace

InputDrawCache& InputDrawCache::process() {
  static InputDrawCache cache(kProcessBudgetBytes);
  return cache;
}

std::string InputDrawCache::key(const TaskVariant& variant, const SynthesisOptions& options) {
  std::string text = variant_content(variant);
  append_raw(text, &options.seed, sizeof(options.seed));
  append_raw(text, &options.round, sizeof(options.round));
  append_raw(text, &options.zero_std, sizeof(options.zero_std));
  append_raw(text, &options.spread, sizeof(options.spread));
  return sha256_hex(text);
}

std::optional<InputDraw> InputDrawCache::find(const std::string& key) {
  std::lock_guard<std::mutex> lock(mu_);
  const InputDraw* draw = entries_.find(key);
  if (draw == nullptr) return std::nullopt;
  return deep_copy(*draw);
}

void InputDrawCache::insert(const std::string& key, const InputDraw& draw) {
  const uint64_t bytes = draw_bytes(draw);
  if (bytes > entries_.budget()) return;  // not copied only to be dropped
  InputDraw copy = deep_copy(draw);
  std::lock_guard<std::mutex> lock(mu_);
  entries_.put(key, std::move(copy), bytes);
}

uint64_t InputDrawCache::bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return entries_.cost();
}

size_t InputDrawCache::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return entries_.size();
}

}  // namespace pf::protocol
