#include "evaluator/dialect/ast.h"

namespace pf::dialect {
namespace {

struct OperatorNames {
  const char* name;
  const char* symbol;
};

OperatorNames names_of(Operator op) {
  switch (op) {
    case Operator::add:
      return {"add", "+"};
    case Operator::sub:
      return {"sub", "-"};
    case Operator::mul:
      return {"mul", "*"};
    case Operator::truediv:
      return {"truediv", "/"};
    case Operator::floordiv:
      return {"floordiv", "//"};
    case Operator::mod:
      return {"mod", "%"};
    case Operator::pow:
      return {"pow", "**"};
    case Operator::matmul:
      return {"matmul", "@"};
    case Operator::lshift:
      return {"lshift", "<<"};
    case Operator::rshift:
      return {"rshift", ">>"};
    case Operator::and_:
      return {"and_", "&"};
    case Operator::or_:
      return {"or_", "|"};
    case Operator::xor_:
      return {"xor", "^"};
    case Operator::neg:
      return {"neg", "-"};
    case Operator::pos:
      return {"pos", "+"};
    case Operator::invert:
      return {"invert", "~"};
    case Operator::not_:
      return {"not_", "not"};
    case Operator::lt:
      return {"lt", "<"};
    case Operator::le:
      return {"le", "<="};
    case Operator::gt:
      return {"gt", ">"};
    case Operator::ge:
      return {"ge", ">="};
    case Operator::eq:
      return {"eq", "=="};
    case Operator::ne:
      return {"ne", "!="};
    case Operator::in:
      return {"contains", "in"};
    case Operator::not_in:
      return {"not_in", "not in"};
    case Operator::is:
      return {"is_", "is"};
    case Operator::is_not:
      return {"is_not", "is not"};
    case Operator::bool_and:
      return {"and", "and"};
    case Operator::bool_or:
      return {"or", "or"};
  }
  return {"?", "?"};
}

}  // namespace

const char* operator_name(Operator op) {
  return names_of(op).name;
}
const char* operator_symbol(Operator op) {
  return names_of(op).symbol;
}

std::string describe_expr(const Expr& e) {
  switch (e.kind) {
    case Expr::Kind::name:
      return "name '" + e.text + "'";
    case Expr::Kind::attribute:
      return "attribute '" + e.text + "'";
    case Expr::Kind::call: {
      const Expr& callee = e.children[0];
      if (callee.kind == Expr::Kind::name || callee.kind == Expr::Kind::attribute) {
        return "a call to '" + callee.text + "'";
      }
      return "a call";
    }
    case Expr::Kind::subscript:
      return "a subscript";
    case Expr::Kind::slice:
      return "a slice";
    case Expr::Kind::integer:
    case Expr::Kind::real:
      return "a number";
    case Expr::Kind::string:
      return "a string";
    case Expr::Kind::boolean:
      return e.bool_value ? "True" : "False";
    case Expr::Kind::none:
      return "None";
    case Expr::Kind::ellipsis:
      return "'...'";
    case Expr::Kind::tuple:
      return "a tuple";
    case Expr::Kind::list:
      return "a list";
    case Expr::Kind::unary:
      return std::string("unary '") + operator_symbol(e.op) + "'";
    case Expr::Kind::binary:
      return std::string("operator '") + operator_symbol(e.op) + "'";
    case Expr::Kind::compare:
      return std::string("comparison '") + operator_symbol(e.compare_ops.at(0)) + "'";
    case Expr::Kind::bool_op:
      return std::string("'") + operator_symbol(e.op) + "'";
    case Expr::Kind::conditional:
      return "a conditional expression ('a if c else b')";
    case Expr::Kind::unsupported:
      return "'" + e.text + "'";
  }
  return "an expression";
}

}  // namespace pf::dialect
