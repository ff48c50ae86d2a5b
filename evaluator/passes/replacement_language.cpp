#include "evaluator/passes/replacement_language.h"

#include <array>
#include <string_view>

namespace pf::passes::lang {
namespace {

template <size_t N>
bool contains(const std::array<std::string_view, N>& set, std::string_view s) {
  for (auto e : set) {
    if (e == s) return true;
  }
  return false;
}

constexpr std::array<std::string_view, 4> kAllocations = {"torch.empty", "torch.empty_like",
                                                          "torch.zeros", "torch.zeros_like"};
constexpr std::array<std::string_view, 6> kMetadataMethods = {
    "size", "stride", "numel", "dim", "is_contiguous", "element_size"};
constexpr std::array<std::string_view, 4> kMetadataAttributes = {"shape", "dtype", "ndim",
                                                                 "device"};
constexpr std::array<std::string_view, 4> kBuiltins = {"launch", "cdiv", "min", "max"};

}  // namespace

bool is_allocation(std::string_view dotted) {
  return contains(kAllocations, dotted);
}
bool is_metadata_method(std::string_view name) {
  return contains(kMetadataMethods, name);
}
bool is_metadata_attribute(std::string_view name) {
  return contains(kMetadataAttributes, name);
}
bool is_builtin(std::string_view name) {
  return contains(kBuiltins, name);
}

const std::string& allowed_calls_text() {
  static const std::string kText =
      "launch(\"kernel\", grid=..., block=..., smem=..., args=(...)), cdiv(a, b), min(...), "
      "max(...), torch.empty/empty_like/zeros/zeros_like(..., dtype=...), and the metadata "
      "methods x.size(i), x.stride(i), x.numel(), x.dim(), x.is_contiguous(), x.element_size()";
  return kText;
}

const std::string& allowed_metadata_text() {
  static const std::string kText =
      "x.shape, x.shape[i], x.dtype, x.ndim, x.device, x.size(i), x.stride(i), x.numel(), "
      "x.dim(), x.is_contiguous(), x.element_size()";
  return kText;
}

const std::string& allowed_statements_text() {
  static const std::string kText = "assignments, if/elif/else, launch(...), return and pass";
  return kText;
}

}  // namespace pf::passes::lang
