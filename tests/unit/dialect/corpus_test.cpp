// The real corpus (dynamo-exported GraphNet slices: the ones shipped under
// tests/data/graphnet-slices, or the whole corpus with PassBench subgraphs
// when PF_CORPUS_DIR names it): every model.py parses, builds with the built-in ops,
// prints, and the printed code builds back to the same graph; every
// weight_meta.py parses into literal class attributes.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "evaluator/dialect/graph_builder.h"
#include "evaluator/dialect/literal.h"
#include "evaluator/dialect/module_access.h"
#include "evaluator/dialect/parser.h"
#include "evaluator/dialect/printer.h"
#include "tests/support/paths.h"

namespace pf::dialect {
namespace {

namespace fs = std::filesystem;

fs::path corpus_dir() {
  fs::path whole = pf::test::optional_corpus_dir();
  return whole.empty() ? pf::test::graphnet_slices_dir() : whole;
}

std::vector<fs::path> corpus_files(const std::string& filename) {
  std::vector<fs::path> out;
  if (!fs::is_directory(corpus_dir())) return out;
  for (const auto& e : fs::recursive_directory_iterator(corpus_dir())) {
    if (e.is_regular_file() && e.path().filename() == filename) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string corpus_name(const fs::path& p) {
  return fs::relative(p, corpus_dir()).string();
}

TEST(DialectCorpus, EveryModelBuildsAndRoundTrips) {
  auto files = corpus_files("model.py");
  ASSERT_FALSE(files.empty()) << "no corpus at " << corpus_dir();
  const OpRegistry& reg = OpRegistry::builtin();
  std::map<std::string, int> missing;  // spelling -> uses
  std::vector<std::string> failures;
  int round_tripped = 0;
  for (const auto& path : files) {
    std::string file = corpus_name(path);
    auto module = parse_module(read_text(path), file);
    if (!module.ok()) {
      failures.push_back(module.error().message);
      continue;
    }
    auto fn = find_forward(*module);
    if (!fn.ok()) {
      failures.push_back(fn.error().message);
      continue;
    }
    std::vector<OpUse> unknown;
    auto graph = build_graph(**fn, reg, build_options_for(*module), &unknown);
    for (const auto& u : unknown) ++missing[u.spelling];
    if (!unknown.empty()) continue;
    if (!graph.ok()) {
      failures.push_back(graph.error().message);
      continue;
    }
    std::string printed = print_graph(*graph, reg);
    auto again = load_graph(printed, file + " (printed)", reg, graph->name);
    if (!again.ok()) {
      failures.push_back("printed code does not build: " + again.error().message + "\n" + printed);
      continue;
    }
    if (!(*again == *graph)) {
      failures.push_back(file + ": printed code builds a different graph:\n" + printed);
      continue;
    }
    if (print_graph(*again, reg) != printed) {
      failures.push_back(file + ": printing is not stable:\n" + printed);
      continue;
    }
    ++round_tripped;
  }
  std::string report;
  if (!missing.empty()) {
    report += "op spellings missing from OpRegistry::builtin() (uses across the corpus):\n";
    for (const auto& [spelling, count] : missing) {
      report += "  " + spelling + "  x" + std::to_string(count) + "\n";
    }
  }
  for (size_t k = 0; k < failures.size() && k < 25; ++k) report += failures[k] + "\n";
  if (failures.size() > 25) report += "... and " + std::to_string(failures.size() - 25) + " more\n";
  EXPECT_TRUE(missing.empty() && failures.empty())
      << round_tripped << " of " << files.size() << " model.py files round-tripped.\n"
      << report;
}

TEST(DialectCorpus, EveryWeightMetaParsesToLiterals) {
  auto files = corpus_files("weight_meta.py");
  ASSERT_FALSE(files.empty()) << "no corpus at " << corpus_dir();
  std::vector<std::string> failures;
  size_t classes = 0;
  for (const auto& path : files) {
    std::string file = corpus_name(path);
    auto module = parse_module(read_text(path), file);
    if (!module.ok()) {
      failures.push_back(module.error().message);
      continue;
    }
    for (const auto& c : module->classes) {
      ++classes;
      bool has_name = false, has_shape = false;
      for (const auto& a : c.attributes) {
        auto v = literal_value(a.value, file);
        if (!v.ok()) failures.push_back(v.error().message);
        has_name = has_name || (a.name == "name" && v.ok() && v->kind == Arg::Kind::string);
        has_shape = has_shape || (a.name == "shape" && v.ok() && v->kind == Arg::Kind::list);
      }
      if (!has_name || !has_shape)
        failures.push_back(file + ": class " + c.name + " lacks name/shape");
    }
  }
  EXPECT_GT(classes, files.size());
  std::string report;
  for (size_t k = 0; k < failures.size() && k < 25; ++k) report += failures[k] + "\n";
  EXPECT_TRUE(failures.empty()) << failures.size() << " problems:\n" << report;
}

}  // namespace
}  // namespace pf::dialect
