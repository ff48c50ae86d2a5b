// The one description of every configuration key (config/config_fields.cpp).
#pragma once

#include <string>
#include <vector>

#include "config/config.h"
#include "config/field.h"

namespace pf {

//! Every key of `config`, bound to its members, in file order. The Fields
//! refer into `config`: they must not outlive it.
std::vector<Field> describe_fields(Config& config);

//! The section names ("endpoint", "endpoint.sampling", ...) in file order.
std::vector<std::string> config_sections();

//! The key reference (markdown): every key with type, default, range and doc.
std::string config_reference_markdown();

}  // namespace pf
