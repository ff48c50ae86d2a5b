#include "agent/llm/http_error.h"

#include <gtest/gtest.h>

namespace pf::llm {
namespace {

// Bodies as the servers send them (status 400 unless noted).
constexpr const char* kOverflowBodies[] = {
    // vLLM (older and newer wordings)
    R"({"object":"error","message":"This model's maximum context length is 32768 tokens. However, you requested 33000 tokens (30000 in the messages, 3000 in the completion). Please reduce the length of the messages or completion.","type":"BadRequestError","param":null,"code":400})",
    R"({"error":{"message":"'max_tokens' or 'max_completion_tokens' is too large: 8000. This model's maximum context length is 4096 tokens and your request has 2778 input tokens (8000 > 4096 - 2778). None","type":"BadRequestError","param":null,"code":400}})",
    R"({"object":"error","message":"The decoder prompt (length 40000) is longer than the maximum model length of 32768. Make sure that `max_model_len` is no smaller than the number of text tokens.","type":"BadRequestError","code":400})",
    // SGLang
    R"({"object":"error","message":"Requested token count exceeds the model's maximum context length of 32768 tokens. You requested a total of 33000 tokens: 30000 tokens from the input messages and 3000 tokens for the completion. Please reduce the number of tokens in the input messages or the completion to fit within the limit.","type":"BadRequestError","param":null,"code":400})",
    R"({"object":"error","message":"The input (40000 tokens) is longer than the model's context length (32768 tokens).","type":"BadRequestError","code":400})",
    // llama.cpp server
    R"j({"error":{"code":400,"message":"request (4476 tokens) exceeds the available context size (4096 tokens)","type":"exceed_context_size_error","n_prompt_tokens":4476,"n_ctx":4096}})j",
    R"({"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"invalid_request_error"}})",
    // OpenAI
    R"({"error":{"message":"This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}})",
    R"({"error":{"message":"Input tokens exceed the configured limit.","type":"invalid_request_error","code":"context_length_exceeded"}})",
    // TGI (422)
    R"({"error":"Input validation error: `inputs` tokens + `max_new_tokens` must be <= 4096. Given: 4000 `inputs` tokens and 500 `max_new_tokens`","error_type":"validation"})",
};

TEST(ContextOverflow, KnownServerWordingsAreRecognised) {
  for (const char* body : kOverflowBodies) {
    EXPECT_EQ(classify_http_status(400, body), AttemptOutcome::context_overflow) << body;
    EXPECT_TRUE(is_context_overflow_message(error_message_from_body(body))) << body;
  }
  EXPECT_EQ(classify_http_status(422, kOverflowBodies[9]), AttemptOutcome::context_overflow);
  EXPECT_EQ(classify_http_status(413, "Request Entity Too Large"),
            AttemptOutcome::context_overflow);
}

TEST(ContextOverflow, OtherErrorsAreNot) {
  const char* others[] = {
      R"({"error":{"message":"The model `gpt-9` does not exist","type":"invalid_request_error","code":"model_not_found"}})",
      R"({"error":{"message":"Invalid 'messages[1].role': unknown role","code":null}})",
      R"({"object":"error","message":"[{'type': 'missing', 'loc': ('body', 'messages')}]","code":400})",
      "Bad Request",
  };
  for (const char* body : others) {
    EXPECT_EQ(classify_http_status(400, body), AttemptOutcome::bad_request) << body;
  }
  // A tokens-per-minute rate limit mentions tokens but is a 429, retried.
  EXPECT_EQ(
      classify_http_status(
          429,
          R"({"error":{"message":"Rate limit reached for gpt-4o on tokens per min (TPM): Limit 30000, Used 29000, Requested 2000."}})"),
      AttemptOutcome::rate_limited);
}

