#include "sandbox/ipc/frame.h"

#include <gtest/gtest.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <thread>

#include "sandbox/ipc/fd.h"

namespace pf::sandbox::ipc {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

struct Pair {
  Fd a;
  Fd b;
};

Pair make_pair_nonblocking() {
  int sv[2];
  EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
  Pair p{Fd(sv[0]), Fd(sv[1])};
  EXPECT_TRUE(set_nonblocking(p.a.get(), true).ok());
  EXPECT_TRUE(set_nonblocking(p.b.get(), true).ok());
  return p;
}

void write_raw(int fd, std::string_view bytes) {
  ASSERT_EQ(::write(fd, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
}

std::string header(uint32_t size) {
  std::string h(4, '\0');
  for (int i = 0; i < 4; ++i) h[i] = static_cast<char>((size >> (8 * i)) & 0xff);
  return h;
}

TEST(Frame, RoundTripsMessages) {
  auto p = make_pair_nonblocking();
  json small = {{"v", 1}, {"text", "grüße \u2603"}, {"n", -3}, {"list", {1, 2.5, nullptr}}};
  ASSERT_TRUE(write_frame(p.a.get(), small, deadline_in(1s)).ok());
  auto got = read_frame(p.b.get(), deadline_in(1s));
  ASSERT_TRUE(got.ok()) << got.error().message;
  EXPECT_EQ(*got, small);

  // Larger than the socket buffer: needs a concurrent reader and partial writes.
  json big = {{"blob", std::string(8 << 20, 'z')}};
  std::thread writer([&] { EXPECT_TRUE(write_frame(p.a.get(), big, deadline_in(10s)).ok()); });
  auto got_big = read_frame(p.b.get(), deadline_in(10s));
  writer.join();
  ASSERT_TRUE(got_big.ok()) << got_big.error().message;
  EXPECT_EQ((*got_big)["blob"].get<std::string>().size(), size_t{8} << 20);
}

TEST(Frame, HeaderIsLittleEndianLength) {
  std::string frame = encode_frame(json{{"a", 1}});
  ASSERT_GE(frame.size(), 4u);
  EXPECT_EQ(frame.substr(0, 4), header(static_cast<uint32_t>(frame.size() - 4)));
  EXPECT_EQ(frame.substr(4), R"({"a":1})");
}

TEST(Frame, InvalidUtf8IsReplacedNotThrown) {
  json message = {{"log", std::string("bad \xff\xfe bytes")}};
  std::string frame;
  ASSERT_NO_THROW(frame = encode_frame(message));
  auto parsed = parse_payload(std::string_view(frame).substr(4));
  ASSERT_TRUE(parsed.ok());
  EXPECT_NE((*parsed)["log"].get<std::string>().find("bytes"), std::string::npos);
}

TEST(Frame, RejectsOversizeAnnouncementWithoutReadingIt) {
  auto p = make_pair_nonblocking();
  write_raw(p.a.get(), header(kMaxFrameBytes + 1));
  auto got = read_frame(p.b.get(), deadline_in(1s));
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().code, ErrorCode::parse_error);
  EXPECT_NE(got.error().message.find("over the limit"), std::string::npos) << got.error().message;

  write_raw(p.a.get(), header(100) + std::string(100, ' '));
  auto limited = read_frame(p.b.get(), deadline_in(1s), /*max_bytes=*/50);
  ASSERT_FALSE(limited.ok());
  EXPECT_EQ(limited.error().code, ErrorCode::parse_error);
}

TEST(Frame, RefusesToWriteOversizeMessages) {
  auto p = make_pair_nonblocking();
  json huge = {{"blob", std::string(kMaxFrameBytes, 'x')}};
  auto st = write_frame(p.a.get(), huge, deadline_in(1s));
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().code, ErrorCode::invalid_argument);
  EXPECT_NE(st.error().message.find("frame limit"), std::string::npos);
}

TEST(Frame, TruncatedHeaderAndPayloadAreParseErrors) {
  {
    auto p = make_pair_nonblocking();
    write_raw(p.a.get(), std::string("\x07\x00", 2));
    p.a.reset();
    auto got = read_frame(p.b.get(), deadline_in(1s));
    ASSERT_FALSE(got.ok());
    EXPECT_EQ(got.error().code, ErrorCode::parse_error);
    EXPECT_NE(got.error().message.find("truncated"), std::string::npos);
  }
  {
    auto p = make_pair_nonblocking();
    write_raw(p.a.get(), header(20) + "{\"a\":");
    p.a.reset();
    auto got = read_frame(p.b.get(), deadline_in(1s));
    ASSERT_FALSE(got.ok());
    EXPECT_EQ(got.error().code, ErrorCode::parse_error);
    EXPECT_NE(got.error().message.find("truncated"), std::string::npos);
  }
}

TEST(Frame, CleanCloseBetweenFramesIsUnavailable) {
  auto p = make_pair_nonblocking();
  p.a.reset();
  auto got = read_frame(p.b.get(), deadline_in(1s));
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().code, ErrorCode::unavailable);
}

