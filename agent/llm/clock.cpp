#include "agent/llm/clock.h"

#include <thread>

namespace pf::llm {

bool SystemClock::sleep_for(Seconds duration, const CancelToken* cancel) {
  if (cancel == nullptr) {
    if (duration.count() > 0) std::this_thread::sleep_for(duration);
    return true;
  }
  if (duration.count() <= 0) return !cancel->cancelled();
  return !cancel->wait_for(duration);
}

}  // namespace pf::llm
