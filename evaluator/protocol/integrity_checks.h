// Host-side integrity checks of the protocol (docs/design.md "Integrity") that
// need nothing but host tensors: the trivial-output guard, poison counting,
// element-wise bit comparison and digests (input checksums, determinism,
// re-checks: the device twins are evaluator/gpu/tensor_checks.h) and the
// detection of trivial candidate outputs. Pure; unit-tested on CPU tensors.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "evaluator/core/tensor.h"
#include "evaluator/scoring/tolerance.h"

namespace pf::protocol {

//! One trivial stand-in for a variant's outputs and the lowest tolerance
//! level at which it would pass (kMaxToleranceLevel + 1: at none).
struct TrivialCheck {
  std::string kind;        // "zeros", "constant", "input_copy"
  bool applicable = true;  // input_copy: every output has an input of its type
  int level = 0;
  std::string detail;  // "output 0 = in_1" for input_copy
};

//! The trivial-output guard: would all-zeros outputs, constant outputs (each
//! output's mean), or copies of same-typed inputs pass the comparison with
//! `expected`? If one passes at the guard level the task (variant) proves
//! nothing about correctness and is flagged `weak_task`, not the model.
std::vector<TrivialCheck> trivial_output_guard(const std::vector<Tensor>& expected,
                                               const std::vector<Tensor>& inputs,
                                               const std::vector<std::string>& input_names);

//! The kind ("zeros", "constant", "input_copy") when the candidate's outputs
//! are exactly such a trivial output (bit for bit), else nullopt.
std::optional<std::string> trivial_kind_of(const std::vector<Tensor>& candidate,
                                           const std::vector<Tensor>& inputs);

//! Elements of a contiguous tensor whose bits are still the protocol's
//! poison: the quiet NaN of its float format (as sandbox/cuda's PoisonKind
//! writes it) or, for other dtypes, every byte equal to `poison_byte`.
//! With `expected` (same shape), elements where the expected value is NaN are
//! not counted (a kernel may legitimately produce a NaN there).
int64_t count_poison(const Tensor& t, uint8_t poison_byte = 0xA5, const Tensor* expected = nullptr);

//! Elements whose bytes differ (same dtype and shape; contiguous views).
//! -1 when the dtypes or shapes differ.
int64_t count_changed_elements(const Tensor& a, const Tensor& b);

//! True when both tensors have the same dtype, shape and bytes.
bool bitwise_equal(const Tensor& a, const Tensor& b);

//! The keyed 64-bit digest of `t`'s elements in row-major order
//! (evaluator/core/tensor_digest.h): what gpu::device_digest computes on the
//! device. Equal digests under a key the tensor's producer never saw mean the
//! same dtype, element count and bits.
uint64_t tensor_digest(const Tensor& t, uint64_t key);

}  // namespace pf::protocol
