// The LLM client against a misbehaving server over real loopback sockets:
// it retries what is retryable, fails with the right typed failure otherwise,
// records every attempt, honours Retry-After and never crashes. Backoff sleeps
// go through a FakeClock (recorded, instant); transfers and timeouts are real.
#include <gtest/gtest.h>

#include <cstdlib>
#include <ctime>
#include <thread>

#include "agent/llm/llm_client.h"
#include "tests/integration/agent/closing_server.h"
#include "tests/integration/agent/fault_server.h"
#include "tests/unit/agent/fake_clock.h"

namespace pf::llm {
namespace {

using pf::testing::FaultAction;
using pf::testing::FaultServer;
using testing::FakeClock;

struct Fixture {
  FaultServer server;
  std::shared_ptr<FakeClock> clock = std::make_shared<FakeClock>();
  std::unique_ptr<LlmClient> client;

  explicit Fixture(LlmOptions o = {}) {
    o.base_url = server.base_url();
    if (o.model.empty()) o.model = "fault-model";
    auto c = LlmClient::create(std::move(o), clock);
    EXPECT_TRUE(c.ok()) << c.error().message;
    client = std::move(c).value();
  }
};

LlmOptions fast_options() {
  LlmOptions o;
  o.max_attempts = 4;
  o.request_timeout_s = 5;
  o.backoff_initial_s = 1;
  o.backoff_max_s = 8;
  return o;
}

ChatRequest hello() {
  ChatRequest r;
  r.messages = {ChatMessage::system("You write passes."), ChatMessage::user("Task id: t1")};
  return r;
}

std::vector<std::string> outcomes(const ChatOutcome& out) {
  std::vector<std::string> names;
  for (const auto& a : out.attempts()) names.push_back(attempt_outcome_name(a.outcome));
  return names;
}

using Names = std::vector<std::string>;

TEST(LlmClientFaults, RateLimitsHonourRetryAfterSecondsAndDates) {
  Fixture f(fast_options());
  f.server.push(FaultAction::rate_limited("7"));
  std::time_t in_30s = std::time(nullptr) + 30;
  char date[64];
  std::strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S GMT", std::gmtime(&in_30s));
  f.server.push(FaultAction::rate_limited(date));
  f.server.push(FaultAction::ok("finally"));
  auto out = f.client->chat(hello());
  ASSERT_TRUE(out.ok()) << out.failure().message;
  EXPECT_EQ(out.response().message.content, "finally");
  EXPECT_EQ(outcomes(out), (Names{"rate_limited", "rate_limited", "ok"}));
  const auto& a = out.response().attempts;
  EXPECT_EQ(a[0].http_status, 429);
  EXPECT_EQ(a[0].retry_after_s, 7.0);
  EXPECT_EQ(a[0].wait_s, 7.0);
  // The date lies 30 s after the start, and the (fake) clock already slept 7 s.
  EXPECT_NEAR(a[1].wait_s, 23.0, 2.0);
  auto sleeps = f.clock->sleeps();
  ASSERT_EQ(sleeps.size(), 2u);
  EXPECT_EQ(sleeps[0], 7.0);
  EXPECT_NEAR(sleeps[1], 23.0, 2.0);
  EXPECT_EQ(f.server.request_count(), 3u);
}

TEST(LlmClientFaults, RetryAfterIsReallyWaitedWithTheSystemClock) {
  FaultServer server;
  LlmOptions o = fast_options();
  o.base_url = server.base_url();
  auto client = LlmClient::create(o);
  ASSERT_TRUE(client.ok());
  server.push(FaultAction::rate_limited("1"));
  auto start = std::chrono::steady_clock::now();
  auto out = (*client)->chat(hello());
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(out.ok()) << out.failure().message;
  EXPECT_GE(elapsed, 0.9);
  EXPECT_LT(elapsed, 30.0);
  EXPECT_GE(out.response().total_time_s, 0.9);
}

TEST(LlmClientFaults, RateLimitedUntilAttemptsRunOut) {
  Fixture f(fast_options());
  f.server.set_default(FaultAction::rate_limited("2"));
  auto out = f.client->chat(hello());
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.failure().kind, ErrorKind::rate_limited_exhausted);
  EXPECT_STREQ(out.failure().exit_reason(), "endpoint_error");
  EXPECT_EQ(out.failure().http_status, 429);
  EXPECT_EQ(out.failure().attempts.size(), 4u);
  EXPECT_EQ(out.failure().attempts.back().wait_s, 0.0);
  EXPECT_EQ(f.server.request_count(), 4u);
  EXPECT_EQ(f.clock->sleeps(), (std::vector<double>{2, 2, 2}));
  EXPECT_NE(out.failure().message.find("4 attempts"), std::string::npos) << out.failure().message;
  EXPECT_FALSE(out.failure().raw_request.empty());
}

TEST(LlmClientFaults, MaxRetryTimeStopsBeforeALongWait) {
  LlmOptions o = fast_options();
  o.max_retry_time_s = 60;
  Fixture f(o);
  f.server.push(FaultAction::rate_limited("3600"));
  auto out = f.client->chat(hello());
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.failure().kind, ErrorKind::rate_limited_exhausted);
  EXPECT_EQ(out.failure().attempts.size(), 1u);
  EXPECT_TRUE(f.clock->sleeps().empty());
  EXPECT_NE(out.failure().message.find("max_retry_time_s"), std::string::npos);
}

