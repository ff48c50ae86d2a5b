#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "common/fs.h"
#include "evaluator/tasks/task.h"

namespace pf {
namespace {

Task sample_task() {
  Task t;
  t.id = "add-relu";
  t.op_sequence = {"add", "relu"};
  t.source = "test";
  t.license = "MIT";
  TaskVariant v;
  v.name = "m.s1-2";
  v.source = "def forward(in_0, in_1):\n    tmp_0 = in_0 + in_1\n    return (tmp_0,)\n";
  InputMeta a{"in_0", DType::float32, {2, 3}, 0.5, 0.1, std::nullopt, std::nullopt, std::nullopt, ""};
  InputMeta b{"in_1", DType::int64, {3}, std::nullopt, std::nullopt, 0.0, 9.0, std::nullopt, "x"};
  InputMeta c{"in_2", DType::float32, {2}, 0.0, 0.0, std::nullopt, std::nullopt,
              std::vector<double>{1.5, -2}, ""};
  v.inputs = {a, b, c};
  t.variants.push_back(v);
  v.name = "m.s3-4";
  v.hidden = true;
  t.variants.push_back(v);
  return t;
}

TEST(TaskFormat, RoundTripsThroughJson) {
  Task t = sample_task();
  auto back = task_from_json(task_to_json(t), "mem");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(task_to_json(*back), task_to_json(t));
  EXPECT_EQ(back->visible_variants().size(), 1u);
  EXPECT_EQ(back->variants[0].inputs[1].original_name, "x");
  EXPECT_EQ(*back->variants[0].inputs[2].data, (std::vector<double>{1.5, -2}));
}

TEST(TaskFormat, ErrorsNameTheField) {
  auto j = task_to_json(sample_task());
  j["variants"][1]["inputs"][0]["dtype"] = "float17";
  auto r = task_from_json(j, "tasks/x.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "tasks/x.json: variants[1].inputs[0].dtype: unknown dtype 'float17'");

  j = task_to_json(sample_task());
  j["variants"][0]["inputs"][2]["data"] = {1.0};
  r = task_from_json(j, "t.json");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("variants[0].inputs[2].data: 1 values for shape [2]"),
            std::string::npos);

  j = task_to_json(sample_task());
  j["format"] = "other/2";
  EXPECT_FALSE(task_from_json(j, "t.json").ok());
  j = task_to_json(sample_task());
  j["variants"][1]["name"] = j["variants"][0]["name"];
  r = task_from_json(j, "t.json");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("duplicate variant"), std::string::npos);
}

// A stored input holding -inf (an attention mask) was written as null and the
// whole suite was then rejected: non-finite values must survive a file.
TEST(TaskFormat, NonFiniteInputValuesSurviveAFile) {
  Task t = sample_task();
  double inf = std::numeric_limits<double>::infinity();
  auto& in = t.variants[0].inputs[2];
  in.data = std::vector<double>{-inf, std::numeric_limits<double>::quiet_NaN()};
  in.min_val = -inf;
  in.max_val = inf;
  auto path = std::filesystem::temp_directory_path() / "pf_nonfinite_task.json";
  ASSERT_TRUE(save_task_file(t, path).ok());
  auto text = read_file(path);
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(text->find("null"), std::string::npos) << *text;
  auto back = load_task_file(path);
  ASSERT_TRUE(back.ok()) << back.error().message;
  const auto& got = back->variants[0].inputs[2];
  ASSERT_TRUE(got.data.has_value());
  EXPECT_EQ((*got.data)[0], -inf);
  EXPECT_TRUE(std::isnan((*got.data)[1]));
  EXPECT_EQ(*got.min_val, -inf);
  EXPECT_EQ(*got.max_val, inf);
}

TEST(TaskFormat, RejectsOtherStringsAndNullInData) {
  auto j = task_to_json(sample_task());
  j["variants"][0]["inputs"][2]["data"] = {"-Infinity", 1.0};
  auto r = task_from_json(j, "t.json");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("variants[0].inputs[2].data"), std::string::npos);
  j["variants"][0]["inputs"][2]["data"] = {nullptr, 1.0};
  EXPECT_FALSE(task_from_json(j, "t.json").ok());
  j = task_to_json(sample_task());
  j["variants"][0]["inputs"][0]["mean"] = "0.5";
  EXPECT_FALSE(task_from_json(j, "t.json").ok());
}

TEST(TaskFormat, LoadReportsJsonSyntaxErrorsWithPosition) {
  auto path = std::filesystem::temp_directory_path() / "pf_bad_task.json";
  ASSERT_TRUE(write_file_atomic(path, "{\n  \"id\": \n}").ok());
  auto r = load_task_file(path);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("line 3"), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace pf
