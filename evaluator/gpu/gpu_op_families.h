// Registration entry points of the GPU op families, one per ops_<family>.cpp.
// Adding a family: write the file, declare its function here, call it in
// register_all_gpu_ops (gpu_op_registry.cpp), list the file in CMakeLists.txt.
#pragma once

namespace pf::gpu {

class GpuOpRegistry;

// Arithmetic, math, activations, logic.
void register_gpu_elementwise_ops(GpuOpRegistry& r);
// where, masked_fill, clamp.
void register_gpu_selection_ops(GpuOpRegistry& r);
// Casts, contiguous, clone, reshape copies.
void register_gpu_copy_ops(GpuOpRegistry& r);
// zeros/ones/full (+ _like, new_), arange, linspace, eye, tensor, triu/tril.
void register_gpu_creation_ops(GpuOpRegistry& r);
// sum, mean, prod, amax/amin, max/min, argmax/argmin, any/all, var/std, norms, logsumexp.
void register_gpu_reduction_ops(GpuOpRegistry& r);
// softmax, log_softmax.
void register_gpu_softmax_ops(GpuOpRegistry& r);
// layer/rms/group/batch/instance norm.
void register_gpu_norm_ops(GpuOpRegistry& r);
// linear, matmul, mm, bmm, addmm, baddbmm.
void register_gpu_matmul_ops(GpuOpRegistry& r);
// getitem (basic indexing), positive and other aliasing ops.
void register_gpu_view_ops(GpuOpRegistry& r);
// cat, stack, pad, roll, flip, repeat, tile, repeat_interleave.
void register_gpu_layout_ops(GpuOpRegistry& r);
// index_select, gather, scatter, scatter_add, embedding; getitem with tensor
// indices (registered after the views: replaces their basic-only getitem).
void register_gpu_index_ops(GpuOpRegistry& r);
// max/avg pool 1d/2d/3d, adaptive avg/max pool 1d/2d/3d.
void register_gpu_pool_ops(GpuOpRegistry& r);
// F.unfold (im2col), F.fold (col2im).
void register_gpu_fold_ops(GpuOpRegistry& r);
// interpolate.
void register_gpu_interpolate_ops(GpuOpRegistry& r);
// conv1d/2d/3d, conv_transpose1d/2d/3d (cuDNN, direct kernels without it).
void register_gpu_conv_ops(GpuOpRegistry& r);
// scaled_dot_product_attention (one fused kernel).
void register_gpu_attention_ops(GpuOpRegistry& r);
// cumsum, cumprod.
void register_gpu_scan_ops(GpuOpRegistry& r);
// topk, sort, argsort.
void register_gpu_sort_ops(GpuOpRegistry& r);
// kthvalue, median, nanmedian, msort, quantile, nanquantile (sort, then gathers).
void register_gpu_order_statistics_ops(GpuOpRegistry& r);
// masked_scatter (cumsum of the mask, a gather from source, where).
void register_gpu_masked_scatter_ops(GpuOpRegistry& r);
// scatter_reduce (scatter kernels; amax/amin by comparing with every position).
void register_gpu_scatter_reduce_ops(GpuOpRegistry& r);
// index_put (element offsets from the indices, one scatter).
void register_gpu_index_put_ops(GpuOpRegistry& r);
// F.grid_sample, 2-d (kernels/grid_sample.cu).
void register_gpu_grid_sample_ops(GpuOpRegistry& r);
// einsum (diagonal views, sums, permutes, reshapes and bmm, as PyTorch).
void register_gpu_einsum_ops(GpuOpRegistry& r);
// torch.nn.functional losses (compositions of the ops above).
void register_gpu_loss_ops(GpuOpRegistry& r);
// F.lp_pool1d/2d, F.local_response_norm (compositions).
void register_gpu_lp_pool_lrn_ops(GpuOpRegistry& r);
// F.bilinear, diag_embed, block_diag (compositions).
void register_gpu_diag_block_ops(GpuOpRegistry& r);
// isin, bucketize, searchsorted, angle (compositions).
void register_gpu_search_ops(GpuOpRegistry& r);
// cummax, cummin, logcumsumexp (scans by doubling of compositions).
void register_gpu_cumulative_extrema_ops(GpuOpRegistry& r);
// lstm_cell, gru_cell, rnn_tanh_cell, rnn_relu_cell (linear and elementwise ops).
void register_gpu_rnn_cell_ops(GpuOpRegistry& r);
// histc (bin edges, bucketize, scatter_add).
void register_gpu_histc_ops(GpuOpRegistry& r);
// mode (sort, run lengths by cummax, argmax, gathers).
void register_gpu_mode_ops(GpuOpRegistry& r);

}  // namespace pf::gpu