TEST(LlmClientFaults, ServerErrorsBackOffExponentiallyWithJitter) {
  Fixture f(fast_options());
  f.server.push(FaultAction::status_with(500, "Internal Server Error"));
  f.server.push(FaultAction::status_with(502, "<html>Bad Gateway</html>"));
  f.server.push(FaultAction::status_with(503, R"({"error":{"message":"overloaded"}})"));
  f.server.push(FaultAction::ok("fine"));
  auto out = f.client->chat(hello());
  ASSERT_TRUE(out.ok()) << out.failure().message;
  EXPECT_EQ(outcomes(out), (Names{"server_error", "server_error", "server_error", "ok"}));
  EXPECT_EQ(out.response().attempts[2].detail, "HTTP 503: overloaded");
  auto sleeps = f.clock->sleeps();
  ASSERT_EQ(sleeps.size(), 3u);
  for (size_t i = 0; i < sleeps.size(); ++i) {
    EXPECT_GE(sleeps[i], 0.0);
    EXPECT_LE(sleeps[i], static_cast<double>(1 << i));  // ceilings 1, 2, 4
  }
}

// endpoint.base_urls: a dead replica's failure is retried on a live one at
// once (no backoff sleep), and calls are spread over live replicas.
TEST(LlmClientFaults, ReplicasFailOverAtOnceAndShareTheLoad) {
  FaultServer live_a, live_b;
  std::string dead;
  {
    FaultServer gone;  // a port that just closed: connection refused
    dead = gone.base_url();
  }
  auto clock = std::make_shared<FakeClock>();
  LlmOptions o = fast_options();
  o.base_urls = {dead, live_a.base_url()};
  o.model = "fault-model";
  auto client = LlmClient::create(o, clock);
  ASSERT_TRUE(client.ok()) << client.error().message;
  auto out = (*client)->chat(hello());
  ASSERT_TRUE(out.ok()) << out.failure().message;
  EXPECT_EQ(outcomes(out), (Names{"connection", "ok"}));
  EXPECT_NE(out.response().attempts[0].detail.find(dead), std::string::npos)
      << out.response().attempts[0].detail;
  EXPECT_EQ(clock->sleeps(), (std::vector<double>{0.0})) << "failover does not back off";
  // The dead replica cools down: the next calls go straight to the live one.
  for (int i = 0; i < 3; ++i) {
    auto again = (*client)->chat(hello());
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(outcomes(again), (Names{"ok"}));
  }
  EXPECT_EQ(live_a.request_count(), 4u);

  o.base_urls = {live_a.base_url(), live_b.base_url()};
  auto pair = LlmClient::create(o, clock);
  ASSERT_TRUE(pair.ok());
  for (int i = 0; i < 6; ++i) ASSERT_TRUE((*pair)->chat(hello()).ok());
  EXPECT_EQ(live_a.request_count(), 4u + 3u);
  EXPECT_EQ(live_b.request_count(), 3u);
}

