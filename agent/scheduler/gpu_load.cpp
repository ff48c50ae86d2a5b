#include "agent/scheduler/gpu_load.h"

#include <algorithm>
#include <cstdio>

namespace pf::agent {

std::string gpu_load_text(const sandbox::PoolLoad& now, const sandbox::PoolLoad* since) {
  const double wall = now.wall_s - (since != nullptr ? since->wall_s : 0.0);
  std::string out;
  char buf[96];
  for (size_t i = 0; i < now.slots.size(); ++i) {
    const auto& s = now.slots[i];
    double busy = s.busy_s;
    if (since != nullptr && i < since->slots.size()) busy -= since->slots[i].busy_s;
    const double share = wall > 0 ? std::clamp(busy / wall, 0.0, 1.0) : 0.0;
    std::snprintf(buf, sizeof buf, "%sGPU %s %.0f%% busy", out.empty() ? "" : ", ",
                  s.device.empty() ? std::to_string(i).c_str() : s.device.c_str(), 100 * share);
    out += buf;
  }
  std::snprintf(buf, sizeof buf, ", %llu queued", static_cast<unsigned long long>(now.waiting));
  return out + buf;
}

GpuLoadWindow::GpuLoadWindow(std::function<sandbox::PoolLoad()> source,
                             std::chrono::milliseconds window)
    : source_(std::move(source)), window_(window) {}

std::string GpuLoadWindow::text() {
  std::lock_guard lock(mu_);
  const auto now = std::chrono::steady_clock::now();
  sandbox::PoolLoad load = source_();
  // Keep the newest sample at least `window_` old as the window's start.
  while (samples_.size() > 1 && now - samples_[1].first >= window_) samples_.pop_front();
  std::string out = gpu_load_text(load, samples_.empty() ? nullptr : &samples_.front().second);
  samples_.emplace_back(now, std::move(load));
  return out;
}

}  // namespace pf::agent
