#include "sandbox/nvrtc/kernel_signatures.h"

#include <algorithm>
#include <set>

namespace pf::nvrtc {
namespace {

using cuda::ParamKind;

const std::set<std::string> kQualifiers = {"const",    "volatile", "__restrict__",     "__restrict",
                                           "restrict", "register", "__grid_constant__"};
const std::set<std::string> kSignedInts = {"char",    "short",    "int",     "long",    "signed",
                                           "int8_t",  "int16_t",  "int32_t", "int64_t", "ptrdiff_t",
                                           "ssize_t", "intptr_t", "__int64", "longlong"};
const std::set<std::string> kUnsignedInts = {"unsigned", "bool",      "size_t",
                                             "uint8_t",  "uint16_t",  "uint32_t",
                                             "uint64_t", "uintptr_t", "uint"};
const std::set<std::string> kFloats = {"float", "double"};
// Types with a known non-scalar representation (cannot be passed from a launch).
const std::set<std::string> kOther = {
    "__half", "half",   "__nv_bfloat16", "nv_bfloat16", "__half2", "half2", "__nv_bfloat162",
    "float2", "float3", "float4",        "double2",     "int2",    "int3",  "int4",
    "uint2",  "uint4",  "dim3",          "struct",      "class",   "union"};
// Keywords that combine into one builtin type ("unsigned long long").
const std::set<std::string> kBuiltinTypeKeywords = {"signed", "unsigned", "short", "long",
                                                    "int",    "char",     "double", "float", "bool"};
// Attribute-like keywords followed by a parenthesised argument list.
const std::set<std::string> kAttributeCalls = {"__launch_bounds__", "__cluster_dims__",
                                               "__maxnreg__", "__attribute__", "__declspec"};

DeclaredParam classify(const std::vector<const Token*>& toks) {
  DeclaredParam p;
  std::vector<std::string> words;
  bool pointer = false;
  for (const Token* t : toks) {
    if (t->text == "*" || t->text == "&" || t->text == "[") pointer = true;
    if (t->kind == TokenKind::identifier) words.push_back(t->text);
  }
  // With two or more type-or-name words, the last one names the parameter
  // ("int half", "const float x"), unless all of them are the keywords that
  // build multi-word builtin types ("unsigned long long" is unnamed).
  std::vector<std::string> plain;
  for (const auto& w : words) {
    if (!kQualifiers.count(w)) plain.push_back(w);
  }
  if (plain.size() >= 2) {
    bool builtin_type = std::all_of(plain.begin(), plain.end(), [](const std::string& w) {
      return kBuiltinTypeKeywords.count(w) > 0;
    });
    if (!builtin_type) p.name = plain.back();
  }
  for (const Token* t : toks) {
    if (!p.name.empty() && t == toks.back() && t->text == p.name) break;
    if (!p.type.empty() && t->text != "*" && t->text != "&") p.type += ' ';
    p.type += t->text;
  }
  if (pointer) {
    p.kind = ParamKind::pointer;
    return p;
  }
  bool any_int = false, any_unsigned = false, any_float = false, any_other = false,
       any_unknown = false;
  for (const auto& w : words) {
    if (w == p.name || kQualifiers.count(w)) continue;
    if (kUnsignedInts.count(w))
      any_unsigned = any_int = true;
    else if (kSignedInts.count(w))
      any_int = true;
    else if (kFloats.count(w))
      any_float = true;
    else if (kOther.count(w))
      any_other = true;
    else
      any_unknown = true;  // a typedef, a template, a user struct: size only
  }
  if (any_unknown)
    p.kind = ParamKind::unknown;
  else if (any_other)
    p.kind = ParamKind::other;
  else if (any_float && !any_int)
    p.kind = ParamKind::floating;
  else if (any_int && !any_float)
    p.kind = ParamKind::integer;
  p.is_unsigned = p.kind == ParamKind::integer && any_unsigned;
  return p;
}

// Skips a balanced (...) group starting at t[i] == "("; returns the index after it.
size_t skip_group(const std::vector<Token>& t, size_t i) {
  int depth = 0;
  for (; i < t.size(); ++i) {
    if (t[i].text == "(") ++depth;
    if (t[i].text == ")" && --depth == 0) return i + 1;
  }
  return t.size();
}

}  // namespace

std::map<std::string, std::vector<DeclaredParam>> find_kernel_declarations(
    const std::vector<Token>& all) {
  std::vector<Token> t;
  for (const auto& tok : all) {
    if (!tok.in_directive) t.push_back(tok);
  }
  std::map<std::string, std::vector<DeclaredParam>> out;
  std::set<std::string> with_body;
  for (size_t g = 0; g < t.size(); ++g) {
    if (t[g].text != "__global__") continue;
    // The kernel's name is the identifier before the first '(' that is not an
    // attribute's argument list.
    size_t i = g + 1;
    while (i < t.size() && t[i].text != "(" && t[i].text != ";" && t[i].text != "{") {
      if (kAttributeCalls.count(t[i].text) && i + 1 < t.size() && t[i + 1].text == "(") {
        i = skip_group(t, i + 1);
        continue;
      }
      ++i;
    }
    if (i >= t.size() || t[i].text != "(" || t[i - 1].kind != TokenKind::identifier) continue;
    const std::string name = t[i - 1].text;
    std::vector<DeclaredParam> params;
    std::vector<const Token*> current;
    int depth = 0;
    size_t j = i + 1;
    for (; j < t.size(); ++j) {
      const std::string& x = t[j].text;
      if ((x == "(" || x == "<" || x == "[")) ++depth;
      if ((x == ")" || x == ">" || x == "]") && depth > 0) {
        --depth;
        current.push_back(&t[j]);
        continue;
      }
      if (x == ")" && depth == 0) break;
      if (x == "," && depth == 0) {
        params.push_back(classify(current));
        current.clear();
        continue;
      }
      current.push_back(&t[j]);
    }
    if (j >= t.size()) continue;
    if (!current.empty()) params.push_back(classify(current));
    if (params.size() == 1 && params[0].type == "void" && params[0].name.empty()) params.clear();
    // A definition wins over declarations: find '{' before the next ';'.
    bool body = false;
    for (size_t k = j + 1; k < t.size() && t[k].text != ";"; ++k) {
      if (t[k].text == "{") {
        body = true;
        break;
      }
    }
    if (body || !with_body.count(name)) out[name] = std::move(params);
    if (body) with_body.insert(name);
  }
  return out;
}

void apply_declaration(const std::vector<DeclaredParam>& declared,
                       std::vector<cuda::KernelParam>& params) {
  if (declared.size() != params.size()) return;
  for (size_t i = 0; i < params.size(); ++i) {
    params[i].name = declared[i].name;
    params[i].type = declared[i].type;
    params[i].kind = declared[i].kind;
    params[i].is_unsigned = declared[i].is_unsigned;
    // A declared kind that contradicts the compiled size is not trusted.
    if (params[i].kind == ParamKind::pointer && params[i].size != 8)
      params[i].kind = ParamKind::unknown;
    if (params[i].kind == ParamKind::floating && params[i].size != 4 && params[i].size != 8) {
      params[i].kind = ParamKind::unknown;
    }
  }
}

}  // namespace pf::nvrtc