TEST(HttpStatus, Classification) {
  EXPECT_EQ(classify_http_status(200, ""), AttemptOutcome::ok);
  EXPECT_EQ(classify_http_status(429, ""), AttemptOutcome::rate_limited);
  EXPECT_EQ(classify_http_status(500, ""), AttemptOutcome::server_error);
  EXPECT_EQ(classify_http_status(502, ""), AttemptOutcome::server_error);
  EXPECT_EQ(classify_http_status(503, ""), AttemptOutcome::server_error);
  EXPECT_EQ(classify_http_status(408, ""), AttemptOutcome::server_error);
  EXPECT_EQ(classify_http_status(401, ""), AttemptOutcome::unauthorized);
  EXPECT_EQ(classify_http_status(403, ""), AttemptOutcome::unauthorized);
  EXPECT_EQ(classify_http_status(404, ""), AttemptOutcome::bad_request);
  // Whatever a 5xx body says, it is retried: the server may recover.
  EXPECT_EQ(classify_http_status(500, kOverflowBodies[0]), AttemptOutcome::server_error);
}

TEST(HttpStatus, ErrorMessageExtraction) {
  EXPECT_EQ(
      error_message_from_body(R"({"error":{"message":"m","code":"context_length_exceeded"}})"),
      "m [context_length_exceeded]");
  EXPECT_EQ(error_message_from_body(R"({"object":"error","message":"vllm says"})"), "vllm says");
  EXPECT_EQ(error_message_from_body(R"({"detail":"Not Found"})"), "Not Found");
  EXPECT_EQ(error_message_from_body(R"({"error":"plain"})"), "plain");
  EXPECT_EQ(error_message_from_body("  <html>502</html>\n"), "<html>502</html>");
  std::string long_body(5000, 'x');
  EXPECT_LT(error_message_from_body(long_body).size(), 700u);
}

TEST(AttemptOutcomes, RetryableSet) {
  for (auto o :
       {AttemptOutcome::rate_limited, AttemptOutcome::server_error, AttemptOutcome::timeout,
        AttemptOutcome::connection, AttemptOutcome::truncated, AttemptOutcome::malformed}) {
    EXPECT_TRUE(is_retryable(o)) << attempt_outcome_name(o);
  }
  for (auto o : {AttemptOutcome::ok, AttemptOutcome::context_overflow, AttemptOutcome::unauthorized,
                 AttemptOutcome::bad_request, AttemptOutcome::cancelled}) {
    EXPECT_FALSE(is_retryable(o)) << attempt_outcome_name(o);
  }
}

}  // namespace
}  // namespace pf::llm

#include "agent/llm/chat_failure.h"

namespace pf::llm {
namespace {

TEST(ChatFailure, KindsMapOntoEpisodeExitReasons) {
  EXPECT_STREQ(exit_reason(ErrorKind::context_overflow), "context_overflow");
  EXPECT_STREQ(exit_reason(ErrorKind::cancelled), "interrupted");
  for (auto k : {ErrorKind::rate_limited_exhausted, ErrorKind::server_error_exhausted,
                 ErrorKind::timeout_exhausted, ErrorKind::connection_exhausted,
                 ErrorKind::unauthorized, ErrorKind::bad_request, ErrorKind::malformed_response}) {
    EXPECT_STREQ(exit_reason(k), "endpoint_error") << error_kind_name(k);
  }
  EXPECT_EQ(error_kind_for(AttemptOutcome::rate_limited), ErrorKind::rate_limited_exhausted);
  EXPECT_EQ(error_kind_for(AttemptOutcome::truncated), ErrorKind::malformed_response);
  EXPECT_EQ(error_kind_for(AttemptOutcome::timeout), ErrorKind::timeout_exhausted);
  ChatFailure f;
  f.kind = ErrorKind::unauthorized;
  f.message = "HTTP 401: bad key";
  EXPECT_EQ(f.to_error().code, ErrorCode::invalid_argument);
  EXPECT_NE(f.to_error().message.find("unauthorized"), std::string::npos);
}

}  // namespace
}  // namespace pf::llm
