#include "sandbox/cuda/kernel_params.h"

namespace pf::cuda {

const char* param_kind_name(ParamKind kind) {
  switch (kind) {
    case ParamKind::unknown:
      return "unknown";
    case ParamKind::pointer:
      return "pointer";
    case ParamKind::integer:
      return "integer";
    case ParamKind::floating:
      return "floating";
    case ParamKind::other:
      return "other";
  }
  return "unknown";
}

namespace {
ParamKind kind_from_name(const std::string& s) {
  for (auto k : {ParamKind::pointer, ParamKind::integer, ParamKind::floating, ParamKind::other}) {
    if (s == param_kind_name(k)) return k;
  }
  return ParamKind::unknown;
}
}  // namespace

nlohmann::json KernelParam::to_json() const {
  nlohmann::json j{{"offset", offset}, {"size", size}, {"kind", param_kind_name(kind)}};
  if (kind == ParamKind::integer) j["unsigned"] = is_unsigned;
  if (!name.empty()) j["name"] = name;
  if (!type.empty()) j["type"] = type;
  return j;
}

KernelParam KernelParam::from_json(const nlohmann::json& j) {
  KernelParam p;
  p.offset = j.value("offset", size_t{0});
  p.size = j.value("size", size_t{0});
  p.kind = kind_from_name(j.value("kind", std::string()));
  p.is_unsigned = j.value("unsigned", false);
  p.name = j.value("name", std::string());
  p.type = j.value("type", std::string());
  return p;
}

nlohmann::json KernelInfo::to_json() const {
  nlohmann::json params_json = nlohmann::json::array();
  for (const auto& p : params) params_json.push_back(p.to_json());
  nlohmann::json j{{"name", name}, {"params", params_json}};
  if (!file.empty()) j["file"] = file;
  if (registers >= 0) j["registers"] = registers;
  if (static_smem_bytes >= 0) j["static_smem_bytes"] = static_smem_bytes;
  if (local_bytes >= 0) j["local_bytes"] = local_bytes;
  return j;
}

KernelInfo KernelInfo::from_json(const nlohmann::json& j) {
  KernelInfo k;
  k.name = j.value("name", std::string());
  k.file = j.value("file", std::string());
  k.registers = j.value("registers", -1);
  k.static_smem_bytes = j.value("static_smem_bytes", -1LL);
  k.local_bytes = j.value("local_bytes", -1LL);
  if (j.contains("params") && j["params"].is_array()) {
    for (const auto& p : j["params"]) k.params.push_back(KernelParam::from_json(p));
  }
  return k;
}

std::string describe_params(const std::vector<KernelParam>& params) {
  std::string out;
  for (size_t i = 0; i < params.size(); ++i) {
    const auto& p = params[i];
    if (i > 0) out += ", ";
    out += p.name.empty() ? "#" + std::to_string(i) : p.name;
    out += ": ";
    out += p.type.empty() ? std::string(param_kind_name(p.kind)) : p.type;
    out += " @" + std::to_string(p.offset) + "+" + std::to_string(p.size);
  }
  return out;
}

}  // namespace pf::cuda
