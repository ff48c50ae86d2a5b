// The replacement-language check: every construct outside the language is
// rejected at load time with file:line:col and a short explanation; the
// whole language is accepted.
#include <gtest/gtest.h>

#include "tests/unit/passes/pass_test_util.h"

namespace pf::passes::test {
namespace {

// Lines 1-4; the replacement body starts on line 5.
const char* kHead =
    "import torch\n"
    "def pattern(x, s):\n"
    "    return torch.relu(x).reshape(s)\n"
    "def replacement(x, s):\n";

std::string check(const std::string& body) {
  auto p = pass_from(std::string(kHead) + body);
  return p.ok() ? "" : p.error().message;
}

struct Rejection {
  const char* body;
  const char* message;  // expected exactly, after "passes/Fuse.py:"
};

TEST(ReplacementCheck, TheWholeLanguageLoads) {
  std::string body =
      "    \"\"\"docstring\"\"\"\n"
      "    n = x.numel()\n"
      "    rows, cols = x.shape[0], x.size(-1)\n"
      "    st = x.stride(0) + x.stride()[1] + x.dim() + x.ndim + x.element_size()\n"
      "    dims = x.shape[1:] + (1,)\n"
      "    n += 1\n"
      "    n -= 1\n"
      "    q = n // 4 % 3 * 2 - -1\n"
      "    block = min(256, max(32, cdiv(n, 4)))\n"
      "    ok = x.is_contiguous() and not (n < 0 or n >= 1 << 0 if False else n == 0)\n"
      "    dt = torch.float16 if x.dtype == torch.float16 else x.dtype\n"
      "    if n is None:\n"
      "        pass\n"
      "    elif n != 3 and 0 <= n < 10:\n"
      "        n = 3\n"
      "    else:\n"
      "        n = n\n"
      "    out = torch.empty(s, dtype=dt, device=x.device)\n"
      "    tmp = torch.zeros((n, 2), dtype=torch.float32)\n"
      "    z = torch.empty_like(x)\n"
      "    w = torch.zeros_like(x, dtype=torch.int64)\n"
      "    launch(\"k\", grid=(cdiv(n, block), 1), block=block, smem=0, args=(x, out, n, 1e-5))\n"
      "    launch('k', grid=1, block=32)\n"
      "    ...\n"
      "    return out\n";
  // `1 << 0` is the only bitwise operator in that body: it must be the only error.
  std::string e = check(body);
  EXPECT_EQ(e,
            "passes/Fuse.py:14:53: operator '<<' is not allowed: replacement bodies do integer "
            "arithmetic with + - * // % cdiv min max");
  size_t pos = body.find(" >= 1 << 0");
  body.replace(pos, 10, " >= 1");
  EXPECT_EQ(check(body), "");
}

TEST(ReplacementCheck, EveryRejection) {
  const std::vector<Rejection> cases = {
      {"    for i in s:\n        pass\n    return x\n",
       "5:5: 'for' loops are not allowed in replacement bodies: the kernel does the looping "
       "(launch a grid that covers the data)"},
      {"    while True:\n        pass\n    return x\n",
       "5:5: 'while' loops are not allowed in replacement bodies: the kernel does the looping "
       "(launch a grid that covers the data)"},
      {"    import math\n    return x\n",
       "5:5: imports are not allowed in replacement bodies: nothing outside the replacement "
       "language can be called"},
      {"    from torch import matmul\n    return x\n",
       "5:5: imports are not allowed in replacement bodies: nothing outside the replacement "
       "language can be called"},
      {"    with x:\n        pass\n    return x\n",
       "5:5: 'with' statements are not allowed in replacement bodies; allowed: assignments, "
       "if/elif/else, launch(...), return and pass"},
      {"    try:\n        pass\n    except:\n        pass\n    return x\n",
       "5:5: 'try' statements are not allowed in replacement bodies; allowed: assignments, "
       "if/elif/else, launch(...), return and pass"},
      {"    assert x.numel() > 0\n    return x\n",
       "5:5: 'assert' statements are not allowed in replacement bodies; allowed: assignments, "
       "if/elif/else, launch(...), return and pass"},
      {"    def f(y):\n        return y\n    return x\n",
       "5:5: nested 'def' is not allowed in replacement bodies; allowed: assignments, "
       "if/elif/else, launch(...), return and pass"},
      {"    x[0] = 1\n    return x\n",
       "5:5: cannot assign to a subscript: replacement bodies cannot write tensors or "
       "attributes; write a kernel and launch it"},
      {"    x.data = s\n    return x\n",
       "5:5: cannot assign to attribute 'data': replacement bodies cannot write tensors or "
       "attributes; write a kernel and launch it"},
      {"    x.shape[0] += 1\n    return x\n",
       "5:5: augmented assignment needs a plain name as its target"},
      {"    x.numel()\n    return x\n",
       "5:5: a call to 'numel' has no effect here; the only call that stands alone is "
       "launch(...)"},
      {"    return\n", "5:5: return the pattern's outputs: 'return out' or 'return (a, b)'"},
      {"    return (x, x)\n", "5:5: returns 2 values; the pattern returns 1"},
      {"    n = 1\n",
       "4:1: the replacement has no return statement; return the values the "
       "pattern returns (1)"},
      {"    n = x.numel() / 2\n    return x\n",
       "5:19: '/' (true division) is not allowed: use // or cdiv(a, b); replacement bodies do "
       "integer arithmetic, float math belongs in the kernel"},
      {"    y = x @ x\n    return y\n",
       "5:11: replacement bodies cannot compute ('@' is a matrix multiply); write a kernel and "
       "launch it"},
      {"    n = 2 ** 3\n    return x\n",
       "5:11: operator '**' is not allowed: replacement bodies do integer arithmetic with + - * "
       "// % cdiv min max"},
      {"    n = 6 & 3\n    return x\n",
       "5:11: operator '&' is not allowed: replacement bodies do integer arithmetic with + - * "
       "// % cdiv min max"},
      {"    y = x * 2\n    return y\n",
       "5:11: replacement bodies cannot compute on tensors ('x * ...'); write a kernel and "
       "launch it"},
      {"    y = -x\n    return y\n",
       "5:9: replacement bodies cannot compute on tensors ('-x'); write a kernel and launch it"},
      {"    n = ~3\n    return x\n",
       "5:9: operator '~' is not allowed: replacement bodies do integer arithmetic with + - * "
       "// % cdiv min max"},
      {"    n = ...\n    return x\n", "5:9: '...' is not a value in replacement bodies"},
      {"    f = lambda: 1\n    return x\n", "5:9: 'lambda' is not allowed in replacement bodies"},
      {"    t = torch\n    return x\n",
       "5:9: 'torch' can only be used as torch.empty/empty_like/zeros/zeros_like(...) or "
       "torch.<dtype>"},
      {"    f = launch\n    return x\n", "5:9: 'launch' can only be called: launch(...)"},
      {"    return y\n", "5:12: name 'y' is not defined (parameters: x, s)"},
      {"    n = torch.pi\n    return x\n",
       "5:9: 'torch.pi' is not available in replacement bodies; from torch only the allocations "
       "torch.empty/empty_like/zeros/zeros_like and the dtypes (torch.float16, ...) are"},
      {"    y = x.T\n    return y\n",
       "5:9: attribute '.T' is not allowed; replacement bodies read only metadata: x.shape, "
       "x.shape[i], x.dtype, x.ndim, x.device, x.size(i), x.stride(i), x.numel(), x.dim(), "
       "x.is_contiguous(), x.element_size()"},
      {"    y = x[0]\n    return y\n",
       "5:9: subscripting a tensor (x[...]) is not allowed: replacement bodies cannot read or "
       "slice tensors; pass x to a kernel"},
      {"    n = s[0, 1]\n    return x\n",
       "5:11: only one index or slice is allowed (t[i] or t[a:b])"},
      {"    b = 3 in s\n    return x\n", "5:11: 'in' is not allowed; compare with < <= > >= == !="},
      {"    b = s is s\n    return x\n", "5:11: 'is' compares with None only; use == or !="},
      {"    n = cdiv(4)\n    return x\n", "5:9: cdiv(a, b) takes two integers"},
      {"    n = max()\n    return x\n", "5:9: max(...) needs arguments"},
      {"    n = min(1, 2, key=3)\n    return x\n", "5:19: min() takes no keyword arguments"},
      {"    print(x)\n    return x\n",
       "5:5: 'print' cannot be called in replacement bodies; callable: launch(\"kernel\", "
       "grid=..., block=..., smem=..., args=(...)), cdiv(a, b), min(...), max(...), "
       "torch.empty/empty_like/zeros/zeros_like(..., dtype=...), and the metadata methods "
       "x.size(i), x.stride(i), x.numel(), x.dim(), x.is_contiguous(), x.element_size()"},
      {"    y = torch.matmul(x, x)\n    return y\n",
       "5:9: replacement bodies cannot compute: 'torch.matmul' is a tensor op; write a kernel "
       "and launch it"},
      {"    y = F.relu(x)\n    return y\n",
       "5:9: replacement bodies cannot compute: 'torch.nn.functional.relu' is a tensor op; "
       "write a kernel and launch it"},
      {"    y = x.relu()\n    return y\n",
       "5:9: replacement bodies cannot compute: '.relu()' is a tensor op; write a kernel and "
       "launch it"},
      {"    y = x.cuda_magic()\n    return y\n",
       "5:9: '.cuda_magic()' cannot be called in replacement bodies; callable: launch(\"kernel\", "
       "grid=..., block=..., smem=..., args=(...)), cdiv(a, b), min(...), max(...), "
       "torch.empty/empty_like/zeros/zeros_like(..., dtype=...), and the metadata methods "
       "x.size(i), x.stride(i), x.numel(), x.dim(), x.is_contiguous(), x.element_size()"},
      {"    n = s[0](1)\n    return x\n",
       "5:9: only named functions can be called; callable: launch(\"kernel\", grid=..., "
       "block=..., smem=..., args=(...)), cdiv(a, b), min(...), max(...), "
       "torch.empty/empty_like/zeros/zeros_like(..., dtype=...), and the metadata methods "
       "x.size(i), x.stride(i), x.numel(), x.dim(), x.is_contiguous(), x.element_size()"},
      {"    n = x.size(0, 1)\n    return x\n", "5:9: .size() takes at most one dim: .size(i)"},
      {"    n = x.numel(1)\n    return x\n", "5:9: .numel() takes no arguments"},
      {"    n = x.size(dim=0)\n    return x\n", "5:16: .size() takes no keyword arguments"},
      {"    y = torch.empty_like(x, x)\n    return y\n",
       "5:9: torch.empty_like(x, dtype=...) takes one tensor"},
      {"    y = torch.zeros()\n    return y\n",
       "5:9: torch.zeros(shape, dtype=...) needs a shape: ints or one tuple"},
      {"    y = torch.empty(s, pin_memory=True)\n    return y\n",
       "5:24: torch.empty() accepts dtype= and device= only, not pin_memory="},
      {"    launch(\"k\", 1, 32)\n    return x\n",
       "5:5: launch() takes the kernel name positionally, then grid=, block=, smem= and args= as "
       "keywords\npasses/Fuse.py:5:5: launch() needs grid= and block="},
      {"    launch(\"k\", grid=1, block=1, stream=0)\n    return x\n",
       "5:34: launch() takes grid=, block=, smem= and args=; unknown keyword 'stream'"},
      {"    launch(\"k\", grid=1)\n    return x\n", "5:5: launch() needs grid= and block="},
      {"    n = math.sqrt(4)\n    return x\n",
       "5:9: 'math.sqrt' cannot be called in replacement bodies; callable: launch(\"kernel\", "
       "grid=..., block=..., smem=..., args=(...)), cdiv(a, b), min(...), max(...), "
       "torch.empty/empty_like/zeros/zeros_like(..., dtype=...), and the metadata methods "
       "x.size(i), x.stride(i), x.numel(), x.dim(), x.is_contiguous(), x.element_size()"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(check(c.body), std::string("passes/Fuse.py:") + c.message) << c.body;
  }
}

TEST(ReplacementCheck, ComprehensionsAreSyntaxErrors) {
  std::string e = check("    n = [d for d in s]\n    return x\n");
  EXPECT_EQ(e.rfind("passes/Fuse.py:5:", 0), 0u) << e;
  EXPECT_NE(e.find("comprehensions are not supported"), std::string::npos) << e;
}

TEST(ReplacementCheck, AllErrorsAtOnce) {
  std::string e = check("    for i in s:\n        pass\n    y = x.relu()\n    return y / 2\n");
  EXPECT_NE(e.find("5:5: 'for' loops"), std::string::npos) << e;
  EXPECT_NE(e.find("7:9: replacement bodies cannot compute"), std::string::npos) << e;
  EXPECT_NE(e.find("8:14: '/' (true division)"), std::string::npos) << e;
}

}  // namespace
}  // namespace pf::passes::test
