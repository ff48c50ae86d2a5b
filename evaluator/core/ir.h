// The graph IR shared by tasks, patterns and the executors: a straight-line
// dataflow program whose nodes are canonical ops with normalised arguments.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "evaluator/core/dtype.h"
#include "evaluator/core/shape.h"

namespace pf {

using ValueId = int32_t;
inline constexpr ValueId kNoValue = -1;

struct SourceLoc {
  int line = 0;    // 1-based; 0 = unknown
  int column = 0;  // 1-based
};

//! One argument of a node: a literal, a reference to a graph value, or a
//! list/tuple/slice of arguments. After normalisation every schema parameter
//! has exactly one Arg, so two spellings of a call compare equal (except a
//! lone int vs a one-element int list, kept as written so printed code stays
//! valid PyTorch; the pass matcher treats them as equal).
struct Arg {
  enum class Kind : uint8_t {
    none,
    boolean,
    integer,
    real,
    string,
    dtype,
    device,    // text such as "cuda:0"; we run where we run, so it has no effect
    ellipsis,
    slice,     // items = {start, stop, step}, each none or integer (or value in patterns)
    list,
    tuple,
    value,     // a tensor (or tensor list) value of the graph
  };

  Kind kind = Kind::none;
  bool b = false;
  int64_t i = 0;
  double f = 0;
  std::string s;
  DType dtype = DType::float32;
  ValueId value = kNoValue;
  std::vector<Arg> items;

  static Arg make_none() { return Arg{}; }
  static Arg make_bool(bool v);
  static Arg make_int(int64_t v);
  static Arg make_real(double v);
  static Arg make_string(std::string v);
  static Arg make_dtype(DType v);
  static Arg make_device(std::string v);
  static Arg make_ellipsis();
  static Arg make_slice(Arg start, Arg stop, Arg step);
  static Arg make_list(std::vector<Arg> items);
  static Arg make_tuple(std::vector<Arg> items);
  static Arg make_value(ValueId v);

  bool is_none() const { return kind == Kind::none; }
  bool is_value() const { return kind == Kind::value; }
  bool is_number() const { return kind == Kind::integer || kind == Kind::real; }
  bool is_sequence() const { return kind == Kind::list || kind == Kind::tuple; }
  //! True if this Arg or any nested item references a value.
  bool references_values() const;

  //! Structural equality; reals compare exactly (literals are parsed text),
  //! and a NaN literal equals a NaN literal.
  bool operator==(const Arg& other) const;
};

//! Python-like rendering of a literal Arg ("(1, 2)", "None", "torch.float32");
//! value references render through `value_name`.
std::string arg_to_string(const Arg& arg, const std::vector<std::string>& value_names);

struct TensorType {
  DType dtype = DType::float32;
  Shape shape;
  bool operator==(const TensorType&) const = default;
};

std::string tensor_type_str(const TensorType& t);  // "float32[2, 3]"

struct Value {
  std::string name;             // the source name ("tmp_3"); printers keep it
  bool is_list = false;         // a tuple of tensors (split, unbind, ...)
  int producer = -1;            // index into Graph::nodes; -1 for graph inputs
  std::vector<TensorType> types;  // filled by type inference: 1 for a tensor, n for a list
};

struct Node {
  std::string op;          // canonical op name (OpRegistry)
  std::vector<Arg> args;   // one per op parameter, in schema order
  ValueId output = kNoValue;
  SourceLoc loc;
};

struct Graph {
  std::string name;               // function name ("forward", "pattern")
  std::vector<Value> values;
  std::vector<ValueId> inputs;    // parameters in order, `self` excluded
  std::vector<Node> nodes;        // in program order (topological)
  std::vector<ValueId> outputs;   // the returned values, in order

  ValueId add_value(std::string name, bool is_list, int producer);
  //! Indices of nodes that use `v` as an argument (directly or inside lists).
  std::vector<int> users(ValueId v) const;
  std::vector<std::string> value_names() const;
  //! Values referenced by a node's arguments, in order of appearance.
  static std::vector<ValueId> node_operands(const Node& node);
  //! Structural equality including value names and types.
  bool operator==(const Graph& other) const;
};

}  // namespace pf
