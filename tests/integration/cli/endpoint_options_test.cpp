// [endpoint] keys reach the LLM client's options unchanged (cli/endpoint_options.h).
#include "cli/endpoint_options.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include "config/config_loader.h"

namespace pf::cli {
namespace {

TEST(EndpointOptions, EveryKeyIsMapped) {
  ::setenv("PF_TEST_GATEWAY_TOKEN", "s3cret", 1);
  auto loaded = load_config(
      {"",
       {"endpoint.base_url=http://h:1/v1/", "endpoint.model=m", "endpoint.api_key_env=MY_KEY",
        "endpoint.request_timeout_s=11", "endpoint.connect_timeout_s=2", "endpoint.stream=true",
        "endpoint.stream_idle_timeout_s=13", "endpoint.max_attempts=3",
        "endpoint.backoff_initial_s=0.5", "endpoint.backoff_max_s=7", "endpoint.max_retry_time_s=99",
        "endpoint.max_concurrent=5", "endpoint.requests_per_minute=60",
        "endpoint.tokens_per_minute=1000", "endpoint.headers.X-Title=pf",
        "endpoint.headers.X-Token=env:PF_TEST_GATEWAY_TOKEN", "endpoint.extra.top_k=20",
        "endpoint.sampling.temperature=0.3", "endpoint.sampling.top_p=0.9",
        "endpoint.sampling.max_tokens=100", "endpoint.sampling.seed=4",
        "endpoint.sampling.stop=[\"x\"]"},
       nullptr});
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  auto o = llm_options_from(loaded->config.endpoint);
  EXPECT_EQ(o.base_url, "http://h:1/v1");
  EXPECT_EQ(o.model, "m");
  EXPECT_EQ(o.api_key_env, "MY_KEY");
  EXPECT_EQ(o.request_timeout_s, 11);
  EXPECT_EQ(o.connect_timeout_s, 2);
  EXPECT_TRUE(o.stream);
  EXPECT_EQ(o.stream_idle_timeout_s, 13);
  EXPECT_EQ(o.max_attempts, 3);
  EXPECT_EQ(o.backoff_initial_s, 0.5);
  EXPECT_EQ(o.backoff_max_s, 7);
  EXPECT_EQ(o.max_retry_time_s, 99);
  EXPECT_EQ(o.max_concurrent, 5);
  EXPECT_EQ(o.requests_per_minute, 60);
  EXPECT_EQ(o.tokens_per_minute, 1000);
  using Header = std::pair<std::string, std::string>;
  EXPECT_EQ(o.headers, (std::vector<Header>{{"X-Title", "pf"}, {"X-Token", "s3cret"}}));
  EXPECT_EQ(o.extra, nlohmann::json({{"top_k", 20}}));
  EXPECT_EQ(o.sampling.temperature, 0.3);
  EXPECT_EQ(o.sampling.top_p, 0.9);
  EXPECT_EQ(o.sampling.max_tokens, 100);
  EXPECT_EQ(o.sampling.seed, 4);
  EXPECT_EQ(o.sampling.stop, std::vector<std::string>{"x"});
  EXPECT_TRUE(o.validate().ok()) << o.validate().error().message;
}

TEST(EndpointOptions, UnsetSamplingStaysUnset) {
  auto o = llm_options_from(EndpointConfig{});
  EXPECT_FALSE(o.sampling.temperature.has_value());
  EXPECT_FALSE(o.sampling.top_p.has_value());
  EXPECT_FALSE(o.sampling.max_tokens.has_value());
  EXPECT_FALSE(o.sampling.seed.has_value());
}

}  // namespace
}  // namespace pf::cli
