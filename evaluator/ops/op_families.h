// Registration entry points, one per op family file (ops/<family>.cpp).
// Adding a family: write the file, declare its function here, call it in
// register_all_builtin_ops (op_families.cpp), list the file in CMakeLists.txt.
#pragma once

namespace pf {

class OpRegistry;

void register_activation_ops(OpRegistry& r);
void register_arithmetic_ops(OpRegistry& r);
void register_math_ops(OpRegistry& r);
void register_comparison_ops(OpRegistry& r);
void register_where_ops(OpRegistry& r);
void register_clamp_ops(OpRegistry& r);
void register_cast_ops(OpRegistry& r);
void register_creation_ops(OpRegistry& r);
void register_sequence_ops(OpRegistry& r);
void register_triangular_ops(OpRegistry& r);
void register_reduction_ops(OpRegistry& r);
void register_minmax_ops(OpRegistry& r);
void register_statistics_ops(OpRegistry& r);
void register_cumulative_ops(OpRegistry& r);
void register_sorting_ops(OpRegistry& r);
void register_order_statistics_ops(OpRegistry& r);
void register_masked_scatter_ops(OpRegistry& r);
void register_scatter_reduce_ops(OpRegistry& r);
void register_index_put_ops(OpRegistry& r);
void register_grid_sample_ops(OpRegistry& r);
void register_softmax_ops(OpRegistry& r);
// Layout, indexing and numeric families (ops_layout).
void register_view_ops(OpRegistry& r);
void register_dim_ops(OpRegistry& r);
void register_getitem_ops(OpRegistry& r);
void register_split_ops(OpRegistry& r);
void register_concat_ops(OpRegistry& r);
void register_copy_ops(OpRegistry& r);
void register_index_ops(OpRegistry& r);
void register_linalg_ops(OpRegistry& r);
void register_einsum_ops(OpRegistry& r);
void register_attention_ops(OpRegistry& r);
void register_normalization_ops(OpRegistry& r);
void register_dropout_ops(OpRegistry& r);
void register_conv_ops(OpRegistry& r);
void register_pooling_ops(OpRegistry& r);
void register_adaptive_pool_ops(OpRegistry& r);
void register_interpolate_ops(OpRegistry& r);
void register_unfold_ops(OpRegistry& r);
void register_shuffle_ops(OpRegistry& r);
void register_loss_ops(OpRegistry& r);
void register_lp_pool_lrn_ops(OpRegistry& r);
void register_diag_block_ops(OpRegistry& r);
void register_search_ops(OpRegistry& r);
void register_cumulative_extrema_ops(OpRegistry& r);
void register_rnn_cell_ops(OpRegistry& r);
void register_histc_ops(OpRegistry& r);
void register_mode_ops(OpRegistry& r);

void register_all_builtin_ops(OpRegistry& r);

}  // namespace pf