TEST(Frame, WriteToClosedPeerIsUnavailableWithoutSigpipe) {
  auto p = make_pair_nonblocking();
  p.b.reset();
  auto st = write_frame(p.a.get(), json{{"x", 1}}, deadline_in(1s));
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().code, ErrorCode::unavailable);
}

TEST(Frame, BadJsonAndDeepNestingAreRejected) {
  auto p = make_pair_nonblocking();
  std::string bad = "{\"a\": tru";
  write_raw(p.a.get(), header(static_cast<uint32_t>(bad.size())) + bad);
  auto got = read_frame(p.b.get(), deadline_in(1s));
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().code, ErrorCode::parse_error);
  EXPECT_NE(got.error().message.find("not valid JSON"), std::string::npos);

  std::string deep(100000, '[');
  auto nested = parse_payload(deep);
  ASSERT_FALSE(nested.ok());
  EXPECT_NE(nested.error().message.find("levels deep"), std::string::npos);
  // Brackets inside strings do not count.
  auto quoted = parse_payload("{\"s\": \"" + std::string(1000, '[') + "\"}");
  EXPECT_TRUE(quoted.ok());
}

TEST(Frame, ReadTimesOutAtTheDeadline) {
  auto p = make_pair_nonblocking();
  auto start = Clock::now();
  auto got = read_frame(p.b.get(), deadline_in(80ms));
  auto waited = Clock::now() - start;
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().code, ErrorCode::timeout);
  EXPECT_GE(waited, 75ms);
  EXPECT_LT(waited, 2s);
}

TEST(Frame, WriteTimesOutWhenThePeerDoesNotRead) {
  auto p = make_pair_nonblocking();
  json big = {{"blob", std::string(32 << 20, 'q')}};
  auto st = write_frame(p.a.get(), big, deadline_in(100ms));
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().code, ErrorCode::timeout);
}

extern "C" void on_usr1(int) {}

TEST(Frame, SurvivesSignalsDuringTheWait) {
  struct sigaction sa {};
  sa.sa_handler = on_usr1;  // no SA_RESTART: poll returns EINTR
  struct sigaction old {};
  ASSERT_EQ(::sigaction(SIGUSR1, &sa, &old), 0);
  auto p = make_pair_nonblocking();
  pthread_t reader_thread = pthread_self();
  std::atomic<bool> done{false};
  std::thread interrupter([&] {
    for (int i = 0; i < 20 && !done; ++i) {
      pthread_kill(reader_thread, SIGUSR1);
      std::this_thread::sleep_for(5ms);
    }
    EXPECT_TRUE(write_frame(p.a.get(), json{{"after", "signals"}}, deadline_in(1s)).ok());
  });
  auto got = read_frame(p.b.get(), deadline_in(5s));
  done = true;
  interrupter.join();
  ::sigaction(SIGUSR1, &old, nullptr);
  ASSERT_TRUE(got.ok()) << got.error().message;
  EXPECT_EQ((*got)["after"], "signals");
}

TEST(Frame, SystemErrorsNameTheCallAndErrno) {
  auto err = sys_error("socketpair", EMFILE);
  EXPECT_EQ(err.code, ErrorCode::io_error);
  EXPECT_NE(err.message.find("socketpair"), std::string::npos);
  EXPECT_NE(err.message.find("EMFILE"), std::string::npos);
  auto got = read_frame(-1, deadline_in(10ms));
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.error().message.find("EBADF"), std::string::npos) << got.error().message;
}

}  // namespace
}  // namespace pf::sandbox::ipc
