// Shared machinery of the layout, indexing and numeric op families (views,
// concat/split, indexing, linear algebra, normalisation, conv, pooling,
// interpolation): parameter shorthands, view geometry with PyTorch's stride
// rules, exact strided copies and per-dimension index maps.
//
// Geometry functions work on plain shapes/strides/offsets so a device
// executor can reuse them to build views of its own tensors.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "evaluator/core/shape.h"
#include "evaluator/core/tensor.h"
#include "evaluator/ops/op_info.h"

namespace pf::layout {

// --- parameter shorthands (default nullopt = required) ---------------------
ParamDef param_tensor(std::string name);
ParamDef param_opt_tensor(std::string name);  // defaults to None
ParamDef param_tensors(std::string name, bool varargs = false);
ParamDef param_int(std::string name, std::optional<int64_t> def = std::nullopt);
ParamDef param_opt_int(std::string name);  // defaults to None
ParamDef param_ints(std::string name, std::optional<std::vector<int64_t>> def = std::nullopt,
                    bool varargs = false);
ParamDef param_opt_ints(std::string name);  // defaults to None
ParamDef param_real(std::string name, std::optional<double> def = std::nullopt);
ParamDef param_opt_real(std::string name);  // defaults to None
ParamDef param_bool(std::string name, std::optional<bool> def = std::nullopt);
ParamDef param_string(std::string name, std::optional<std::string> def = std::nullopt);
ParamDef param_opt_string(std::string name);  // defaults to None
//! Accepted for PyTorch compatibility and dropped (memory_format=, sparse=, ...).
ParamDef param_ignored(std::string name, Arg def = Arg::make_none());

// --- argument helpers -------------------------------------------------------
//! Reads an integer dim parameter and wraps it into [0, rank).
Result<int64_t> dim_arg(const ArgReader& a, size_t i, int64_t rank);
//! Wraps every entry of `dims` into [0, rank) and rejects repeats.
Result<std::vector<int64_t>> wrap_dims(const ArgReader& a, size_t i,
                                       const std::vector<int64_t>& dims, int64_t rank);
//! An int or a list of n ints (`kernel_size=3` or `(3, 3)`), as n ints.
Result<std::vector<int64_t>> ints_n(const ArgReader& a, size_t i, size_t n);
//! Like ints_n, but None or an empty list gives `fallback` (pooling strides).
Result<std::vector<int64_t>> ints_n_or(const ArgReader& a, size_t i, size_t n,
                                       const std::vector<int64_t>& fallback);
//! Fails unless t is floating; names the op and parameter.
Status require_floating(const ArgReader& a, size_t i, DType t);
//! Fails unless both dtypes are equal (linear algebra and conv do not promote).
Status require_same_dtype(const ArgReader& a, size_t i, DType expected, DType got);
//! An OpInfo error not tied to one parameter ("conv2d: ...").
Error op_error(const ArgReader& a, const std::string& message);

//! One spelling for code templated on TensorType (inference) and Tensor (CPU).
inline const Shape& shape_of(const TensorType& t) { return t.shape; }
inline const Shape& shape_of(const Tensor& t) { return t.shape(); }
inline DType dtype_of(const TensorType& t) { return t.dtype; }
inline DType dtype_of(const Tensor& t) { return t.dtype(); }

// --- view geometry ------------------------------------------------------------
struct Geometry {
  Shape shape;
  Strides strides;
  int64_t offset = 0;
};

Geometry geometry_of(const Tensor& t);
//! The geometry of a fresh contiguous tensor of `shape`.
Geometry contiguous_geometry(const Shape& shape);
Tensor view_with(const Tensor& base, const Geometry& g);

//! PyTorch's computeStride: strides that view (shape, strides) as new_shape
//! without copying, or nullopt when the existing layout does not allow it.
std::optional<Strides> view_strides(const Shape& shape, const Strides& strides,
                                    const Shape& new_shape);
//! Resolves a requested shape with at most one -1 against numel; errors read
//! like PyTorch's ("shape '[2, 5]' is invalid for input of size 12").
Result<Shape> resolve_shape(const ArgReader& a, size_t i, const std::vector<int64_t>& size,
                            int64_t numel);
//! A broadcast view of t with `shape` (right-aligned, stride 0 where t has
//! size 1 or lacks the dim). The shapes must broadcast (callers check).
Tensor broadcast_view(const Tensor& t, const Shape& shape);
//! reshape semantics: a view when the strides allow it, else a contiguous copy.
Tensor reshape_tensor(const Tensor& t, const Shape& shape);

//! The output geometry of a view op from its input's geometry and arguments.
//! Type inference runs it on a contiguous geometry, the CPU on the real one,
//! so shape rule and view semantics cannot drift apart.
using GeometryFn = std::function<Result<Geometry>(const Geometry&, const ArgReader&)>;
using GeometryListFn =
    std::function<Result<std::vector<Geometry>>(const Geometry&, const ArgReader&)>;
//! A view op on its first parameter (a tensor); output dtype = input dtype.
OpInfo view_op(std::string name, std::vector<std::string> aliases, std::vector<ParamDef> params,
               GeometryFn fn, std::string doc);
//! A `returns_list` view op whose elements are views of the first parameter.
OpInfo list_view_op(std::string name, std::vector<std::string> aliases,
                    std::vector<ParamDef> params, GeometryListFn fn, std::string doc);

// --- exact copies ---------------------------------------------------------------
//! Copies src into dst element by element (same shapes; dst may be a strided
//! view). Same dtypes copy bytes; otherwise values convert as `Tensor::to`
//! does (integers stay exact through int64).
void copy_strided(const Tensor& src, Tensor& dst);
//! A fresh contiguous copy of t in dtype.
Tensor materialize(const Tensor& t, DType dtype);
//! Fills every element of t (a possibly strided view) with v rounded to its dtype.
void fill(Tensor& t, double v);

//! Selects along `dim` by an index map: output[..., j, ...] = t[..., index[j], ...],
//! or `fill` where index[j] < 0. The output is a fresh contiguous tensor of
//! t's dtype. Indices must be in range (callers validate user data).
Tensor take_along(const Tensor& t, int64_t dim, const std::vector<int64_t>& index, double fill);

//! The elements of an integer index tensor as int64 values (exact).
std::vector<int64_t> read_indices(const Tensor& t);
//! All elements row-major as double (fast for strided views too).
std::vector<double> read_doubles(const Tensor& t);

}  // namespace pf::layout
