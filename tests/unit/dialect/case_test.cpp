// Data-driven dialect cases: every tests/dialect/*.case file is
// one test. A case holds a dialect snippet and either the expected printed
// graph or a regex the build error must match; adding a case is adding a file.
//
// Format (sections start with "=== <name>" lines; '#' lines before the first
// section are comments):
//   === source          the snippet (parsed as file "input.py")
//   === function        optional: the function to build (default: "f",
//                       or "forward" when the snippet defines GraphModule)
//   === expect          the graph printed with print_graph
//   === error           one line: a regex (ECMAScript) the error must match
// Expect cases also check the printer contract: printed code builds back to
// the same graph.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "common/strings.h"
#include "evaluator/dialect/graph_builder.h"
#include "evaluator/dialect/printer.h"
#include "tests/unit/dialect/test_registry.h"

namespace pf::dialect {
namespace {

namespace fs = std::filesystem;

struct Case {
  std::string name;
  std::map<std::string, std::string> sections;
};

std::vector<std::string> case_files() {
  std::vector<std::string> out;
  fs::path dir = fs::path(PF_SOURCE_DIR) / "tests" / "dialect";
  if (!fs::is_directory(dir)) return out;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() == ".case") out.push_back(entry.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

Case read_case(const std::string& path) {
  Case c;
  c.name = fs::path(path).stem().string();
  std::ifstream in(path);
  std::string line, current;
  while (std::getline(in, line)) {
    if (starts_with(line, "=== ")) {
      current = std::string(trim(line.substr(4)));
      c.sections[current];
      continue;
    }
    if (current.empty()) continue;
    c.sections[current] += line + "\n";
  }
  return c;
}

class DialectCase : public ::testing::TestWithParam<std::string> {};

TEST_P(DialectCase, Runs) {
  Case c = read_case(GetParam());
  ASSERT_TRUE(c.sections.count("source")) << "case has no '=== source' section";
  bool want_error = c.sections.count("error") != 0;
  ASSERT_NE(want_error, c.sections.count("expect") != 0)
      << "case needs exactly one of expect/error";
  const std::string& source = c.sections["source"];
  std::string function = c.sections.count("function") ? std::string(trim(c.sections["function"]))
                         : source.find("class GraphModule") != std::string::npos ? "forward"
                                                                                 : "f";
  const OpRegistry& reg = testing::dialect_test_registry();
  auto built = load_graph(source, "input.py", reg, function);
  if (want_error) {
    ASSERT_FALSE(built.ok()) << "expected an error, got:\n" << print_graph(*built, reg);
    std::string pattern(trim(c.sections["error"]));
    EXPECT_TRUE(std::regex_search(built.error().message, std::regex(pattern)))
        << "error: " << built.error().message << "\ndoes not match: " << pattern;
    return;
  }
  ASSERT_TRUE(built.ok()) << built.error().message;
  PrintOptions options;
  std::string printed = print_graph(*built, reg, options);
  EXPECT_EQ(printed, c.sections["expect"]);
  auto again = load_graph(printed, "printed.py", reg, built->name);
  ASSERT_TRUE(again.ok()) << "printed code does not build: " << again.error().message;
  EXPECT_TRUE(*again == *built) << "printed code builds a different graph:\n"
                                << print_graph(*again, reg, options);
}

std::string case_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = fs::path(info.param).stem().string();
  for (char& ch : name) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Files, DialectCase, ::testing::ValuesIn(case_files()), case_name);

TEST(DialectCases, AtLeastThirtyCasesExist) {
  EXPECT_GE(case_files().size(), 30u);
}

}  // namespace
}  // namespace pf::dialect
