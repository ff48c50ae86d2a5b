#include "sandbox/cuda/kernel_args.h"

#include <cstring>
#include <limits>

#include "common/strings.h"

namespace pf::cuda {
namespace {

// The CUDA limit on a kernel's parameter buffer (32764 bytes since CUDA 12.1
// on Volta and newer).
constexpr size_t kMaxParamBytes = 32764;

std::string param_label(size_t index, const KernelParam& p) {
  std::string label = "parameter " + std::to_string(index);
  if (!p.name.empty() || !p.type.empty()) {
    label += " (";
    if (!p.name.empty()) label += "'" + p.name + "'";
    if (!p.type.empty()) label += (p.name.empty() ? "" : ", ") + p.type;
    label += ")";
  }
  return label;
}

bool fits_integer(int64_t v, size_t size, const KernelParam& p) {
  if (size == 8) return !(p.kind == ParamKind::integer && p.is_unsigned && v < 0);
  const int bits = static_cast<int>(size * 8);
  const int64_t smin = -(int64_t{1} << (bits - 1));
  const int64_t smax = (int64_t{1} << (bits - 1)) - 1;
  const int64_t umax = (int64_t{1} << bits) - 1;
  if (p.kind == ParamKind::integer) {
    return p.is_unsigned ? (v >= 0 && v <= umax) : (v >= smin && v <= smax);
  }
  return v >= smin && v <= umax;  // signedness unknown: either reading is accepted
}

Status store_scalar(unsigned char* dst, size_t index, const KernelParam& p, const KernelArg& a) {
  const std::string label = param_label(index, p);
  const std::string sizes = std::to_string(p.size) + " byte" + (p.size == 1 ? "" : "s");
  if (a.kind == KernelArg::Kind::tensor) {
    if (p.kind == ParamKind::integer || p.kind == ParamKind::floating ||
        p.kind == ParamKind::other || p.size != sizeof(CUdeviceptr)) {
      return make_error(
          ErrorCode::invalid_argument,
          label + " is " + sizes +
              (p.kind == ParamKind::unknown ? std::string()
                                            : std::string(", ") + param_kind_name(p.kind)) +
              ", got a tensor (8-byte pointer)");
    }
    std::memcpy(dst, &a.pointer, sizeof(CUdeviceptr));
    return ok_status();
  }
  if (p.kind == ParamKind::pointer) {
    return make_error(ErrorCode::invalid_argument,
                      label + " is a pointer (pass a tensor), got " + a.describe());
  }
  if (p.kind == ParamKind::other) {
    return make_error(ErrorCode::invalid_argument,
                      label + " (" + sizes + ") cannot take " + a.describe() +
                          ": only pointers, integers, float and double parameters can be passed "
                          "from a launch (pass a float and convert in the kernel)");
  }
  bool as_float = a.kind == KernelArg::Kind::floating || p.kind == ParamKind::floating;
  if (as_float) {
    if (p.kind == ParamKind::integer) {
      return make_error(ErrorCode::invalid_argument, label + " is an integer, got " + a.describe() +
                                                         " (use // for integer division)");
    }
    double v = a.kind == KernelArg::Kind::floating ? a.floating : static_cast<double>(a.integer);
    if (p.size == 4) {
      float f = static_cast<float>(v);
      std::memcpy(dst, &f, 4);
    } else if (p.size == 8) {
      std::memcpy(dst, &v, 8);
    } else {
      return make_error(ErrorCode::invalid_argument,
                        label + " is " + sizes + ", got " + a.describe() +
                            ": a float goes to a 4-byte float or 8-byte double parameter");
    }
    return ok_status();
  }
  if (p.size != 1 && p.size != 2 && p.size != 4 && p.size != 8) {
    return make_error(ErrorCode::invalid_argument,
                      label + " is " + sizes + ", got " + a.describe() +
                          ": only 1-, 2-, 4- and 8-byte integers can be passed");
  }
  if (!fits_integer(a.integer, p.size, p)) {
    return make_error(ErrorCode::invalid_argument,
                      label + " (" + sizes + ") cannot hold " + a.describe());
  }
  uint64_t bits = static_cast<uint64_t>(a.integer);
  std::memcpy(dst, &bits, p.size);  // little-endian: the low bytes
  return ok_status();
}

}  // namespace

std::string KernelArg::describe() const {
  switch (kind) {
    case Kind::tensor:
      return "a tensor (8-byte pointer)";
    case Kind::integer:
      return "integer " + std::to_string(integer);
    case Kind::floating:
      return "float " + format_double(floating);
  }
  return "?";
}

Result<ArgPack> marshal_kernel_args(std::string_view kernel, const std::vector<KernelParam>& params,
                                    const std::vector<KernelArg>& args) {
  if (params.size() != args.size()) {
    std::string msg = "kernel '" + std::string(kernel) + "' takes " +
                      std::to_string(params.size()) + " parameter" +
                      (params.size() == 1 ? "" : "s") + ", launch passes " +
                      std::to_string(args.size());
    if (!params.empty()) msg += " (parameters: " + describe_params(params) + ")";
    return make_error(ErrorCode::invalid_argument, msg);
  }
  size_t end = 0;
  for (size_t i = 0; i < params.size(); ++i) {
    const auto& p = params[i];
    if (p.size == 0 || p.offset > kMaxParamBytes || p.size > kMaxParamBytes - p.offset ||
        (i > 0 && p.offset < params[i - 1].offset + params[i - 1].size)) {
      return make_error(ErrorCode::internal,
                        "kernel '" + std::string(kernel) +
                            "' has an inconsistent parameter layout: " + describe_params(params));
    }
    end = p.offset + p.size;
  }
  ArgPack pack;
  pack.size_ = end;
  pack.storage_.assign((end + 7) / 8, 0);
  auto* base = reinterpret_cast<unsigned char*>(pack.storage_.data());
  for (size_t i = 0; i < params.size(); ++i) {
    Status st = store_scalar(base + params[i].offset, i, params[i], args[i]);
    if (!st.ok()) {
      return make_error(st.error().code,
                        "kernel '" + std::string(kernel) + "': " + st.error().message);
    }
    pack.pointers_.push_back(base + params[i].offset);
  }
  return pack;
}

}  // namespace pf::cuda
