// The [endpoint] configuration as options of the LLM client (agent/llm).
#pragma once

#include "agent/llm/llm_options.h"
#include "config/config.h"

namespace pf::cli {

//! Every [endpoint] key mapped onto LlmOptions; a trailing '/' of base_url is
//! dropped so "{base_url}/models" is well formed, and header values written
//! "env:NAME" are read from the environment now.
llm::LlmOptions llm_options_from(const EndpointConfig& endpoint);

}  // namespace pf::cli