TEST(LlmClientFaults, EveryReplicaDownBacksOffAsOneServerWould) {
  FaultServer a, b;
  a.set_default(FaultAction::status_with(503, "busy"));
  b.set_default(FaultAction::status_with(503, "busy"));
  auto clock = std::make_shared<FakeClock>();
  LlmOptions o = fast_options();
  o.base_urls = {a.base_url(), b.base_url()};
  o.model = "fault-model";
  auto client = LlmClient::create(o, clock);
  ASSERT_TRUE(client.ok());
  auto out = (*client)->chat(hello());
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.failure().kind, ErrorKind::server_error_exhausted);
  EXPECT_EQ(a.request_count() + b.request_count(), 4u);
  EXPECT_GE(a.request_count(), 1u);
  EXPECT_GE(b.request_count(), 1u);
  auto sleeps = clock->sleeps();
  ASSERT_EQ(sleeps.size(), 3u);
  EXPECT_EQ(sleeps[0], 0.0) << "the first failure fails over to the other replica";
}

TEST(LlmClientFaults, ServerErrorsExhausted) {
  Fixture f(fast_options());
  f.server.set_default(FaultAction::status_with(503, "busy"));
  auto out = f.client->chat(hello());
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.failure().kind, ErrorKind::server_error_exhausted);
  EXPECT_EQ(out.failure().raw_response, "busy");
  EXPECT_EQ(f.server.request_count(), 4u);
}

TEST(LlmClientFaults, SlowResponsesTimeOutAndAreRetried) {
  LlmOptions o = fast_options();
  o.request_timeout_s = 0.5;
  Fixture f(o);
  f.server.push(FaultAction::slow(5, "late"));
  f.server.push(FaultAction::ok("on time"));
  auto out = f.client->chat(hello());
  ASSERT_TRUE(out.ok()) << out.failure().message;
  EXPECT_EQ(out.response().message.content, "on time");
  EXPECT_EQ(outcomes(out), (Names{"timeout", "ok"}));
  EXPECT_GE(out.response().attempts[0].latency_s, 0.4);
  EXPECT_EQ(out.response().attempts[0].http_status, 0);
}

TEST(LlmClientFaults, TimeoutsExhausted) {
  LlmOptions o = fast_options();
  o.request_timeout_s = 0.3;
  o.max_attempts = 2;
  Fixture f(o);
  f.server.set_default(FaultAction::slow(5, "late"));
  auto out = f.client->chat(hello());
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.failure().kind, ErrorKind::timeout_exhausted);
  EXPECT_EQ(out.failure().to_error().code, ErrorCode::timeout);
  EXPECT_EQ(out.failure().attempts.size(), 2u);
}

TEST(LlmClientFaults, BrokenBodiesAreRetried) {
  Fixture f(LlmOptions{fast_options()});
  f.server.push(FaultAction::dropped_mid_body());
  f.server.push(FaultAction::truncated_json());
  f.server.push(FaultAction::invalid_json());
  f.server.push(FaultAction::ok("whole"));
  auto out = f.client->chat(hello());
  ASSERT_TRUE(out.ok()) << out.failure().message;
  EXPECT_EQ(out.response().message.content, "whole");
  EXPECT_EQ(outcomes(out), (Names{"truncated", "malformed", "malformed", "ok"}));
  EXPECT_EQ(out.response().attempts[1].detail, "response body is not valid JSON");
}

