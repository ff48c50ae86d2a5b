// The host side of a full evaluation's output checks, per million elements
// (issue 18: the GPU worker does this work between GPU phases, so it bounds
// evaluations per GPU-second too): compare_output at every tolerance level,
// the poison count, the keyed digest and the degenerate-output test, on
// float32, float16 and int64 outputs the size of the quickstart's largest.
// Runs anywhere (no GPU). JSON on stdout, medians of --repeat runs.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <nlohmann/json.hpp>
#include <random>
#include <vector>

#include "evaluator/protocol/integrity_checks.h"
#include "evaluator/scoring/output_compare.h"
#include "evaluator/tasks/informative_inputs.h"

namespace {

using namespace pf;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

// A tensor of `n` values drawn like a real output, and a copy moved by a few
// ulps (a correct candidate's result).
std::pair<Tensor, Tensor> pair_of(DType dtype, int64_t n) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> dist(0, 1);
  std::vector<double> a(static_cast<size_t>(n)), b(static_cast<size_t>(n));
  for (size_t i = 0; i < a.size(); ++i) {
    a[i] = dist(rng) * (is_floating(dtype) ? 1.0 : 100.0);
    b[i] = is_floating(dtype) ? a[i] * (1 + 1e-7) : a[i];
  }
  return {Tensor::from_doubles(dtype, {n}, a), Tensor::from_doubles(dtype, {n}, b)};
}

// Median ms of `repeat` runs of `fn`.
double median_ms(int repeat, const std::function<void()>& fn) {
  std::vector<double> ms;
  for (int r = 0; r < repeat; ++r) {
    const auto t0 = Clock::now();
    fn();
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  try {
    int64_t n = 2'000'000;
    int repeat = 5;
    CLI::App app{"Host-side output checks per million elements (JSON on stdout)"};
    app.add_option("--elements", n, "elements per tensor");
    app.add_option("--repeat", repeat, "runs per measurement (the median is reported)");
    CLI11_PARSE(app, argc, argv);
    json out = json::array();
    volatile int64_t sink = 0;  // keeps the results observable
    for (DType dtype : {DType::float32, DType::float16, DType::int64}) {
      const auto drawn = pair_of(dtype, n);
      const Tensor& expected = drawn.first;
      const Tensor& candidate = drawn.second;
      const double per = 1e6 / static_cast<double>(n);
      json row = {{"dtype", dtype_name(dtype)}, {"elements", n}};
      row["compare_output_ms_per_m"] =
          per * median_ms(repeat,
                          [&] { sink = compare_output(candidate, expected).first_passing_level; });
      row["to_doubles_ms_per_m"] = per * median_ms(repeat, [&] {
                                     sink = static_cast<int64_t>(candidate.to_doubles().size());
                                   });
      row["count_poison_ms_per_m"] = per * median_ms(repeat, [&] {
                                       sink = protocol::count_poison(candidate, 0xA5, &expected);
                                     });
      row["tensor_digest_ms_per_m"] =
          per * median_ms(repeat, [&] {
            sink = static_cast<int64_t>(protocol::tensor_digest(candidate, 0x1234));
          });
      row["degenerate_reason_ms_per_m"] =
          per * median_ms(repeat,
                          [&] { sink = static_cast<int64_t>(degenerate_reason(expected).size()); });
      std::fprintf(stderr,
                   "pf_host_checks_bench: %s, ms per million elements: compare %.2f (to_doubles "
                   "%.2f), poison %.2f, digest %.2f, degenerate %.2f\n",
                   dtype_name(dtype), row["compare_output_ms_per_m"].get<double>(),
                   row["to_doubles_ms_per_m"].get<double>(),
                   row["count_poison_ms_per_m"].get<double>(),
                   row["tensor_digest_ms_per_m"].get<double>(),
                   row["degenerate_reason_ms_per_m"].get<double>());
      out.push_back(row);
    }
    std::printf("%s\n", out.dump(2).c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pf_host_checks_bench: %s\n", e.what());
    return 2;
  }
}
