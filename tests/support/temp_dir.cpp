#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>
#include <stdlib.h>  // mkdtemp (POSIX)

#include <cerrno>
#include <cstring>

namespace pf::test {

std::filesystem::path fresh_temp_dir(const std::string& prefix) {
  std::string templ = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
  if (::mkdtemp(templ.data()) == nullptr) {
    ADD_FAILURE() << "mkdtemp(" << templ << "): " << std::strerror(errno);
    return {};
  }
  return templ;
}

}  // namespace pf::test
