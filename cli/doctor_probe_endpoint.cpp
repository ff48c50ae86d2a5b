// Doctor probe of the configured LLM endpoint: GET {base_url}/models through
// the agent's LLM client, with a short timeout.
#include <algorithm>

#include "agent/llm/llm_client.h"
#include "cli/doctor_probes.h"
#include "cli/endpoint_options.h"
#include "common/strings.h"

namespace pf::cli {

void probe_endpoint(const Config& config, double timeout_s, DoctorReport& report) {
  const auto& e = config.endpoint;
  auto& facts = report.facts("endpoint");
  facts["configured"] = !e.base_url.empty();
  if (e.base_url.empty()) {
    report.add("endpoint", "base_url", CheckStatus::ok,
               "not configured: the replay endpoint will be used (recorded answers, no model)");
    return;
  }
  facts["base_url"] = e.base_url;
  facts["model"] = e.model;
  facts["api_key_env"] = e.api_key_env;
  bool has_key = !read_api_key(e).empty();
  facts["api_key_set"] = has_key;
  report.add("endpoint", "api key", CheckStatus::info,
             has_key ? e.api_key_env + " is set"
                     : e.api_key_env + " is not set: requests carry no Authorization header "
                                       "(fine for local servers)");

  llm::LlmOptions options = llm_options_from(e);
  options.models_timeout_s = timeout_s;
  auto client = llm::LlmClient::create(options);
  if (!client.ok()) {
    facts["answers"] = false;
    report.add("endpoint", "client", CheckStatus::fail, client.error().message);
    return;
  }
  auto models = (*client)->list_models();
  facts["answers"] = models.ok();
  if (!models.ok()) {
    report.add("endpoint", "models", CheckStatus::fail, "no answer: " + models.error().message);
    return;
  }
  facts["models"] = *models;
  report.add("endpoint", "models", CheckStatus::ok,
             e.base_url + " answers, " + std::to_string(models->size()) + " model(s)");
  bool listed = std::find(models->begin(), models->end(), e.model) != models->end();
  facts["model_listed"] = listed;
  if (!listed) {
    std::vector<std::string> shown(models->begin(), models->begin() + std::min<size_t>(models->size(), 5));
    // Some gateways list only a subset or aliases: a warning, not a failure.
    report.add("endpoint", "model", CheckStatus::warn,
               "'" + e.model + "' is not among the listed models (" + join(shown, ", ") +
                   (models->size() > 5 ? ", ..." : "") + ")");
  } else {
    report.add("endpoint", "model", CheckStatus::ok, "'" + e.model + "' is listed");
  }
}

}  // namespace pf::cli
