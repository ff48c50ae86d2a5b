#include "sandbox/ipc/protocol.h"

#include <gtest/gtest.h>

namespace pf::sandbox::ipc {
namespace {

using nlohmann::json;

TEST(Protocol, RequestRoundTrip) {
  Request r{42, "compile", json{{"files", {{"kernels/a.cu", "..."}}}}, 1500};
  json wire = encode_request(r);
  EXPECT_EQ(wire["v"], kProtocolVersion);
  auto back = decode_request(wire);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->id, 42u);
  EXPECT_EQ(back->type, "compile");
  EXPECT_EQ(back->body, r.body);
  ASSERT_TRUE(back->deadline_ms.has_value());
  EXPECT_EQ(*back->deadline_ms, 1500);
}

TEST(Protocol, ReplyRoundTripKeepsErrorCodesAndPoison) {
  Reply ok;
  ok.id = 7;
  ok.body = json{{"x", 1}};
  auto back = decode_reply(encode_reply(ok));
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE(back->ok);
  EXPECT_EQ(back->body, ok.body);
  EXPECT_TRUE(back->poisoned.empty());

  Reply failed{8, false, json::object(), make_error(ErrorCode::timeout, "too slow"), "sticky"};
  auto back2 = decode_reply(encode_reply(failed));
  ASSERT_TRUE(back2.ok());
  EXPECT_FALSE(back2->ok);
  EXPECT_EQ(back2->error.code, ErrorCode::timeout);
  EXPECT_EQ(back2->error.message, "too slow");
  EXPECT_EQ(back2->poisoned, "sticky");
}

TEST(Protocol, EveryErrorCodeSurvivesTheWire) {
  for (auto code : {ErrorCode::invalid_argument, ErrorCode::not_found, ErrorCode::unsupported,
                    ErrorCode::parse_error, ErrorCode::io_error, ErrorCode::timeout,
                    ErrorCode::unavailable, ErrorCode::internal}) {
    EXPECT_EQ(error_code_from_name(error_code_name(code)), code);
  }
  EXPECT_EQ(error_code_from_name("no_such_code"), ErrorCode::internal);
}

TEST(Protocol, RejectsWrongVersionNamingBoth) {
  auto got = decode_request(json{{"v", 2}, {"id", 1}, {"type", "ping"}});
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().code, ErrorCode::parse_error);
  EXPECT_NE(got.error().message.find("protocol version 2"), std::string::npos);
  EXPECT_NE(got.error().message.find("expected 1"), std::string::npos);
  EXPECT_FALSE(decode_reply(json{{"id", 1}, {"ok", true}}).ok());  // no version at all
}

TEST(Protocol, RejectsMalformedEnvelopes) {
  auto base = [] { return json{{"v", 1}, {"id", 1}, {"type", "ping"}, {"body", json::object()}}; };
  EXPECT_TRUE(decode_request(base()).ok());
  EXPECT_FALSE(decode_request(json::array()).ok());
  auto no_type = base();
  no_type.erase("type");
  EXPECT_FALSE(decode_request(no_type).ok());
  auto empty_type = base();
  empty_type["type"] = "";
  EXPECT_FALSE(decode_request(empty_type).ok());
  auto bad_body = base();
  bad_body["body"] = "text";
  EXPECT_FALSE(decode_request(bad_body).ok());
  auto negative_id = base();
  negative_id["id"] = -1;
  EXPECT_FALSE(decode_request(negative_id).ok());
  auto string_id = base();
  string_id["id"] = "1";
  EXPECT_FALSE(decode_request(string_id).ok());
  auto bad_deadline = base();
  bad_deadline["deadline_ms"] = -5;
  EXPECT_FALSE(decode_request(bad_deadline).ok());

  EXPECT_FALSE(decode_reply(json{{"v", 1}, {"id", 1}}).ok());                 // no ok
  EXPECT_FALSE(decode_reply(json{{"v", 1}, {"id", 1}, {"ok", false}}).ok());  // no error
  EXPECT_FALSE(
      decode_reply(json{{"v", 1}, {"id", 1}, {"ok", false}, {"error", {{"code", 3}}}}).ok());
  EXPECT_FALSE(decode_reply(json{{"v", 1}, {"id", 1}, {"ok", true}, {"poisoned", 1}}).ok());
}

}  // namespace
}  // namespace pf::sandbox::ipc