TEST(LlmClientFaults, EmptyChoicesExhaustedIsMalformedResponse) {
  Fixture f(fast_options());
  f.server.set_default(FaultAction::empty_choices());
  auto out = f.client->chat(hello());
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.failure().kind, ErrorKind::malformed_response);
  EXPECT_NE(out.failure().message.find("no choices"), std::string::npos);
  EXPECT_EQ(out.failure().attempts.size(), 4u);
}

TEST(LlmClientFaults, InvalidToolArgumentsArePassedThroughVerbatim) {
  Fixture f(fast_options());
  f.server.push(FaultAction::invalid_tool_arguments());
  auto out = f.client->chat(hello());
  ASSERT_TRUE(out.ok()) << out.failure().message;
  const auto& m = out.response().message;
  ASSERT_EQ(m.tool_calls.size(), 1u);
  EXPECT_EQ(m.tool_calls[0].id, "call_9");
  EXPECT_EQ(m.tool_calls[0].arguments, "{\"path\": \"a.py\", ");
  EXPECT_FALSE(arguments_are_json_object(m.tool_calls[0]));
  EXPECT_EQ(out.response().finish_reason, "tool_calls");
  EXPECT_EQ(out.response().usage.total_tokens, 18);
  EXPECT_EQ(f.server.request_count(), 1u);
}

TEST(LlmClientFaults, ContextOverflowEndsAtOnce) {
  for (auto action :
       {FaultAction::context_overflow_vllm(), FaultAction::context_overflow_openai()}) {
    Fixture f(fast_options());
    f.server.set_default(action);
    auto out = f.client->chat(hello());
    ASSERT_FALSE(out.ok());
    EXPECT_EQ(out.failure().kind, ErrorKind::context_overflow);
    EXPECT_STREQ(out.failure().exit_reason(), "context_overflow");
    EXPECT_EQ(out.failure().http_status, 400);
    EXPECT_EQ(out.failure().attempts.size(), 1u);
    EXPECT_NE(out.failure().message.find("maximum context length"), std::string::npos);
    EXPECT_TRUE(f.clock->sleeps().empty());
  }
}

TEST(LlmClientFaults, UnauthorizedNamesTheKeyVariableButNeverTheKey) {
  ::setenv("PF_LLM_TEST_KEY", "sk-very-secret", 1);
  LlmOptions o = fast_options();
  o.api_key_env = "PF_LLM_TEST_KEY";
  Fixture f(o);
  ::unsetenv("PF_LLM_TEST_KEY");
  EXPECT_TRUE(f.client->has_api_key());
  f.server.set_default(FaultAction::unauthorized());
  auto out = f.client->chat(hello());
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.failure().kind, ErrorKind::unauthorized);
  EXPECT_EQ(out.failure().attempts.size(), 1u);
  EXPECT_NE(out.failure().message.find("$PF_LLM_TEST_KEY"), std::string::npos);
  EXPECT_EQ(out.failure().message.find("sk-very-secret"), std::string::npos);
  EXPECT_EQ(out.failure().raw_request.find("sk-very-secret"), std::string::npos);
  ASSERT_EQ(f.server.requests().size(), 1u);
  EXPECT_EQ(f.server.requests()[0].headers.at("authorization"), "Bearer sk-very-secret");
}

TEST(LlmClientFaults, NoKeyNoAuthorizationHeader) {
  LlmOptions o = fast_options();
  o.api_key_env = "PF_LLM_TEST_KEY_UNSET";
  Fixture f(o);
  auto out = f.client->chat(hello());
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(f.server.requests()[0].headers.count("authorization"), 0u);
}

