// The parameter structs of the baseline kernels, shared verbatim by the host
// (evaluator/gpu/*.cpp include this file) and the device (every NVRTC program
// gets it prepended), so both sides agree on every byte. Plain C++ only:
// fixed-size arrays, no pointers (device addresses travel as 64-bit integers),
// types whose sizes are the same on x86-64 Linux and in CUDA device code.
// KernelLibrary checks each kernel's parameter size against sizeof on load.
#pragma once

#define PF_MAX_DIMS 8
#define PF_MAX_OPERANDS 4  // the output and up to three inputs
#define PF_EW_THREADS 128  // elementwise block size (PyTorch's num_threads())
#define PF_EW_STRIDED_WORK 4  // elements per thread in the strided path

// DType tags: the values of pf::DType (evaluator/core/dtype.h).
#define PF_TAG_BOOL 0
#define PF_TAG_UINT8 1
#define PF_TAG_INT8 2
#define PF_TAG_INT16 3
#define PF_TAG_INT32 4
#define PF_TAG_INT64 5
#define PF_TAG_FLOAT16 6
#define PF_TAG_BFLOAT16 7
#define PF_TAG_FLOAT32 8
#define PF_TAG_FLOAT64 9

// Division by a fixed divisor through a multiply and a shift (PyTorch's
// IntDivider), valid for dividends below 2^31.
struct PfDivider {
  unsigned int divisor;
  unsigned int magic;
  unsigned int shift;
};

// Maps a linear (row-major) index to a byte offset per operand. Dims are
// stored innermost first; strides are in bytes.
struct PfOffsetCalc {
  int dims;
  PfDivider sizes[PF_MAX_DIMS];
  unsigned int strides[PF_MAX_DIMS][PF_MAX_OPERANDS];
};

// Operand kinds of an elementwise launch.
#define PF_OPERAND_TENSOR 0
#define PF_OPERAND_LITERAL 1

// One elementwise launch: out[i] = op(in0[i], in1[i], in2[i]) with inputs that
// are tensors (any dtype, converted on load) or literals, op scalars in s/si.
struct PfElementwiseParams {
  unsigned long long out;
  unsigned long long in[3];
  long long n;
  int in_dtype[3];
  int in_kind[3];
  double lit[3];        // literal operands for floating compute
  long long lit_i[3];   // literal operands for integer and bool compute
  double s[4];          // op parameters (alpha, slopes, bounds...) for floating compute
  long long si[4];      // the same for integer compute
  PfOffsetCalc oc;      // operand 0 is the output
};

// Dtype conversion / strided copy: out (contiguous, the program's dtype) from
// in (any dtype, any strides).
struct PfCopyParams {
  unsigned long long out;
  unsigned long long in;
  long long n;
  int in_dtype;
  int pad_;
  PfOffsetCalc oc;  // operand 0: out, operand 1: in
};

// Creation kernels: fill, arange, linspace, eye, triu/tril.
struct PfFillParams {
  unsigned long long out;
  unsigned long long in;  // triu/tril input
  long long n;
  double value;       // fill value / start
  double step;        // arange step; linspace step
  long long value_i;  // integer fill value / start
  long long step_i;
  long long rows;     // eye / triangular: matrix rows
  long long cols;     // eye / triangular: matrix cols
  long long diagonal;
  long long half_n;   // linspace: the index from which values count back from `end`
  double end;         // linspace end
  int in_dtype;
  int pad_;
  PfOffsetCalc oc;    // triangular: operand 1 is the input
};

// Reduction thread layouts (PfReduceParams::layout; chosen by reduce_plan.cpp).
#define PF_REDUCE_INNER 1   // threads along x share one output's row
#define PF_REDUCE_OUTER 0   // x: consecutive outputs, y: splits the reduction
#define PF_REDUCE_SERIAL 2  // one thread folds whole reductions of out_vec outputs
#define PF_REDUCE_OUT_VEC 4 // outputs per thread of a vectorised serial reduction

// A reduction: outputs indexed by o in [0, n_out), each folding n_red inputs.
// Input element (o, r) lives at in + out_calc(o)[1] + red_calc(r)[1]; the
// output of o at out + out_calc(o)[0] (and indices + out_calc(o)[2] for the
// index outputs of max/min with dim). See reduce.cu for the block layout.
struct PfReduceParams {
  unsigned long long in;
  unsigned long long out;
  unsigned long long out_index;  // int64 indices (max_dim/argmax); 0 when unused
  unsigned long long scratch;    // per-output partials when a reduction spans blocks
  unsigned long long semaphores; // one counter per output block column; self-resetting
  unsigned long long aux;        // per-output values read by the fold (logsumexp: the max)
  long long n_out;
  long long n_red;
  int out_dtype;
  int aux_dtype;
  int vectorize;       // 1: inner reduction over contiguous, aligned rows of n_red
  int layout;          // PF_REDUCE_INNER / _OUTER / _SERIAL: thread layout (reduce.cuh)
  int out_vec;         // serial layout: consecutive outputs per thread (1 or PF_REDUCE_OUT_VEC)
  int out_elem_bytes;  // the output's element size (outputs are contiguous)
  int blocks_per_output;  // grid.y: > 1 when one output is reduced by several blocks
  int red_per_block;   // reduction elements one block column covers
  int flags;           // op modes (see reduce.cu / reduce_float.cu)
  double factor;       // mean: 1/n; var: 1/(n - correction)
  double p;            // norm order
  PfOffsetCalc out_calc;  // operand 0: out (bytes), 1: in, 2: out_index
  PfOffsetCalc red_calc;  // operand 1: in
};

// softmax / log_softmax over rows of `dim_size` contiguous elements
// (inner == 1) or over a strided dim ([outer, dim_size, inner], inner > 1).
struct PfSoftmaxParams {
  unsigned long long in;
  unsigned long long out;
  long long outer;
  long long dim_size;
  long long inner;
  int out_dtype;
  int log;      // 1: log_softmax
  int cached;   // pf_softmax_block: the row is cached in dynamic shared memory
  int pad_;
};

// Normalisation kernels (norm.cu). Field use per kernel:
//   pf_layer_norm: rows x cols (contiguous rows), weight/bias over cols, rms.
//   pf_norm_moments: stat group g holds `chunks` chunks of chunk_len elements,
//     chunk_stride apart, starting at g * chunk_len; writes mean and rstd
//     (1 / sqrt(var + eps)) per group into `mean` / `rstd` (stats_dtype).
//   pf_norm_transform: x contiguous [n, channels, inner]; y = (x - mean[s]) *
//     rstd[s] * weight[c] + bias[c] with s = per_sample ? n_i * groups +
//     c / (channels / groups) : c; `running`: mean/rstd hold running mean and
//     variance and rstd = 1 / sqrt(var + eps).
struct PfNormParams {
  unsigned long long in;
  unsigned long long out;
  unsigned long long weight;  // 0 when absent
  unsigned long long bias;    // 0 when absent
  unsigned long long mean;
  unsigned long long rstd;
  long long rows;
  long long cols;
  long long chunks;
  long long chunk_len;
  long long chunk_stride;
  long long numel;
  long long channels;
  long long groups;
  PfDivider inner_div;     // transform: divides by inner
  PfDivider channels_div;  // transform: divides by channels
  int weight_dtype;
  int bias_dtype;
  int mean_dtype;
  int rstd_dtype;
  int rms;
  int per_sample;
  int running;
  int vectorize;  // pf_layer_norm: rows are 16-byte aligned
  double eps;
};
