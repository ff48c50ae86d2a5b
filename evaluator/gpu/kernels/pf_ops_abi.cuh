// Parameter structs of the layout, indexing, pooling, interpolation,
// convolution and attention kernels (ops_layout.cpp ... ops_attention.cpp),
// shared verbatim by the host and the device like pf_abi.cuh (which comes
// first in every program and defines PF_MAX_DIMS, PfDivider, PfOffsetCalc).
// Kernel files that use them say `// pf-requires: pf_ops_abi.cuh`; host
// files include pf_abi.cuh before this file.
#pragma once

#ifndef PF_MAX_DIMS
#error "pf_abi.cuh must come before pf_ops_abi.cuh"
#endif

// --- data movement (layout.cu: programs per element width) ------------------

#define PF_CAT_BATCH 64  // inputs per batched cat launch (PyTorch: CAT_ARRAY_BATCH_SIZE)
#define PF_CAT_THREADS 512

// One input of a batched cat, in units of the launch (elements, or 16-byte
// vectors when every input is aligned): its `numel` units are `numel / chunk`
// rows of `chunk` units, and row r goes to out + r * out_row + out_offset.
struct PfCatEntry {
  unsigned long long ptr;
  unsigned int numel;
  unsigned int out_offset;
  PfDivider chunk;
  unsigned int pad_;
};

struct PfCatParams {
  unsigned long long out;
  unsigned int out_row;  // units between consecutive rows of the output
  int count;             // entries used
  PfCatEntry in[PF_CAT_BATCH];
};

// Batched cat over inputs of any non-negative strides (PyTorch's strided
// CatArrayBatchedCopy path), in elements, dims innermost first. Every input
// has the output's sizes except along cat_dim, where cat_size is its own
// length; its element i (row-major over those sizes) goes to
// out + out_offset + sum(coordinate * out_strides) and comes from
// ptr + sum(coordinate * strides). Offsets fit in 32 bits (host checks).
#define PF_CAT_MAX_DIMS 4  // PyTorch: CAT_ARRAY_MAX_INPUT_DIMS

struct PfCatStridedEntry {
  unsigned long long ptr;
  unsigned int numel;
  unsigned int out_offset;
  PfDivider cat_size;
  unsigned int strides[PF_CAT_MAX_DIMS];
  unsigned int pad_;
};

struct PfCatStridedParams {
  unsigned long long out;
  int count;    // entries used
  int dims;     // 1 .. PF_CAT_MAX_DIMS
  int cat_dim;  // innermost first
  int pad_;
  PfDivider sizes[PF_CAT_MAX_DIMS];  // the output's; cat_dim's unused
  unsigned int out_strides[PF_CAT_MAX_DIMS];
  PfCatStridedEntry in[PF_CAT_BATCH];
};

// Per-dim source index maps of pf_remap (output coordinate i, input size n).
#define PF_REMAP_IDENTITY 0  // i
#define PF_REMAP_FLIP 1      // n - 1 - i
#define PF_REMAP_SHIFT 2     // (i - a) mod n            (roll; circular pad with a = lo)
#define PF_REMAP_REFLECT 3   // reflect(i - a)           (reflect pad)
#define PF_REMAP_REPLICATE 4 // clamp(i - a, 0, n - 1)   (replicate pad)
#define PF_REMAP_CONSTANT 5  // i - a inside [0, n), else the fill value

// out (contiguous, n elements) = in at the remapped coordinates. Dims are
// innermost first.
struct PfRemapParams {
  unsigned long long out;
  unsigned long long in;  // the input view's first element
  unsigned long long fill;  // constant mode: the fill value's bit pattern
  long long n;
  int dims;
  int pad_;
  PfDivider out_sizes[PF_MAX_DIMS];
  int in_sizes[PF_MAX_DIMS];
  int modes[PF_MAX_DIMS];
  int shift[PF_MAX_DIMS];
  long long in_strides[PF_MAX_DIMS];  // elements
};

#define PF_INDEX_MAX 3  // index tensors of one pf_index launch

