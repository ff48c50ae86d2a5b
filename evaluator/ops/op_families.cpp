#include "evaluator/ops/op_families.h"

#include "evaluator/ops/op_registry.h"

namespace pf {

void register_all_builtin_ops(OpRegistry& r) {
  register_activation_ops(r);
  register_arithmetic_ops(r);
  register_math_ops(r);
  register_comparison_ops(r);
  register_where_ops(r);
  register_clamp_ops(r);
  register_cast_ops(r);
  register_creation_ops(r);
  register_sequence_ops(r);
  register_triangular_ops(r);
  register_reduction_ops(r);
  register_minmax_ops(r);
  register_statistics_ops(r);
  register_cumulative_ops(r);
  register_sorting_ops(r);
  register_order_statistics_ops(r);
  register_masked_scatter_ops(r);
  register_scatter_reduce_ops(r);
  register_index_put_ops(r);
  register_grid_sample_ops(r);
  register_softmax_ops(r);
  register_view_ops(r);
  register_dim_ops(r);
  register_getitem_ops(r);
  register_split_ops(r);
  register_concat_ops(r);
  register_copy_ops(r);
  register_index_ops(r);
  register_linalg_ops(r);
  register_einsum_ops(r);
  register_attention_ops(r);
  register_normalization_ops(r);
  register_dropout_ops(r);
  register_conv_ops(r);
  register_pooling_ops(r);
  register_adaptive_pool_ops(r);
  register_interpolate_ops(r);
  register_unfold_ops(r);
  register_shuffle_ops(r);
  register_loss_ops(r);
  register_lp_pool_lrn_ops(r);
  register_diag_block_ops(r);
  register_search_ops(r);
  register_cumulative_extrema_ops(r);
  register_rnn_cell_ops(r);
  register_histc_ops(r);
  register_mode_ops(r);
}

}  // namespace pf
