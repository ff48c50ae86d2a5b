// The parameter struct of grid_sample.cu (ops_grid_sample.cpp), shared
// verbatim by the host and the device like pf_ops_abi.cuh. Apart from that
// file so that the other kernel programs do not change with it.
#pragma once

#ifndef PF_MAX_DIMS
#error "pf_abi.cuh must come before pf_grid_abi.cuh"
#endif

#define PF_GRID_BILINEAR 0
#define PF_GRID_NEAREST 1
#define PF_GRID_PAD_ZEROS 0
#define PF_GRID_PAD_BORDER 1
#define PF_GRID_PAD_REFLECTION 2

// F.grid_sample over contiguous [N, C, H, W] input and [N, Ho, Wo, 2] grid
// (x, y in [-1, 1]) into contiguous [N, C, Ho, Wo]; n = N * Ho * Wo.
struct PfGridSampleParams {
  unsigned long long in;
  unsigned long long grid;
  unsigned long long out;
  long long n;
  int channels;
  int in_h;
  int in_w;
  int out_h;
  int out_w;
  int mode;
  int padding;
  int align_corners;
};