// Gather by up to three index tensors (index_select, gather, embedding,
// advanced getitem): out[o] (contiguous) = src[base(o) + sum_k idx_k(o) *
// strides[k]], base and the index elements through the offset calculator
// (operand 0: src without the indexed dims, operand k + 1: index k; bytes).
// An index outside [-size, size) (or [0, size) without wrap) gives zero.
// pf_index_rows (one index tensor constant along out's last dim, rows of a
// multiple of 16 bytes, aligned): n counts 16-byte chunks, row_chunks divides
// a chunk number into (out row, chunk), and the offset calculator runs over
// out's shape without its last dim.
struct PfIndexParams {
  unsigned long long out;
  unsigned long long src;
  unsigned long long index[PF_INDEX_MAX];
  long long n;
  long long sizes[PF_INDEX_MAX];
  long long strides[PF_INDEX_MAX];  // src elements per index step
  int index_dtype[PF_INDEX_MAX];
  int count;
  int wrap;  // negative indices count from the end (getitem)
  PfDivider row_chunks;
  int pad_;
  PfOffsetCalc oc;
};

// --- scatter (scatter.cu) ----------------------------------------------------------

#define PF_SCATTER_ASSIGN 0
#define PF_SCATTER_ADD 1
#define PF_SCATTER_MULTIPLY 2

// For each index element e (iterated through the offset calculator over the
// index shape: operand 0: out without dim, 1: index, 2: src; bytes):
// out[base(e) + idx(e) * dim_stride] (op)= src(e) or the scalar value.
struct PfScatterParams {
  unsigned long long out;
  unsigned long long src;  // 0: the scalar value
  unsigned long long index;
  long long n;
  long long dim_size;
  long long dim_stride;  // out elements
  double value;
  long long value_i;
  int index_dtype;
  int src_dtype;
  int reduce;
  int pad_;
  PfOffsetCalc oc;
};

// --- pooling (pool.cu) ----------------------------------------------------------------

// Windowed and adaptive pooling over contiguous [planes, d, h, w] (2-d
// pooling has d = 1, 1-d also h = 1). Per spatial dim s: kernel k, stride,
// padding, dilation (windowed) or the adaptive rule.
struct PfPoolParams {
  unsigned long long in;
  unsigned long long out;
  unsigned long long indices;  // int64 argmax per output (max pooling); 0: none
  long long planes;
  long long n;                 // outputs
  int in_size[3];
  int out_size[3];
  int k[3];
  int stride[3];
  int pad[3];
  int dil[3];
  int count_include_pad;
  int divisor;                 // avg divisor_override; 0: none
  PfDivider out_div[3];        // out_size[s]
};

// --- interpolation (interpolate.cu) ------------------------------------------------

#define PF_INTERP_NEAREST 0
#define PF_INTERP_NEAREST_EXACT 1
#define PF_INTERP_LINEAR 2
#define PF_INTERP_CUBIC 3

// Resampling of contiguous [planes, d, h, w] (fewer spatial dims as size 1,
// leading). scale[s]: the source scale PyTorch computes on the host
// (area_pixel_compute_scale in opmath; nearest modes in float).
struct PfInterpParams {
  unsigned long long in;
  unsigned long long out;
  long long planes;
  long long n;  // output elements per plane (linear/cubic) or in total (nearest)
  int in_size[3];
  int out_size[3];
  int mode;
  int align_corners;
  double scale[3];
  PfDivider out_div[3];
};

// --- antialiased interpolation (interpolate.cu: pf_upsample_aa) --------------------

// 2 spatial dims (0 = height, 1 = width). Output o of dim d reads inputs
// span[d][2 * o] .. + span[d][2 * o + 1] (int32) with weights
// weights[d][o * max_taps[d] + j] (opmath), tables the host computed.
struct PfInterpAaParams {
  unsigned long long in;
  unsigned long long out;
  unsigned long long span[2];
  unsigned long long weights[2];
  long long planes;
  long long n;  // output positions (OH * OW)
  int in_size[2];
  int out_size[2];
  int max_taps[2];
  PfDivider ow_div;
};

// --- convolution (conv.cu: the fallback / depthwise direct kernels) ---------------

// out[n, oc, od, oh, ow] over contiguous NCDHW input, [C_out, C_in / groups,
// kd, kh, kw] weight (transposed: [C_in, C_out / groups, kd, kh, kw]); 2-d as
// depth 1, 1-d as depth and height 1.
// The row-blocked depthwise kernels (pf_conv_dw_*): outputs of one row per
// thread, and threads per block. They take PfConvParams with ow_div dividing
// by the column blocks per output row, ceil(OW / PF_CONV_DW_COLS).
#define PF_CONV_DW_COLS 4
#define PF_CONV_DW_THREADS 128

