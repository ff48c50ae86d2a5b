// NumPy .npy files (format 1.0/2.0, little-endian, C order) so inputs and
// outputs can be exchanged with other tools. bfloat16 has no NumPy dtype: it
// is written as float32 (exact) and read back from float32.
#pragma once

#include <filesystem>

#include "common/result.h"
#include "evaluator/core/tensor.h"

namespace pf {

Status write_npy(const std::filesystem::path& path, const Tensor& tensor);
//! Reads an .npy file; the result has the file's dtype and shape.
Result<Tensor> read_npy(const std::filesystem::path& path);

}  // namespace pf
