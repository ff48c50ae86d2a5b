// The pages' HTML, JavaScript and CSS, compiled into the binary from
// serve/assets/ (embed_assets.cmake) so `passforge serve` works offline and
// from any directory.
#pragma once

#include <string_view>

namespace pf::serve {

struct StaticAsset {
  std::string_view name;  // file name under serve/assets/
  std::string_view content_type;
  std::string_view body;
};

//! nullptr for a name that is not an asset.
const StaticAsset* find_static_asset(std::string_view name);

}  // namespace pf::serve
