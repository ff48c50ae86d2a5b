#include "evaluator/tasks/task.h"

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>

#include "common/fs.h"

namespace pf {

using nlohmann::json;

std::vector<const TaskVariant*> Task::visible_variants() const {
  std::vector<const TaskVariant*> out;
  for (const auto& v : variants) {
    if (!v.hidden) out.push_back(&v);
  }
  return out;
}

namespace {

// JSON has no literal for infinities or NaN (nlohmann writes them as null, which
// then reads back as a missing value), so they are stored as the strings
// Python's float() accepts: "inf", "-inf", "nan".
json number_to_json(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

std::optional<double> number_from_json(const json& v) {
  if (v.is_number()) return v.get<double>();
  if (v.is_boolean()) return v.get<bool>() ? 1.0 : 0.0;
  if (!v.is_string()) return std::nullopt;
  const auto& s = v.get_ref<const std::string&>();
  if (s == "inf") return std::numeric_limits<double>::infinity();
  if (s == "-inf") return -std::numeric_limits<double>::infinity();
  if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
  return std::nullopt;
}

json input_to_json(const InputMeta& in) {
  json j = {{"name", in.name}, {"dtype", dtype_name(in.dtype)}, {"shape", in.shape}};
  if (in.mean) j["mean"] = number_to_json(*in.mean);
  if (in.std) j["std"] = number_to_json(*in.std);
  if (in.min_val) j["min_val"] = number_to_json(*in.min_val);
  if (in.max_val) j["max_val"] = number_to_json(*in.max_val);
  if (in.data) {
    json data = json::array();
    for (double v : *in.data) data.push_back(number_to_json(v));
    j["data"] = std::move(data);
  }
  if (!in.original_name.empty() && in.original_name != in.name) {
    j["original_name"] = in.original_name;
  }
  return j;
}

// Reads fields with errors that say where: "tasks/x.json: variants[2].inputs[0].shape: ..."
class Reader {
 public:
  explicit Reader(std::string origin) : origin_(std::move(origin)) {}

  Error error(const std::string& path, const std::string& msg) const {
    return make_error(ErrorCode::invalid_argument, origin_ + ": " + path + ": " + msg);
  }

  Result<std::string> string(const json& j, const std::string& key, const std::string& path,
                             bool required = true) const {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) {
      if (required) return error(path + key, "missing");
      return std::string();
    }
    if (!it->is_string()) return error(path + key, "expected a string");
    return it->get<std::string>();
  }

  Result<std::optional<double>> number(const json& j, const std::string& key,
                                       const std::string& path) const {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) return std::optional<double>();
    auto v = it->is_boolean() ? std::nullopt : number_from_json(*it);
    if (!v) return error(path + key, "expected a number, \"inf\", \"-inf\", \"nan\" or null");
    return v;
  }

 private:
  std::string origin_;
};

Result<InputMeta> input_from_json(const json& j, const Reader& rd, const std::string& path) {
  if (!j.is_object()) return rd.error(path, "expected an object");
  InputMeta in;
  PF_ASSIGN(in.name, rd.string(j, "name", path + "."));
  PF_ASSIGN(std::string dtype, rd.string(j, "dtype", path + "."));
  auto dt = parse_dtype(dtype);
  if (!dt) return rd.error(path + ".dtype", "unknown dtype '" + dtype + "'");
  in.dtype = *dt;
  auto shape = j.find("shape");
  if (shape == j.end() || !shape->is_array()) return rd.error(path + ".shape", "expected a list");
  for (const auto& d : *shape) {
    if (!d.is_number_integer() || d.get<int64_t>() < 0) {
      return rd.error(path + ".shape", "expected non-negative integers");
    }
    in.shape.push_back(d.get<int64_t>());
  }
  PF_ASSIGN(in.mean, rd.number(j, "mean", path + "."));
  PF_ASSIGN(in.std, rd.number(j, "std", path + "."));
  PF_ASSIGN(in.min_val, rd.number(j, "min_val", path + "."));
  PF_ASSIGN(in.max_val, rd.number(j, "max_val", path + "."));
  PF_ASSIGN(in.original_name, rd.string(j, "original_name", path + ".", false));
  if (auto d = j.find("data"); d != j.end() && !d->is_null()) {
    if (!d->is_array()) return rd.error(path + ".data", "expected a list of numbers");
    std::vector<double> values;
    values.reserve(d->size());
    for (const auto& v : *d) {
      auto x = number_from_json(v);
      if (!x) {
        return rd.error(path + ".data",
                        "expected numbers (\"inf\", \"-inf\", \"nan\" for "
                        "non-finite values), got " +
                            v.dump());
      }
      values.push_back(*x);
    }
    if (static_cast<int64_t>(values.size()) != shape_numel(in.shape)) {
      return rd.error(path + ".data", std::to_string(values.size()) + " values for shape " +
                                          shape_str(in.shape));
    }
    in.data = std::move(values);
  }
  return in;
}

}  // namespace

