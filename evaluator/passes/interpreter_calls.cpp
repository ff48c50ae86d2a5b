// Calls of the replacement interpreter: launch(...), allocations, tensor
// metadata methods and the integer builtins.
#include <algorithm>
#include <cstdint>

#include "common/strings.h"
#include "evaluator/dialect/spelling.h"
#include "evaluator/passes/interpreter_impl.h"
#include "evaluator/passes/replacement_language.h"

namespace pf::passes {

using dialect::Expr;

namespace {

bool contiguous_layout(const TensorMeta& t) {
  int64_t expected = 1;
  for (size_t k = t.shape.size(); k-- > 0;) {
    if (t.shape[k] == 1) continue;
    if (t.strides[k] != expected) return false;
    expected *= t.shape[k];
  }
  return true;
}

int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

}  // namespace

Result<RValue> Run::call(const Expr& e) {
  const Expr& callee = e.children[0];
  if (callee.kind == Expr::Kind::name) {
    if (callee.text == "launch") return launch(e);
    if (lang::is_builtin(callee.text)) return builtin(e, callee.text);
    return error(e.loc, "'" + callee.text + "' cannot be called in replacement bodies; callable: " +
                            lang::allowed_calls_text());
  }
  if (callee.kind == Expr::Kind::attribute) {
    auto dotted = dialect::dotted_path(callee);
    if (dotted && locals_.count(dotted->substr(0, dotted->find('.'))) == 0) {
      std::string spelling = dialect::canonical_spelling(*dotted, pass_.aliases);
      if (lang::is_allocation(spelling)) return allocation(e, spelling);
      return error(e.loc, "'" + spelling + "' cannot be called in replacement bodies; callable: " +
                              lang::allowed_calls_text());
    }
    if (lang::is_metadata_method(callee.text)) return metadata_method(e, callee.text);
  }
  return error(e.loc, "this call is not allowed in replacement bodies; callable: " +
                          lang::allowed_calls_text());
}

Result<std::array<int64_t, 3>> Run::dims3(const RValue& v, const char* what, SourceLoc loc) {
  std::vector<RValue> items = v.kind == RValue::Kind::tuple ? v.items : std::vector<RValue>{v};
  if (items.empty() || items.size() > 3) {
    return error(loc,
                 std::string(what) + " must be an int or a tuple of 1 to 3 ints, got " + show(v));
  }
  std::array<int64_t, 3> out{1, 1, 1};
  static const char* kAxis[] = {"x", "y", "z"};
  for (size_t k = 0; k < items.size(); ++k) {
    PF_ASSIGN(out[k], to_int(items[k], std::string(what) + "." + kAxis[k], loc));
    if (out[k] < 1) {
      return error(loc, std::string(what) + "." + kAxis[k] + " is " + std::to_string(out[k]) +
                            "; a launch needs at least 1 (skip empty tensors with an if)");
    }
  }
  return out;
}

Result<cuda::LaunchConfig> Run::launch_config(const Expr& e) {
  cuda::LaunchConfig config;
  for (const auto& kw : e.keywords) {
    if (kw.name != "grid" && kw.name != "block" && kw.name != "smem") continue;
    PF_ASSIGN(RValue v, eval(kw.value));
    if (kw.name == "grid") {
      PF_ASSIGN(config.grid, dims3(v, "grid", kw.loc));
    } else if (kw.name == "block") {
      PF_ASSIGN(config.block, dims3(v, "block", kw.loc));
    } else {
      PF_ASSIGN(config.dynamic_smem_bytes, to_int(v, "smem", kw.loc));
      if (config.dynamic_smem_bytes < 0) return error(kw.loc, "smem cannot be negative");
    }
  }
  return config;
}

Result<RValue> Run::launch(const Expr& e) {
  if (e.children.size() != 2) {
    return error(e.loc,
                 "launch() takes the kernel name positionally, then grid=, block=, smem= "
                 "and args= as keywords");
  }
  PF_ASSIGN(RValue name, eval(e.children[1]));
  if (name.kind != RValue::Kind::string) {
    return error(e.children[1].loc,
                 std::string("the kernel name must be a string, got ") + kind_phrase(name.kind));
  }
  auto it = kernels_.find(name.s);
  if (it == kernels_.end()) {
    std::vector<std::string> names;
    for (const auto& [k, info] : kernels_) names.push_back(k);
    std::string hint = closest_match(name.s, names);
    return error(e.children[1].loc,
                 "no kernel named '" + name.s + "' in kernels/" +
                     (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                     "; kernels: " + (names.empty() ? std::string("none") : join(names, ", ")) +
                     " (kernels must be extern \"C\" __global__)");
  }
  const cuda::KernelInfo& kernel = it->second;
  if (static_cast<int>(out_.launches.size()) >= limits_.max_launches) {
    return limit_error(e.loc, "more than " + std::to_string(limits_.max_launches) +
                                  " launches in one replacement call");
  }
  PF_ASSIGN(cuda::LaunchConfig config, launch_config(e));
  RValue args = RValue::tuple({});
  for (const auto& kw : e.keywords) {
    if (kw.name != "args") continue;
    PF_ASSIGN(args, eval(kw.value));
    if (args.kind != RValue::Kind::tuple) {
      return error(kw.loc, "args= must be a tuple, e.g. args=(x, out, n); got " +
                               std::string(kind_phrase(args.kind)));
    }
  }
  LaunchRecord record;
  record.kernel = kernel.name;
  record.config = config;
  record.line = e.loc.line;
  std::vector<cuda::KernelArg> kargs;
  for (size_t k = 0; k < args.items.size(); ++k) {
    const RValue& a = args.items[k];
    record.args.push_back(show(a));
    switch (a.kind) {
      case RValue::Kind::tensor: {
        PF_ASSIGN(CUdeviceptr ptr, backend_.data_ptr(a.tensor));
        kargs.push_back(cuda::KernelArg::tensor(ptr));
        break;
      }
      case RValue::Kind::integer:
      case RValue::Kind::boolean:
        kargs.push_back(cuda::KernelArg::of_int(a.as_int()));
        break;
      case RValue::Kind::real:
        kargs.push_back(cuda::KernelArg::of_float(a.f));
        break;
      default:
        return error(e.loc, "launch argument " + std::to_string(k + 1) + " is " +
                                kind_phrase(a.kind) + " (" + show(a) +
                                "); kernels take tensors, ints and floats");
    }
  }
  auto pack = cuda::marshal_kernel_args(kernel.name, kernel.params, kargs);
  if (!pack.ok()) return error(e.loc, pack.error().message);
  PF_ASSIGN(cuda::FunctionLimits flimits, backend_.function_limits(kernel));
  Status valid = cuda::validate_launch(kernel.name, config, backend_.device_limits(), flimits);
  if (!valid.ok()) return error(e.loc, valid.error().message);
  Status launched = backend_.launch(kernel, config, std::move(*pack));
  if (!launched.ok()) return error(e.loc, launched.error().message);
  out_.launches.push_back(std::move(record));
  return RValue::none();
}

Result<RValue> Run::allocation(const Expr& e, const std::string& function) {
  bool like = ends_with(function, "_like");
  bool zero = function == "torch.zeros" || function == "torch.zeros_like";
  TensorType type;
  std::vector<RValue> positional;
  for (size_t k = 1; k < e.children.size(); ++k) {
    PF_ASSIGN(RValue v, eval(e.children[k]));
    positional.push_back(std::move(v));
  }
  if (like) {
    if (positional.size() != 1) return error(e.loc, function + "(x) takes one tensor");
    PF_ASSIGN(const TensorMeta* t, to_tensor(positional[0], function + "'s argument", e.loc));
    type = t->type();
  } else {
    if (positional.size() == 1 && positional[0].kind == RValue::Kind::tuple) {
      positional = positional[0].items;
    }
    for (const RValue& d : positional) {
      PF_ASSIGN(int64_t n, to_int(d, "a dimension of " + function, e.loc));
      if (n < 0) return error(e.loc, function + ": negative dimension " + std::to_string(n));
      type.shape.push_back(n);
    }
  }
  for (const auto& kw : e.keywords) {
    PF_ASSIGN(RValue v, eval(kw.value));
    if (kw.name == "dtype") {
      if (v.kind != RValue::Kind::dtype) {
        return error(kw.loc,
                     "dtype= must be a dtype such as torch.float16 or x.dtype, got " + show(v));
      }
      type.dtype = v.dtype;
    } else if (kw.name != "device") {
      return error(kw.loc, function + "() accepts dtype= and device= only");
    }
  }
  int64_t numel = 1;
  for (int64_t d : type.shape) {
    if (__builtin_mul_overflow(numel, d, &numel)) {
      return limit_error(e.loc, function + ": the shape's element count overflows int64");
    }
  }
  int64_t bytes = 0;
  if (__builtin_mul_overflow(numel, static_cast<int64_t>(dtype_size(type.dtype)), &bytes) ||
      bytes > limits_.max_alloc_bytes - allocated_bytes_) {
    return limit_error(e.loc, function + " of " + tensor_type_str(type) +
                                  " exceeds the allocation "
                                  "limit of " +
                                  std::to_string(limits_.max_alloc_bytes >> 20) +
                                  " MiB per replacement call");
  }
  if (allocations_ >= limits_.max_allocations) {
    return limit_error(e.loc, "more than " + std::to_string(limits_.max_allocations) +
                                  " allocations in one replacement call");
  }
  int handle = static_cast<int>(out_.tensors.size());
  Status made = backend_.allocate(handle, type, zero);
  if (!made.ok()) return error(e.loc, made.error().message);
  out_.tensors.push_back(TensorMeta::contiguous(type));
  allocated_bytes_ += bytes;
  ++allocations_;
  return RValue::of_tensor(handle);
}

Result<RValue> Run::metadata_method(const Expr& e, const std::string& method) {
  PF_ASSIGN(RValue receiver, eval(e.children[0].children[0]));
  PF_ASSIGN(const TensorMeta* t, to_tensor(receiver, "the object of ." + method + "()", e.loc));
  auto rank = static_cast<int64_t>(t->shape.size());
  if (method == "size" || method == "stride") {
    const std::vector<int64_t>& src = method == "size" ? t->shape : t->strides;
    if (e.children.size() == 1) {
      std::vector<RValue> items;
      for (int64_t d : src) items.push_back(RValue::integer(d));
      return RValue::tuple(std::move(items));
    }
    PF_ASSIGN(RValue dv, eval(e.children[1]));
    PF_ASSIGN(int64_t dim, to_int(dv, "the dim of ." + method + "()", e.loc));
    if (dim < -rank || dim >= rank) {
      return error(e.loc, "dim " + std::to_string(dim) + " is out of range for a " +
                              std::to_string(rank) + "-d tensor");
    }
    return RValue::integer(src[dim < 0 ? dim + rank : dim]);
  }
  if (method == "numel") return RValue::integer(shape_numel(t->shape));
  if (method == "dim") return RValue::integer(rank);
  if (method == "is_contiguous") return RValue::boolean(contiguous_layout(*t));
  return RValue::integer(static_cast<int64_t>(dtype_size(t->dtype)));  // element_size
}

Result<RValue> Run::builtin(const Expr& e, const std::string& function) {
  std::vector<RValue> args;
  for (size_t k = 1; k < e.children.size(); ++k) {
    PF_ASSIGN(RValue v, eval(e.children[k]));
    args.push_back(std::move(v));
  }
  if (function == "cdiv") {
    if (args.size() != 2) return error(e.loc, "cdiv(a, b) takes two ints");
    PF_ASSIGN(int64_t a, to_int(args[0], "cdiv's first argument", e.loc));
    PF_ASSIGN(int64_t b, to_int(args[1], "cdiv's second argument", e.loc));
    if (b <= 0) return error(e.loc, "cdiv(a, b) needs b > 0, got " + std::to_string(b));
    if (a == INT64_MIN) return error(e.loc, "integer overflow in cdiv");
    return RValue::integer(-floor_div(-a, b));
  }
  if (args.size() == 1 && args[0].kind == RValue::Kind::tuple) args = args[0].items;
  if (args.empty()) return error(e.loc, function + "() needs at least one int");
  int64_t best = 0;
  for (size_t k = 0; k < args.size(); ++k) {
    PF_ASSIGN(int64_t v, to_int(args[k], function + "'s arguments", e.loc));
    if (k == 0 || (function == "min" ? v < best : v > best)) best = v;
  }
  return RValue::integer(best);
}

}  // namespace pf::passes
