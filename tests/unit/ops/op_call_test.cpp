// Calls through the registry the way the dialect makes them (find_alias ->
// resolve -> normalize -> infer_types -> CPU): overloads, canonical forms,
// exactness, aliasing and the error messages users and LLMs see.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "evaluator/ops/cpu_executor.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/type_inference.h"

namespace pf {
namespace {

using Keywords = std::vector<std::pair<std::string, Arg>>;

// One call with graph inputs in_0.. (referenced as Arg::make_value(i)).
struct Call {
  Graph graph;
  std::string op;  // the resolved canonical op
  Status status;   // first failure: resolve/normalize/infer
  std::vector<Tensor> outputs;
  Status run_status;
};

Call call(const std::string& spelling, std::vector<Arg> positional, Keywords keywords,
          const std::vector<Tensor>& inputs) {
  const OpRegistry& r = OpRegistry::builtin();
  Call c;
  for (size_t i = 0; i < inputs.size(); ++i) {
    c.graph.inputs.push_back(c.graph.add_value("in_" + std::to_string(i), false, -1));
  }
  const OpInfo* found = r.find_alias(spelling);
  if (!found) {
    c.status = make_error(ErrorCode::not_found, "no alias " + spelling);
    return c;
  }
  const OpInfo& op = r.resolve(*found, spelling, positional, keywords);
  c.op = op.name;
  auto args = r.normalize(op, std::move(positional), std::move(keywords));
  if (!args.ok()) {
    c.status = args.error();
    return c;
  }
  Node node;
  node.op = op.name;
  node.args = std::move(*args);
  node.output = c.graph.add_value("out", op.returns_list, 0);
  c.graph.nodes.push_back(node);
  c.graph.outputs.push_back(node.output);
  std::vector<TensorType> types;
  types.reserve(inputs.size());
  for (const auto& t : inputs) types.push_back({t.dtype(), t.shape()});
  c.status = infer_types(c.graph, types, r);
  if (!c.status.ok() || op.returns_list) return c;
  auto outs = run_graph_cpu(c.graph, inputs, r);
  if (outs.ok()) {
    c.outputs = std::move(*outs);
  } else {
    c.run_status = outs.error();
  }
  return c;
}

Arg v(int i) {
  return Arg::make_value(i);
}
Tensor f32(const Shape& shape, const std::vector<double>& values) {
  return Tensor::from_doubles(DType::float32, shape, values);
}
const TensorType& out_type(const Call& c) {
  return c.graph.values[c.graph.nodes[0].output].types[0];
}

TEST(OpCall, ScalarOperandsPromoteLikePyTorch) {
  Tensor i32 = Tensor::from_doubles(DType::int32, {3}, {1, 2, 3});
  Call c = call("operator.mul", {v(0), Arg::make_real(2.5)}, {}, {i32});
  ASSERT_TRUE(c.status.ok()) << c.status.error().message;
  EXPECT_EQ(out_type(c).dtype, DType::float32);
  EXPECT_EQ(c.outputs[0].to_doubles(), (std::vector<double>{2.5, 5, 7.5}));

  Tensor h = Tensor::from_doubles(DType::float16, {2}, {1, 2});
  c = call("operator.add", {Arg::make_real(1.0), v(0)}, {}, {h});
  ASSERT_TRUE(c.status.ok());
  EXPECT_EQ(out_type(c).dtype, DType::float16);

  Tensor b = Tensor::from_doubles(DType::boolean, {2}, {1, 0});
  c = call("operator.add", {v(0), v(1)}, {}, {b, b});
  ASSERT_TRUE(c.status.ok());
  EXPECT_EQ(out_type(c).dtype, DType::boolean);
}

TEST(OpCall, Int64ArithmeticIsExact) {
  Tensor big = Tensor::zeros(DType::int64, {1});
  big.set_int(0, (int64_t{1} << 60) + 1);
  Call c = call("torch.add", {v(0), v(0)}, {}, {big});
  ASSERT_TRUE(c.status.ok());
  EXPECT_EQ(c.outputs[0].get_int(0), (int64_t{1} << 61) + 2);
  c = call("torch.sum", {v(0)}, {}, {big});
  EXPECT_EQ(c.outputs[0].get_int(0), (int64_t{1} << 60) + 1);
}

TEST(OpCall, MaxOverloads) {
  Tensor x = f32({2, 3}, {1, 5, 2, 7, 0, 7});
  Call full = call("torch.max", {v(0)}, {}, {x});
  EXPECT_EQ(full.op, "max");
  ASSERT_TRUE(full.status.ok());
  EXPECT_EQ(full.outputs[0].shape(), Shape{});
  EXPECT_EQ(full.outputs[0].get(0), 7);

  Call dim = call("Tensor.max", {v(0), Arg::make_int(1)}, {}, {x});
  EXPECT_EQ(dim.op, "max_dim");
  ASSERT_TRUE(dim.status.ok()) << dim.status.error().message;
  const auto& types = dim.graph.values[dim.graph.nodes[0].output].types;
  ASSERT_EQ(types.size(), 2u);
  EXPECT_EQ(types[1].dtype, DType::int64);

  Call kw = call("torch.min", {v(0)},
                 {{"dim", Arg::make_int(0)}, {"keepdim", Arg::make_bool(true)}}, {x});
  EXPECT_EQ(kw.op, "min_dim");

  Call other = call("torch.max", {v(0), v(1)}, {}, {x, x});
  EXPECT_EQ(other.op, "maximum");
}

TEST(OpCall, CastsCanonicaliseAndAliasLikePyTorch) {
  Tensor x = f32({2}, {1.5, -2});
  Call half = call("Tensor.half", {v(0)}, {}, {x});
  EXPECT_EQ(half.op, "to");
  ASSERT_TRUE(half.status.ok());
  Call to = call("Tensor.to", {v(0), Arg::make_dtype(DType::float16)}, {}, {x});
  EXPECT_EQ(half.graph.nodes[0].args, to.graph.nodes[0].args);

  Call device = call("Tensor.to",
                     {v(0), Arg::make_device("cuda:0"), Arg::make_dtype(DType::float16)}, {}, {x});
  EXPECT_EQ(device.graph.nodes[0].args, to.graph.nodes[0].args);

  Call same = call("Tensor.to", {v(0), Arg::make_dtype(DType::float32)}, {}, {x});
  ASSERT_TRUE(same.status.ok());
  EXPECT_TRUE(same.outputs[0].shares_storage(x));  // PyTorch returns self
  EXPECT_FALSE(to.outputs[0].shares_storage(x));

  Call like = call("Tensor.to", {v(0), v(1)}, {}, {x, Tensor::zeros(DType::bfloat16, {1})});
  EXPECT_EQ(like.op, "type_as");
  EXPECT_EQ(out_type(like).dtype, DType::bfloat16);
}

TEST(OpCall, SpellingsWithDifferentArgumentOrders) {
  Tensor x = f32({3}, {1, 2, 3});
  Tensor cond = Tensor::from_doubles(DType::boolean, {3}, {1, 0, 1});
  Tensor y = f32({3}, {-1, -2, -3});
  Call fn = call("torch.where", {v(1), v(0), v(2)}, {}, {x, cond, y});
  Call method = call("Tensor.where", {v(0), v(1), v(2)}, {}, {x, cond, y});
  ASSERT_TRUE(method.status.ok()) << method.status.error().message;
  EXPECT_EQ(fn.graph.nodes[0].args, method.graph.nodes[0].args);
  EXPECT_EQ(method.outputs[0].to_doubles(), (std::vector<double>{1, -2, 3}));

  Call torch_softmax =
      call("torch.softmax", {v(0), Arg::make_int(0), Arg::make_dtype(DType::float64)}, {}, {x});
  Call f_softmax =
      call("torch.nn.functional.softmax", {v(0)},
           {{"dim", Arg::make_int(0)}, {"dtype", Arg::make_dtype(DType::float64)}}, {x});
  ASSERT_TRUE(torch_softmax.status.ok()) << torch_softmax.status.error().message;
  EXPECT_EQ(torch_softmax.graph.nodes[0].args, f_softmax.graph.nodes[0].args);
  EXPECT_EQ(out_type(torch_softmax).dtype, DType::float64);

  Call arange1 = call("torch.arange", {Arg::make_int(5)}, {}, {});
  Call arange2 = call("torch.arange", {}, {{"end", Arg::make_int(5)}}, {});
  EXPECT_EQ(arange1.graph.nodes[0].args, arange2.graph.nodes[0].args);

  Call var_flag = call("torch.var", {v(0), Arg::make_bool(false)}, {}, {x});
  Call var_kw = call("torch.var", {v(0)}, {{"unbiased", Arg::make_bool(false)}}, {x});
  EXPECT_EQ(var_flag.graph.nodes[0].args, var_kw.graph.nodes[0].args);
  EXPECT_NEAR(var_flag.outputs[0].get(0), 2.0 / 3.0, 1e-7);
}

// Errors name the op, the parameter and the offending shapes or values.
void expect_error(const Call& c, const std::vector<std::string>& fragments) {
  const Status& s = c.status.ok() ? c.run_status : c.status;
  ASSERT_FALSE(s.ok()) << "expected an error";
  for (const auto& f : fragments) {
    EXPECT_NE(s.error().message.find(f), std::string::npos)
        << "'" << f << "' missing from: " << s.error().message;
  }
}

TEST(OpCall, ErrorMessagesNameTheProblem) {
  Tensor a = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor b = f32({4}, {1, 2, 3, 4});
  expect_error(call("torch.add", {v(0), v(1)}, {}, {a, b}),
               {"add", "'input' [2, 3]", "'other' [4]", "broadcast"});
  expect_error(call("torch.add", {v(0)}, {}, {a}), {"add", "missing", "'other'"});
  expect_error(call("torch.add", {v(0), v(0)}, {{"alpah", Arg::make_int(2)}}, {a}),
               {"alpha"});  // did you mean
  expect_error(
      call("torch.nn.functional.gelu", {v(0)}, {{"approximate", Arg::make_string("fast")}}, {a}),
      {"gelu", "'approximate'", "'tanh'", "fast"});
  expect_error(call("torch.exp", {Arg::make_real(1.0)}, {}, {}), {"exp", "'input'", "tensor"});
  expect_error(call("torch.sum", {v(0), v(0)}, {}, {a}), {"sum", "'dim'", "tensor value"});
  expect_error(call("torch.sum", {v(0), Arg::make_int(2)}, {}, {a}), {"sum", "'dim'", "dim 2"});
  expect_error(call("torch.norm", {v(0)}, {{"p", Arg::make_string("abc")}}, {a}),
               {"'abc'", "unsupported"});
  // 'nuc' is a matrix norm: over exactly two dims.
  expect_error(
      call("torch.norm", {v(0)}, {{"p", Arg::make_string("nuc")}, {"dim", Arg::make_int(1)}}, {a}),
      {"matrix_norm", "two dims"});
  expect_error(
      call("torch.arange", {Arg::make_int(0), Arg::make_int(5), Arg::make_int(-1)}, {}, {}),
      {"arange", "step"});
  expect_error(call("torch.nn.functional.glu", {v(0)}, {}, {a}), {"glu", "even", "size 3"});
  Tensor mask = Tensor::from_doubles(DType::boolean, {2}, {1, 0});
  expect_error(call("Tensor.masked_fill", {v(0), v(1), Arg::make_real(-3.4028234663852886e+38)}, {},
                    {Tensor::zeros(DType::float16, {2}), mask}),
               {"masked_fill", "'value'", "float16", "overflow"});
  Tensor ints = Tensor::from_doubles(DType::int64, {2}, {5, 7});
  Tensor zero = Tensor::from_doubles(DType::int64, {2}, {1, 0});
  expect_error(call("operator.floordiv", {v(0), v(1)}, {}, {ints, zero}),
               {"floor_divide", "division by zero"});
  Tensor bools = Tensor::from_doubles(DType::boolean, {2}, {1, 0});
  expect_error(call("operator.sub", {v(0), v(0)}, {}, {bools}), {"sub", "bool", "logical"});
  expect_error(call("operator.add", {Arg::make_int(1), Arg::make_int(2)}, {}, {}),
               {"add", "tensor"});
  // Sizes nothing could allocate are refused at type inference, not met as
  // std::bad_alloc (or an overflowing element count) later.
  expect_error(call("torch.zeros", {Arg::make_int(1000000000000)}, {}, {}),
               {"zeros", "[1000000000000]", "16 GiB"});
  expect_error(
      call("torch.zeros",
           {Arg::make_list({Arg::make_int(int64_t{1} << 40), Arg::make_int(int64_t{1} << 40)})}, {},
           {}),
      {"zeros", "16 GiB"});
  EXPECT_TRUE(call("torch.zeros", {Arg::make_int(1000)}, {}, {}).status.ok());
}

// The same limit reached in other disguises: a count of bins, a repeat of a
// small input, a fill; each would otherwise allocate terabytes on the CPU.
TEST(OpCall, HugeOutputsInOtherDisguisesAreRefusedAtTypeInference) {
  Tensor x = f32({4}, {1, 2, 3, 4});
  expect_error(call("torch.histc", {v(0)}, {{"bins", Arg::make_int(1000000000000)}}, {x}),
               {"histc", "16 GiB"});
  expect_error(
      call("Tensor.repeat", {v(0), Arg::make_int(1000000), Arg::make_int(1000000)}, {}, {x}),
      {"repeat", "16 GiB"});
  expect_error(
      call("torch.full",
           {Arg::make_list({Arg::make_int(70000), Arg::make_int(70000)}), Arg::make_real(1.5)}, {},
           {}),
      {"full", "16 GiB"});
}

TEST(OpCall, CpuRunRefusesInputsThatDisagreeWithTheTypes) {
  Tensor x = f32({2}, {1, 2});
  Call c = call("torch.exp", {v(0)}, {}, {x});
  ASSERT_TRUE(c.status.ok());
  auto wrong_shape = run_graph_cpu(c.graph, {f32({3}, {1, 2, 3})}, OpRegistry::builtin());
  ASSERT_FALSE(wrong_shape.ok());
  EXPECT_NE(wrong_shape.error().message.find("expected float32[2], got float32[3]"),
            std::string::npos)
      << wrong_shape.error().message;
  auto wrong_dtype =
      run_graph_cpu(c.graph, {Tensor::zeros(DType::float16, {2})}, OpRegistry::builtin());
  EXPECT_FALSE(wrong_dtype.ok());
}

}  // namespace
}  // namespace pf