struct PfConvParams {
  unsigned long long in;
  unsigned long long weight;
  unsigned long long bias;  // 0: none
  unsigned long long out;
  long long n_out;  // output elements
  int batch;
  int c_in;
  int c_out;
  int groups;
  // Spatial slots (depth, height, width); 2-d leaves depth at size 1.
  int in_size[3];
  int out_size[3];
  int k[3];
  int stride[3];
  int pad[3];
  int dil[3];
  PfDivider ow_div;
  PfDivider oh_div;
  PfDivider od_div;
  PfDivider c_div;
};

// --- unfold / fold (fold.cu) --------------------------------------------------------

// Image [N, C, H, W] and its columns [N, C * kh * kw, OH * OW], both
// contiguous. One thread per (n, c, oh, ow) block position for im2col, per
// image element for col2im.
struct PfFoldParams {
  unsigned long long col;
  unsigned long long im;
  long long n;    // threads
  int size[2];    // H, W
  int blocks[2];  // OH, OW
  int k[2];
  int stride[2];
  int pad[2];
  int dil[2];
  PfDivider w_div;  // im2col: OW; col2im: W
  PfDivider h_div;  // im2col: OH; col2im: H
};

// --- attention (attention.cu) ----------------------------------------------------------

#define PF_ATTN_MASK_NONE 0
#define PF_ATTN_MASK_BOOL 1   // true: may attend
#define PF_ATTN_MASK_ADD 2    // added to the scores
#define PF_ATTN_MAX_HEAD 256  // query/key and value head dims

// Fused attention over `batch` independent problems (the broadcast batch
// dims, flattened): out[b, i, :] = softmax_j(q_i . k_j * scale (+ mask)) v_j.
// Batch offsets of q, k, v and the mask come from the offset calculator
// (operands 0..3, bytes); within a problem rows are l_stride / s_stride apart
// and the last dim is contiguous. out is contiguous [batch, L, Ev].
struct PfAttentionParams {
  unsigned long long q;
  unsigned long long k;
  unsigned long long v;
  unsigned long long mask;
  unsigned long long out;
  long long batch;
  int l;
  int s;
  int e;
  int ev;
  long long q_row;  // elements between query rows
  long long k_row;
  long long v_row;
  long long mask_row;  // mask elements between query rows (0: broadcast)
  long long mask_col;  // mask elements between key columns (0: broadcast)
  int mask_kind;
  int mask_dtype;
  int causal;
  int key_tile;  // keys staged in shared memory per step
  double scale;
  PfOffsetCalc oc;
};

// --- scans (scan.cu) -----------------------------------------------------------------------

#define PF_SCAN_WARPS 4  // rows per block of the innermost-dim scan

// cumsum / cumprod over contiguous [outer, len, inner] (input already in the
// output dtype): inner == 1 scans rows (a warp per row), else columns (a
// thread per (outer, inner) pair walking len).
struct PfScanParams {
  unsigned long long in;
  unsigned long long out;
  long long outer;
  long long len;
  long long inner;
  int product;
  int pad_;
};

// --- matrix norms from singular values (singular.cu) --------------------------------------

// `batch` contiguous row-major rows x cols matrices of the program dtype;
// scratch holds batch * rows * cols doubles; out one value per matrix, float
// (out_double 0) or double (1).
#define PF_SINGULAR_NUCLEAR 0  // sum of the singular values
#define PF_SINGULAR_LARGEST 1
#define PF_SINGULAR_SMALLEST 2

struct PfSingularNormParams {
  unsigned long long in;
  unsigned long long scratch;
  unsigned long long out;
  long long batch;
  int rows;
  int cols;
  int mode;
  int out_double;
};

// --- ordering along one dim (sort.cu) ------------------------------------------------------

// topk / sort / argsort over contiguous [outer, len, inner]: the first k of
// each row in the order (NaN first when descending, last otherwise; equal
// values by index) into [outer, k, inner] values (when non-zero) and indices.
struct PfSortParams {
  unsigned long long in;
  unsigned long long values;
  unsigned long long indices;
  long long outer;
  long long len;
  long long inner;
  long long k;
  int descending;
  int pad_;
};
