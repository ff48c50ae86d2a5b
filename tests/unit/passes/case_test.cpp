// Data-driven matcher/rewriter cases: every tests/passes/*.case file is one
// test. Adding a case is adding a file. Format (sections start with "--- "):
//
//   # what the case shows (comment lines before the first section)
//   --- graph
//   def forward(in_0, in_1):
//       ...
//   --- inputs              one type per graph input, in order: float32[2, 8]
//   float32[2, 8]
//   --- pass Fuse            one or more passes, applied in file order
//   def pattern(...): ...
//   def replacement(...): ...
//   --- expect               what the runner prints, exactly:
//   Fuse: 1 match            per pass "N match(es)", or "no match" + its diagnostics
//   rewritten:
//   def forward(...): ...    the rewritten graph (print_graph)
//
// A pass that fails to load prints "load error:" and the message instead.
// On a mismatch the test prints the actual text; PF_UPDATE_CASES=1 writes it
// into the file's expect section (review the diff before committing).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/fs.h"
#include "common/strings.h"
#include "evaluator/dialect/printer.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/passes/rewriter.h"
#include "tests/support/paths.h"
#include "tests/unit/passes/pass_test_util.h"

namespace pf::passes::test {
namespace {

namespace fs = std::filesystem;

struct Case {
  std::string graph;
  std::vector<TensorType> inputs;
  std::vector<std::pair<std::string, std::string>> passes;  // name, source
  std::string expect;
};

Result<TensorType> parse_type(std::string_view text) {
  size_t open = text.find('['), close = text.rfind(']');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) {
    return make_error(ErrorCode::parse_error, "bad type '" + std::string(text) + "'");
  }
  auto dtype = parse_dtype(trim(text.substr(0, open)));
  if (!dtype) return make_error(ErrorCode::parse_error, "bad dtype in '" + std::string(text) + "'");
  TensorType t{*dtype, {}};
  for (const auto& d : split(text.substr(open + 1, close - open - 1), ',')) {
    if (!trim(d).empty()) t.shape.push_back(std::stoll(std::string(trim(d))));
  }
  return t;
}

Result<Case> parse_case(const std::string& text) {
  Case c;
  std::string section, name, body;
  auto flush = [&]() -> Status {
    if (section == "graph") {
      c.graph = body;
    } else if (section == "inputs") {
      for (const auto& line : split(body, '\n')) {
        if (trim(line).empty()) continue;
        PF_ASSIGN(TensorType t, parse_type(line));
        c.inputs.push_back(t);
      }
    } else if (section == "pass") {
      c.passes.emplace_back(name, body);
    } else if (section == "expect") {
      c.expect = body;
    } else if (!section.empty()) {
      return make_error(ErrorCode::parse_error, "unknown section '" + section + "'");
    }
    return ok_status();
  };
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (starts_with(line, "--- ")) {
      PF_TRY(flush());
      std::vector<std::string> words = split(line.substr(4), ' ');
      section = words[0];
      name = words.size() > 1 ? words[1] : "";
      body.clear();
      continue;
    }
    if (!section.empty()) body += line + "\n";
  }
  PF_TRY(flush());
  return c;
}

std::string run_case(const Case& c) {
  const OpRegistry& reg = OpRegistry::builtin();
  std::vector<LoadedPass> passes;
  for (const auto& [name, source] : c.passes) {
    auto p = load_pass(name, source, reg);
    if (!p.ok()) return "load error:\n" + p.error().message + "\n";
    passes.push_back(std::move(*p));
  }
  Graph g = typed_graph(c.graph, c.inputs);
  RewriteResult r = apply_passes(g, passes, reg);
  std::string out;
  for (const auto& p : r.passes) {
    if (p.matches == 0) {
      out += p.pass + ": no match\n" + p.diagnostics + "\n";
    } else {
      out += p.pass + ": " + std::to_string(p.matches) + (p.matches == 1 ? " match" : " matches") +
             "\n";
    }
  }
  return out + "rewritten:\n" + dialect::print_graph(r.graph, reg);
}

std::vector<fs::path> case_files() {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(pf::test::source_dir() / "tests" / "passes", ec)) {
    if (e.path().extension() == ".case") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

class PassCase : public ::testing::TestWithParam<fs::path> {};

TEST_P(PassCase, Runs) {
  auto text = read_file(GetParam());
  ASSERT_TRUE(text.ok()) << text.error().message;
  auto c = parse_case(*text);
  ASSERT_TRUE(c.ok()) << GetParam() << ": " << c.error().message;
  ASSERT_FALSE(c->graph.empty()) << "no --- graph section";
  ASSERT_FALSE(c->passes.empty()) << "no --- pass section";
  std::string actual = run_case(*c);
  if (std::getenv("PF_UPDATE_CASES") != nullptr && actual != c->expect) {
    size_t at = text->find("--- expect\n");
    ASSERT_NE(at, std::string::npos) << "no --- expect section to update";
    ASSERT_TRUE(write_file_atomic(GetParam(), text->substr(0, at + 11) + actual).ok());
    return;
  }
  EXPECT_EQ(actual, c->expect) << "actual output of " << GetParam().filename() << ":\n" << actual;
}

TEST(PassCases, Found) {
  EXPECT_GE(case_files().size(), 10u);
}

std::string case_name(const ::testing::TestParamInfo<fs::path>& info) {
  std::string n = info.param.stem().string();
  for (char& ch : n) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return n;
}

INSTANTIATE_TEST_SUITE_P(Files, PassCase, ::testing::ValuesIn(case_files()), case_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(PassCase);

}  // namespace
}  // namespace pf::passes::test
