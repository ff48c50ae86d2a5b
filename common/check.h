// Broken invariants (bugs in passforge, never input from users or LLMs) stop
// the process with file and line; expected failures use Result instead.
#pragma once

#include <cstdio>
#include <cstdlib>

#define PF_CHECK(cond)                                                              \
  do {                                                                              \
    if (!(cond)) {                                                                  \
      std::fprintf(stderr, "%s:%d: internal check failed: %s\n", __FILE__, __LINE__, \
                   #cond);                                                          \
      std::abort();                                                                 \
    }                                                                               \
  } while (0)

#define PF_CHECK_MSG(cond, msg)                                                        \
  do {                                                                                 \
    if (!(cond)) {                                                                     \
      std::fprintf(stderr, "%s:%d: internal check failed: %s (%s)\n", __FILE__, __LINE__, \
                   #cond, msg);                                                        \
      std::abort();                                                                    \
    }                                                                                  \
  } while (0)