TEST(LlmClientFaults, SendsHeadersModelAndSampling) {
  LlmOptions o = fast_options();
  o.headers = {{"X-Org", "lab"}};
  o.sampling.temperature = 0.6;
  o.extra = {{"top_k", 20}};
  Fixture f(o);
  ChatRequest r = hello();
  r.headers = {{kTaskHeader, "t1"}};
  r.sampling.seed = 1234;
  auto out = f.client->chat(r);
  ASSERT_TRUE(out.ok());
  auto rec = f.server.requests().at(0);
  EXPECT_EQ(rec.path, "/v1/chat/completions");
  EXPECT_EQ(rec.headers.at("x-passforge-task"), "t1");
  EXPECT_EQ(rec.headers.at("x-org"), "lab");
  auto body = nlohmann::json::parse(rec.body);
  EXPECT_EQ(body["model"], "fault-model");
  EXPECT_EQ(body["temperature"], 0.6);
  EXPECT_EQ(body["seed"], 1234);
  EXPECT_EQ(body["top_k"], 20);
  EXPECT_EQ(body["messages"][1]["content"], "Task id: t1");
  EXPECT_EQ(out.response().raw_request, rec.body);
  EXPECT_FALSE(out.response().raw_response.empty());
  EXPECT_EQ(out.response().http_status, 200);
  EXPECT_GT(out.response().latency_s, 0.0);
}

TEST(LlmClientFaults, ConnectionRefusedIsRetriedThenReported) {
  std::string url;
  {
    FaultServer gone;
    url = gone.base_url();
  }  // the port is closed now
  LlmOptions o = fast_options();
  o.base_url = url;
  o.max_attempts = 3;
  auto clock = std::make_shared<FakeClock>();
  auto client = LlmClient::create(o, clock);
  ASSERT_TRUE(client.ok());
  auto out = (*client)->chat(hello());
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.failure().kind, ErrorKind::connection_exhausted);
  EXPECT_EQ(out.failure().http_status, 0);
  EXPECT_EQ(out.failure().attempts.size(), 3u);
  EXPECT_EQ(clock->sleeps().size(), 2u);
  auto models = (*client)->list_models();
  ASSERT_FALSE(models.ok());
  EXPECT_NE(models.error().message.find("/models"), std::string::npos);
}

// The server drops the kept-alive connection when the second call arrives on
// it; libcurl sends that call again on a new connection by itself. The server
// got it twice (and may have billed both), so it is two attempts.
TEST(LlmClientFaults, ReSendsByTheHttpLayerAreCountedAsAttempts) {
  pf::testing::ClosingServer server(FaultAction::ok("hi").body);
  LlmOptions o = fast_options();
  o.base_url = server.base_url();
  o.model = "fault-model";
  auto clock = std::make_shared<FakeClock>();
  auto client = LlmClient::create(o, clock);
  ASSERT_TRUE(client.ok()) << client.error().message;
  auto first = (*client)->chat(hello());
  ASSERT_TRUE(first.ok()) << first.failure().message;
  EXPECT_EQ(outcomes(first), Names({"ok"}));
  auto second = (*client)->chat(hello());
  ASSERT_TRUE(second.ok()) << second.failure().message;
  EXPECT_EQ(server.requests(), 3);
  EXPECT_EQ(outcomes(second), Names({"connection", "ok"}));
  ASSERT_EQ(second.attempts().size(), 2u);
  EXPECT_EQ(second.attempts()[1].number, 2);
  EXPECT_NE(second.attempts()[0].detail.find("sent the request again"), std::string::npos)
      << second.attempts()[0].detail;
  EXPECT_TRUE(clock->sleeps().empty());
}

TEST(LlmClientFaults, StreamingIdleTimeoutThenSuccess) {
  LlmOptions o = fast_options();
  o.stream = true;
  o.stream_idle_timeout_s = 1;
  Fixture f(o);
  f.server.push(FaultAction::stream("never finished", /*stall_s=*/20));
  f.server.push(FaultAction::stream("streamed answer"));
  auto start = std::chrono::steady_clock::now();
  auto out = f.client->chat(hello());
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(out.ok()) << out.failure().message;
  EXPECT_EQ(out.response().message.content, "streamed answer");
  EXPECT_EQ(out.response().finish_reason, "stop");
  EXPECT_TRUE(out.response().usage.estimated);  // this stream reported no usage
  EXPECT_EQ(outcomes(out), (Names{"timeout", "ok"}));
  EXPECT_NE(out.response().attempts[0].detail.find("stream_idle_timeout_s"), std::string::npos);
  EXPECT_LT(elapsed, 15.0);
  auto body = nlohmann::json::parse(f.server.requests()[0].body);
  EXPECT_EQ(body["stream"], true);
  EXPECT_EQ(body["stream_options"]["include_usage"], true);
}