json task_to_json(const Task& task) {
  json variants = json::array();
  for (const auto& v : task.variants) {
    json inputs = json::array();
    for (const auto& in : v.inputs) inputs.push_back(input_to_json(in));
    json jv = {{"name", v.name}, {"hidden", v.hidden}, {"source", v.source}, {"inputs", inputs}};
    if (!v.provenance.empty()) jv["provenance"] = v.provenance;
    variants.push_back(std::move(jv));
  }
  return json{{"format", kTaskFormat},   {"id", task.id},
              {"op_sequence", task.op_sequence}, {"description", task.description},
              {"source", task.source},   {"license", task.license},
              {"models", task.models},   {"variants", variants}};
}

std::string variant_content(const TaskVariant& variant) {
  Task one;
  one.variants.push_back(variant);
  std::string text = task_to_json(one).dump();
  for (const auto& in : variant.inputs) {
    if (!in.data) continue;
    text.append(reinterpret_cast<const char*>(in.data->data()), in.data->size() * sizeof(double));
  }
  return text;
}

Result<Task> task_from_json(const json& j, const std::string& origin) {
  Reader rd(origin);
  if (!j.is_object()) return rd.error("$", "expected a JSON object");
  PF_ASSIGN(std::string format, rd.string(j, "format", ""));
  if (format != kTaskFormat) {
    return rd.error("format", "expected '" + std::string(kTaskFormat) + "', got '" + format + "'");
  }
  Task task;
  PF_ASSIGN(task.id, rd.string(j, "id", ""));
  PF_ASSIGN(task.description, rd.string(j, "description", "", false));
  PF_ASSIGN(task.source, rd.string(j, "source", "", false));
  PF_ASSIGN(task.license, rd.string(j, "license", "", false));
  for (const char* key : {"op_sequence", "models"}) {
    auto it = j.find(key);
    if (it == j.end()) continue;
    if (!it->is_array()) return rd.error(key, "expected a list of strings");
    auto& target = std::string(key) == "models" ? task.models : task.op_sequence;
    for (const auto& s : *it) {
      if (!s.is_string()) return rd.error(key, "expected a list of strings");
      target.push_back(s.get<std::string>());
    }
  }
  auto variants = j.find("variants");
  if (variants == j.end() || !variants->is_array() || variants->empty()) {
    return rd.error("variants", "expected a non-empty list");
  }
  for (size_t k = 0; k < variants->size(); ++k) {
    const json& jv = (*variants)[k];
    std::string path = "variants[" + std::to_string(k) + "]";
    if (!jv.is_object()) return rd.error(path, "expected an object");
    TaskVariant v;
    PF_ASSIGN(v.name, rd.string(jv, "name", path + "."));
    PF_ASSIGN(v.source, rd.string(jv, "source", path + "."));
    PF_ASSIGN(v.provenance, rd.string(jv, "provenance", path + ".", false));
    if (auto h = jv.find("hidden"); h != jv.end()) {
      if (!h->is_boolean()) return rd.error(path + ".hidden", "expected true or false");
      v.hidden = h->get<bool>();
    }
    auto inputs = jv.find("inputs");
    if (inputs == jv.end() || !inputs->is_array()) return rd.error(path + ".inputs", "expected a list");
    for (size_t i = 0; i < inputs->size(); ++i) {
      PF_ASSIGN(InputMeta in, input_from_json((*inputs)[i], rd,
                                              path + ".inputs[" + std::to_string(i) + "]"));
      v.inputs.push_back(std::move(in));
    }
    for (const auto& other : task.variants) {
      if (other.name == v.name) return rd.error(path + ".name", "duplicate variant '" + v.name + "'");
    }
    task.variants.push_back(std::move(v));
  }
  return task;
}

Result<Task> load_task_file(const std::filesystem::path& path) {
  PF_ASSIGN(std::string text, read_file(path));
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    // nlohmann's message carries the line and column of the error.
    return make_error(ErrorCode::parse_error, path.string() + ": " + e.what());
  }
  return task_from_json(j, path.string());
}

Status save_task_file(const Task& task, const std::filesystem::path& path) {
  return write_file_atomic(path, task_to_json(task).dump(1) + "\n");
}

}  // namespace pf
