#include "evaluator/dialect/parser.h"

#include <gtest/gtest.h>

#include "evaluator/dialect/module_access.h"

namespace pf::dialect {
namespace {

Module parse_ok(std::string_view src) {
  auto r = parse_module(src, "m.py");
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? *r : Module{};
}

std::string parse_error(std::string_view src) {
  auto r = parse_module(src, "model.py");
  return r.ok() ? "(no error)" : r.error().message;
}

// A compact rendering of an expression tree, to check structure and precedence.
std::string sexpr(const Expr& e) {
  auto kids = [&](size_t from) {
    std::string out;
    for (size_t k = from; k < e.children.size(); ++k) out += " " + sexpr(e.children[k]);
    return out;
  };
  switch (e.kind) {
    case Expr::Kind::name:
      return e.text;
    case Expr::Kind::attribute:
      return "(. " + sexpr(e.children[0]) + " " + e.text + ")";
    case Expr::Kind::call: {
      std::string out = "(call" + kids(0);
      for (const auto& k : e.keywords) out += " " + k.name + "=" + sexpr(k.value);
      return out + ")";
    }
    case Expr::Kind::subscript:
      return "([]" + kids(0) + ")";
    case Expr::Kind::slice:
      return "(:" + kids(0) + ")";
    case Expr::Kind::integer:
      return std::to_string(e.int_value);
    case Expr::Kind::real:
      return "r" + std::to_string(e.real_value);
    case Expr::Kind::string:
      return "'" + e.text + "'";
    case Expr::Kind::boolean:
      return e.bool_value ? "True" : "False";
    case Expr::Kind::none:
      return "None";
    case Expr::Kind::ellipsis:
      return "...";
    case Expr::Kind::tuple:
      return "(tuple" + kids(0) + ")";
    case Expr::Kind::list:
      return "(list" + kids(0) + ")";
    case Expr::Kind::unary:
    case Expr::Kind::binary:
    case Expr::Kind::bool_op:
      return std::string("(") + operator_symbol(e.op) + kids(0) + ")";
    case Expr::Kind::compare: {
      std::string out = "(cmp " + sexpr(e.children[0]);
      for (size_t k = 0; k < e.compare_ops.size(); ++k) {
        out +=
            std::string(" ") + operator_symbol(e.compare_ops[k]) + " " + sexpr(e.children[k + 1]);
      }
      return out + ")";
    }
    case Expr::Kind::conditional:
      return "(if" + kids(0) + ")";
    case Expr::Kind::unsupported:
      return "(unsupported " + e.text + kids(0) + ")";
  }
  return "?";
}

std::string expr(std::string_view src) {
  auto r = parse_expression(src, "e.py");
  return r.ok() ? sexpr(*r) : "error: " + r.error().message;
}

TEST(Parser, DynamoModelFile) {
  Module m = parse_ok(
      "import torch\nfrom torch import device\n\n\nclass GraphModule(torch.nn.Module):\n"
      "    def forward(self, in_0, w_0):\n"
      "        tmp_0 = torch._C._nn.linear(in_0, w_0, None)\n"
      "        tmp_1 = tmp_0 = None\n"
      "        return (tmp_1,)");
  ASSERT_EQ(m.imports.size(), 2u);
  EXPECT_EQ(m.imports[0].module, "torch");
  EXPECT_EQ(m.imports[1].module, "torch");
  EXPECT_EQ(m.imports[1].name, "device");
  ASSERT_EQ(m.classes.size(), 1u);
  EXPECT_EQ(sexpr(m.classes[0].bases[0]), "(. (. torch nn) Module)");
  auto fwd = find_forward(m);
  ASSERT_TRUE(fwd.ok());
  const FunctionDef& f = **fwd;
  EXPECT_EQ(f.class_name, "GraphModule");
  ASSERT_EQ(f.params.size(), 3u);
  EXPECT_EQ(f.params[2].name, "w_0");
  ASSERT_EQ(f.body.size(), 3u);
  EXPECT_EQ(f.body[0].kind, Stmt::Kind::assign);
  EXPECT_EQ(sexpr(f.body[0].value), "(call (. (. (. torch _C) _nn) linear) in_0 w_0 None)");
  EXPECT_EQ(f.body[1].targets.size(), 2u);  // chained
  EXPECT_EQ(f.body[2].kind, Stmt::Kind::return_stmt);
  EXPECT_EQ(sexpr(f.body[2].value), "(tuple tmp_1)");
  EXPECT_EQ(f.body[0].loc.line, 7);
  EXPECT_EQ(f.body[0].loc.column, 9);
}

TEST(Parser, WeightMetaClassesWithTabs) {
  Module m = parse_ok(
      "class Program_weight_tensor_meta_in_0:\n\tname = \"in_0\"\n\tshape = [1, 196, 432]\n"
      "\tdtype = \"torch.float32\"\n\tmean = -0.000\n\tstd = 8.898e-04\n\tdata = None\n\n\n"
      "class Program_weight_tensor_meta_w_0:\n\tname = \"w_0\"\n\tshape = []\n");
  ASSERT_EQ(m.classes.size(), 2u);
  const ClassDef& c = m.classes[0];
  ASSERT_EQ(c.attributes.size(), 6u);
  EXPECT_EQ(c.attributes[1].name, "shape");
  EXPECT_EQ(sexpr(c.attributes[1].value), "(list 1 196 432)");
  EXPECT_EQ(sexpr(c.attributes[3].value), "(- r0.000000)");
  EXPECT_EQ(c.attributes[4].loc.line, 6);
  EXPECT_EQ(c.attributes[4].loc.column, 2);
}

TEST(Parser, Precedence) {
  EXPECT_EQ(expr("a + b * c ** -d"), "(+ a (* b (** c (- d))))");
  EXPECT_EQ(expr("-a ** 2"), "(- (** a 2))");
  EXPECT_EQ(expr("a @ b / c // d % e - f"), "(- (% (// (/ (@ a b) c) d) e) f)");
  EXPECT_EQ(expr("a < b == c"), "(cmp a < b == c)");
  EXPECT_EQ(expr("not a and b or c"), "(or (and (not a) b) c)");
  EXPECT_EQ(expr("a | b ^ c & d << 1"), "(| a (^ b (& c (<< d 1))))");
  EXPECT_EQ(expr("~a if a is not None else b"), "(if (~ a) (cmp a is not None) b)");
  EXPECT_EQ(expr("x not in y"), "(cmp x not in y)");
  EXPECT_EQ(expr("2 ** 3 ** 2"), "(** 2 (** 3 2))");
  EXPECT_EQ(expr("-9223372036854775808"), "-9223372036854775808");  // int64 min is one literal
}

TEST(Parser, CallsAttributesSubscripts) {
  EXPECT_EQ(expr("torch.cat((a, b), dim=1)"), "(call (. torch cat) (tuple a b) dim=1)");
  EXPECT_EQ(expr("x.view(2, -1).relu()"), "(call (. (call (. x view) 2 (- 1)) relu))");
  EXPECT_EQ(expr("x[0]"), "([] x 0)");
  EXPECT_EQ(expr("x[:, 1:, None, ..., ::2]"),
            "([] x (tuple (: None None None) (: 1 None None) None ... (: None None 2)))");
  EXPECT_EQ(expr("x[0,]"), "([] x (tuple 0))");
  EXPECT_EQ(expr("x[slice(None, 1, None)]"), "([] x (call slice None 1 None))");
  EXPECT_EQ(expr("x[a + 1:-1]"), "([] x (: (+ a 1) (- 1) None))");
  EXPECT_EQ(expr("f(\n  a,\n  b,\n)"), "(call f a b)");
  EXPECT_EQ(expr("'a' \"b\""), "'ab'");
  EXPECT_EQ(expr("()"), "(tuple)");
  EXPECT_EQ(expr("[1, (2,), []]"), "(list 1 (tuple 2) (list))");
  EXPECT_EQ(expr("lambda x: x + 1"), "(unsupported lambda (+ x 1))");
}

TEST(Parser, Statements) {
  Module m = parse_ok(
      "def f(x, y: int = 2) -> int:\n"
      "    '''doc'''\n"
      "    a, b = x.split(2)\n"
      "    a += 1; b *= 2\n"
      "    n: int = 3\n"
      "    if a > 1:\n        pass\n    elif b:\n        return a\n    else:\n        x = y\n"
      "    return\n");
  const FunctionDef& f = m.functions.at(0);
  ASSERT_EQ(f.params.size(), 2u);
  EXPECT_TRUE(f.params[1].annotation.has_value());
  EXPECT_EQ(sexpr(*f.params[1].default_value), "2");
  EXPECT_EQ(sexpr(*f.returns), "int");
  ASSERT_EQ(f.body.size(), 7u);
  EXPECT_EQ(f.body[0].kind, Stmt::Kind::expression);
  EXPECT_EQ(sexpr(f.body[1].targets[0]), "(tuple a b)");
  EXPECT_EQ(f.body[2].kind, Stmt::Kind::aug_assign);
  EXPECT_EQ(f.body[2].op, Operator::add);
  EXPECT_EQ(f.body[3].op, Operator::mul);
  EXPECT_EQ(f.body[4].kind, Stmt::Kind::assign);
  const Stmt& s = f.body[5];
  EXPECT_EQ(s.kind, Stmt::Kind::if_stmt);
  ASSERT_EQ(s.branches.size(), 2u);
  EXPECT_EQ(s.branches[1].body[0].kind, Stmt::Kind::return_stmt);
  ASSERT_EQ(s.orelse.size(), 1u);
  EXPECT_FALSE(f.body[6].has_value);
}

TEST(Parser, UnsupportedStatementsAreNodesNotFailures) {
  Module m = parse_ok(
      "def f(x):\n"
      "    for i in range(3):\n        x = x + i\n    else:\n        pass\n"
      "    while x:\n        break\n"
      "    with torch.no_grad():\n        y = x\n"
      "    try:\n        y = x\n    except Exception:\n        pass\n    finally:\n        pass\n"
      "    import os\n    global g\n    del x\n    assert x, 'm'\n    raise ValueError('no')\n"
      "    def inner(a):\n        return a\n"
      "    @dec\n    def inner2(a):\n        return a\n"
      "    yield x\n"
      "    return x\n");
  const auto& body = m.functions.at(0).body;
  std::vector<std::string> keywords;
  for (const auto& s : body) {
    if (s.kind == Stmt::Kind::unsupported)
      keywords.push_back(s.keyword + "@" + std::to_string(s.loc.line));
  }
  std::vector<std::string> expected = {"for@2",     "while@6",   "with@8", "try@10",
                                       "import@16", "global@17", "del@18", "assert@19",
                                       "raise@20",  "def@21",    "def@24", "yield@26"};
  EXPECT_EQ(keywords, expected);
  EXPECT_EQ(body.back().kind, Stmt::Kind::return_stmt);
}

TEST(Parser, ModuleLevelHelpers) {
  Module m = parse_ok(
      "import torch.nn.functional as F\nfrom torch.nn import (functional as G, Module)\n"
      "def pattern(x):\n    return F.relu(x)\n\ndef replacement(x):\n    return x\n");
  ASSERT_EQ(m.imports.size(), 3u);
  EXPECT_EQ(m.imports[0].alias, "F");
  EXPECT_EQ(m.imports[1].name, "functional");
  EXPECT_EQ(m.imports[1].alias, "G");
  EXPECT_NE(find_function(m, "pattern"), nullptr);
  auto missing = require_function(m, "patern");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message,
            "m.py: no top-level function 'patern' (defined: pattern, replacement)");
  auto fwd = find_forward(m);
  ASSERT_FALSE(fwd.ok());
  EXPECT_EQ(fwd.error().message, "m.py: no 'forward' function (defined: pattern, replacement)");
}

TEST(Parser, ErrorMessagesNameTheConstruct) {
  EXPECT_EQ(parse_error("def f(x):\n    y = torch.relu(x\n    return y\n"),
            "model.py:3:5: expected ')' to close '(' opened at 2:19, got 'return'");
  EXPECT_EQ(parse_error("def f(x):\n    y = x[1, 2\n"),
            "model.py:3:1: expected ']' to close '[' opened at 2:10, got end of file");
  EXPECT_EQ(parse_error("def f(x):\n    return g(a=1, 2)\n"),
            "model.py:2:19: positional argument follows keyword argument");
  EXPECT_EQ(
      parse_error("def f(x):\n    return g(*x)\n"),
      "model.py:2:14: '*' argument unpacking is not supported in calls; write the arguments out");
  EXPECT_EQ(parse_error("def f(x):\n    return g(a=1, a=2)\n"),
            "model.py:2:19: keyword argument 'a' repeated");
  EXPECT_EQ(parse_error("def f(x):\n    return {1: 2}\n"),
            "model.py:2:12: dict and set literals are not supported");
  EXPECT_EQ(parse_error("def f(x):\n    return [i for i in x]\n"),
            "model.py:2:15: list comprehensions are not supported");
  EXPECT_EQ(parse_error("def f(*args):\n    return 1\n"),
            "model.py:1:7: '*' parameters are not supported; list the parameters by name");
  EXPECT_EQ(parse_error("def f(x, x):\n    return 1\n"), "model.py:1:10: duplicate parameter 'x'");
  EXPECT_EQ(parse_error("def f(x):\nreturn x\n"),
            "model.py:2:1: expected an indented block after 'def' at 1:1");
  EXPECT_EQ(parse_error("def f(x)\n    return x\n"),
            "model.py:1:9: expected ':' after 'def' header, got end of line");
  EXPECT_EQ(parse_error("x = 1\n    y = 2\n"), "model.py:2:5: unexpected indent");
  EXPECT_EQ(parse_error("def f(x):\n    f(x) = 1\n"),
            "model.py:2:5: cannot assign to a function call");
  EXPECT_EQ(parse_error("def f(x):\n    1 = x\n"), "model.py:2:5: cannot assign to a literal");
  EXPECT_EQ(parse_error("def f(x):\n    a, b += 1\n"),
            "model.py:2:10: augmented assignment '+=' needs a single target, not a tuple");
  EXPECT_EQ(parse_error("def f(x):\n    return x +\n"),
            "model.py:2:15: expected an expression, got end of line");
  EXPECT_EQ(parse_error("def f(x):\n    else:\n        pass\n"),
            "model.py:2:5: 'else' without a matching statement before it");
  EXPECT_EQ(parse_error("class A:\n    x += 1\n"),
            "model.py:2:5: unsupported statement in class body (starts with 'x'): a class holds "
            "methods and 'name = value' attributes");
  EXPECT_EQ(parse_error("def f(x):\n    return x if x\n"),
            "model.py:2:18: expected 'else' in conditional expression, got end of line");
}

TEST(Parser, MoreErrorForms) {
  struct Case {
    const char* src;
    const char* message;
  };
  const Case cases[] = {
      {"import\n", "model.py:1:7: expected a module name, got end of line"},
      {"from torch\n", "model.py:1:11: expected 'import', got end of line"},
      {"from torch import (a, b\n",
       "model.py:2:1: expected ')' to close '(' opened at 1:19, got end of file"},
      {"import torch as\n", "model.py:1:16: expected a name after 'as', got end of line"},
      {"@dec\nx = 1\n", "model.py:2:1: expected 'def' after decorators, got 'x'"},
      {"@dec x\ndef f():\n    pass\n",
       "model.py:1:6: expected end of line after decorator, got 'x'"},
      {"def (x):\n    pass\n", "model.py:1:5: expected a function name after 'def', got '('"},
      {"def f:\n    pass\n", "model.py:1:6: expected '(' after the function name, got ':'"},
      {"class A(B:\n    pass\n", "model.py:1:10: expected ')' to close '(' opened at 1:8, got ':'"},
      {"class A\n    pass\n", "model.py:1:8: expected ':' after the class header, got end of line"},
      {"class A: x = 1\n", "model.py:1:10: a one-line class body may only be 'pass'"},
      {"class A:\nx = 1\n",
       "model.py:2:1: expected an indented block after class definition at 1:1"},
      {"x = for\n", "model.py:1:5: unexpected keyword 'for'"},
      {"x = y[]\n", "model.py:1:7: empty subscript '[]'"},
      {"x = f(a for a in b)\n", "model.py:1:9: generator expressions are not supported"},
      {"x = (a for a in b)\n", "model.py:1:8: generator expressions are not supported"},
      {"x = [*a]\n", "model.py:1:6: '*' unpacking is not supported"},
      {"x = lambda a\n", "model.py:1:13: expected ':' after lambda parameters, got end of line"},
      {"x = a.1\n", "model.py:1:6: expected end of line, got number .1"},
      {"x = a.\n", "model.py:1:7: expected an attribute name after '.', got end of line"},
      {"x = (a b)\n", "model.py:1:8: expected ')' to close '(' opened at 1:5, got 'b'"},
      {"x = [a b]\n", "model.py:1:8: expected ']' to close '[' opened at 1:5, got 'b'"},
      {"x = a b\n", "model.py:1:7: expected end of line, got 'b'"},
      {"def f():\n    for x in y\n        pass\n",
       "model.py:2:15: expected ':' to end the 'for' header at 2:5, got end of line"},
      {"def f():\n    while x:\n    pass\n",
       "model.py:3:5: expected an indented block, got 'pass'"},
      {"x = 1 if y\n", "model.py:1:11: expected 'else' in conditional expression, got end of line"},
      {"def f(a, *, b):\n    pass\n",
       "model.py:1:10: '*' parameters are not supported; list the parameters by name"},
      {"def f(a, /):\n    pass\n",
       "model.py:1:10: '/' parameters are not supported; list the parameters by name"},
      {"x = 9223372036854775808\n",
       "model.py:1:5: integer literal '9223372036854775808' does not fit in 64 bits"},
      {"x = f(**k)\n",
       "model.py:1:7: '**' argument unpacking is not supported in calls; write the arguments out"},
  };
  for (const auto& c : cases) EXPECT_EQ(parse_error(c.src), c.message) << c.src;
}

TEST(Parser, DeepNestingIsAnErrorNotACrash) {
  std::string deep =
      "def f(x):\n    return " + std::string(2000, '(') + "x" + std::string(2000, ')') + "\n";
  std::string msg = parse_error(deep);
  EXPECT_NE(msg.find("expression nested too deeply"), std::string::npos) << msg;
  std::string unary = "def f(x):\n    return " + std::string(2000, '-') + "x\n";
  msg = parse_error(unary);
  EXPECT_NE(msg.find("expression nested too deeply"), std::string::npos) << msg;
  // Left-associative chains and trailers deepen the tree without recursion in
  // the parser; they are bounded too, so tree walkers cannot overflow.
  auto repeat = [](const std::string& s, int n) {
    std::string out;
    for (int k = 0; k < n; ++k) out += s;
    return out;
  };
  for (const std::string& body : {"x" + repeat(" + x", 5000), "x" + repeat(".relu()", 5000),
                                  "x" + repeat("[0]", 5000), "2" + repeat(" ** 2", 5000)}) {
    msg = parse_error("def f(x):\n    return " + body + "\n");
    EXPECT_NE(msg.find("expression nested too deeply"), std::string::npos) << msg.substr(0, 200);
  }
  std::string nested_ifs = "def f(x):\n";
  for (int k = 1; k <= 1000; ++k)
    nested_ifs += std::string(static_cast<size_t>(k), ' ') + "if x:\n";
  nested_ifs += std::string(1001, ' ') + "pass\n";
  msg = parse_error(nested_ifs);
  EXPECT_NE(msg.find("expression nested too deeply"), std::string::npos) << msg.substr(0, 200);
  // Reasonable lengths are fine.
  EXPECT_EQ(parse_error("def f(x):\n    return " + ("x" + repeat(" + x", 300)) + "\n"),
            "(no error)");
}

}  // namespace
}  // namespace pf::dialect