TEST(LlmClientFaults, StreamEndingWithoutFinishIsTruncated) {
  LlmOptions o = fast_options();
  o.stream = true;
  Fixture f(o);
  FaultAction cut = FaultAction::stream("abcdef");
  cut.sse.resize(cut.sse.size() - 2);  // drop the finish chunk and [DONE]
  f.server.push(cut);
  f.server.push(FaultAction::stream("complete"));
  auto out = f.client->chat(hello());
  ASSERT_TRUE(out.ok()) << out.failure().message;
  EXPECT_EQ(outcomes(out), (Names{"truncated", "ok"}));
  EXPECT_EQ(out.response().message.content, "complete");
}

TEST(LlmClientFaults, StreamRequestAnsweredWithPlainJsonStillWorks) {
  LlmOptions o = fast_options();
  o.stream = true;
  Fixture f(o);
  f.server.push(FaultAction::ok("server ignored stream"));
  auto out = f.client->chat(hello());
  ASSERT_TRUE(out.ok()) << out.failure().message;
  EXPECT_EQ(out.response().message.content, "server ignored stream");
}

TEST(LlmClientFaults, CancelEndsAWaitingCallQuickly) {
  Fixture f(fast_options());
  f.server.set_default(FaultAction::slow(30, "too late"));
  CancelToken cancel;
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    cancel.cancel();
  });
  auto start = std::chrono::steady_clock::now();
  auto out = f.client->chat(hello(), &cancel);
  canceller.join();
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.failure().kind, ErrorKind::cancelled);
  EXPECT_STREQ(out.failure().exit_reason(), "interrupted");
  EXPECT_LT(elapsed, 10.0);
  // An already-cancelled token makes no request at all.
  size_t before = f.server.request_count();
  auto again = f.client->chat(hello(), &cancel);
  EXPECT_EQ(again.failure().kind, ErrorKind::cancelled);
  EXPECT_EQ(f.server.request_count(), before);
}

TEST(LlmClientFaults, SequentialCallsReuseOneConnection) {
  Fixture f(fast_options());
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(f.client->chat(hello()).ok());
  auto requests = f.server.requests();
  ASSERT_EQ(requests.size(), 5u);
  for (const auto& r : requests) EXPECT_EQ(r.remote_port, requests[0].remote_port);
}

TEST(LlmClientFaults, WrongPathHintsAtTheBaseUrl) {
  FaultServer server;
  LlmOptions o = fast_options();
  o.base_url = server.base_url() + "/extra";  // POST .../v1/extra/chat/completions: no such route
  auto client = LlmClient::create(o);
  ASSERT_TRUE(client.ok());
  auto out = (*client)->chat(hello());
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.failure().kind, ErrorKind::bad_request);
  EXPECT_EQ(out.failure().http_status, 404);
  EXPECT_NE(out.failure().message.find("endpoint.base_url"), std::string::npos)
      << out.failure().message;
}

TEST(LlmClientFaults, ListModels) {
  Fixture f(fast_options());
  auto models = f.client->list_models();
  ASSERT_TRUE(models.ok()) << models.error().message;
  EXPECT_EQ(*models, (std::vector<std::string>{"fault-model", "other"}));
}

TEST(LlmClientFaults, OptionsAreValidated) {
  LlmOptions o;
  o.base_url = "127.0.0.1:8000/v1";
  auto c = LlmClient::create(o);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find("endpoint.base_url"), std::string::npos);
  o.base_url = "http://x/v1/";
  o.max_attempts = 0;
  EXPECT_NE(LlmClient::create(o).error().message.find("max_attempts"), std::string::npos);
}

}  // namespace
}  // namespace pf::llm
