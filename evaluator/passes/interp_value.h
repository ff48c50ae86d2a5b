// Values of the replacement interpreter: Python-like scalars, tuples and
// tensors. A tensor is a handle into the run's tensor table (TensorMeta:
// dtype, shape, strides, offset); the backend owns the storage behind it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "evaluator/core/dtype.h"
#include "evaluator/core/ir.h"
#include "evaluator/core/shape.h"

namespace pf::passes {

struct TensorMeta {
  DType dtype = DType::float32;
  Shape shape;
  Strides strides;
  int64_t offset = 0;  // elements

  TensorType type() const { return {dtype, shape}; }
  static TensorMeta contiguous(const TensorType& type);
};

struct RValue {
  enum class Kind : uint8_t {
    none,
    boolean,
    integer,
    real,
    string,
    dtype,
    device,
    tensor,
    tuple,
    opaque,  // a bound literal the language has no use for (a slice, `...`): can only be passed
             // along
  };

  Kind kind = Kind::none;
  bool b = false;
  int64_t i = 0;
  double f = 0;
  std::string s;  // string, device, opaque: its text
  DType dtype = DType::float32;
  int tensor = -1;
  std::vector<RValue> items;

  static RValue none() { return {}; }
  static RValue boolean(bool v);
  static RValue integer(int64_t v);
  static RValue real(double v);
  static RValue string(std::string v);
  static RValue of_dtype(DType v);
  static RValue device(std::string v);
  static RValue of_tensor(int handle);
  static RValue tuple(std::vector<RValue> items);
  static RValue opaque(std::string text);

  bool is_int() const { return kind == Kind::integer || kind == Kind::boolean; }
  int64_t as_int() const { return kind == Kind::boolean ? (b ? 1 : 0) : i; }
  bool is_tensor() const { return kind == Kind::tensor; }
};

//! "an int", "a float", "a tensor", "a tuple", ... for messages.
const char* kind_phrase(RValue::Kind kind);

//! Python-like rendering ("5", "(1, 2)", "torch.float16", "tensor float32[2, 3]").
std::string render(const RValue& v, const std::vector<TensorMeta>& tensors);

//! A literal argument of a replacement call as a value (lists become tuples;
//! value references are not literals and become `opaque`).
RValue literal_value(const Arg& arg);

}  // namespace pf::passes
