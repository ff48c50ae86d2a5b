// The integrity checks' per-element math, one definition compiled twice: by
// the host compiler (pf::protocol::tensor_digest, integrity_checks.h) and
// prepended to the kernel program evaluator/gpu/kernels/check.cu (nvcc's
// prebuilt fat binaries, NVRTC as fallback), so a digest the device computes
// of a candidate's output equals the one the host computes of a copy it has
// already verified exactly when the bits are the same (up to a 2^-64 chance
// that a kernel not knowing the key cannot steer).
//   - Digest: the sum mod 2^64 over elements i of term(key, i, bits_i), the
//     element's bits zero-extended to 64, then finalised with the count and
//     dtype. A sum does not depend on the order the device adds in, so one
//     atomic add per warp gives the host's exact value. The term runs the
//     bits XORed with a keyed position through a bijective 64-bit mixer
//     (MurmurHash3's fmix64), so without the key no change of an element has
//     a predictable effect on the sum.
//   - The key is drawn on the host per variant and reaches the device only
//     as a kernel parameter; the device writes only the raw sum, which the
//     harness reads and zeroes at once (from one element's sum and value the
//     key could be worked back, fmix64 being invertible).
//   - Changed elements: bitwise per element (NaN payloads count), as
//     count_changed_elements on the host.
// No includes at all (the kernel source filter allows none); fixed-size
// integer types are spelled as the built-in ones (same sizes on x86-64 Linux
// and in CUDA).
#pragma once

#if defined(__CUDACC__)
#define PF_DIGEST_FN __device__ __forceinline__
#else
#define PF_DIGEST_FN inline
#endif

// The parameter of pf_digest_sum (kernels/check.cu): elements [0, n) of the
// contiguous tensor at `data` (dtype tag `dtype`, PF_TAG_*) added into *sum.
struct PfDigestParams {
  unsigned long long data;
  unsigned long long sum;
  unsigned long long key;
  long long n;
  int dtype;
  int pad_;
};

// The parameter of pf_count_changed: how many of elements [0, n) of `a` and
// `b` (both contiguous, same dtype tag) differ in any bit, added into *count.
struct PfCountChangedParams {
  unsigned long long a;
  unsigned long long b;
  unsigned long long count;
  long long n;
  int dtype;
  int pad_;
};

// The parameter of pf_guard_damage: how many 4-byte words of the `count`
// canary ranges starting at `base[k]` (`bytes` each, a multiple of 4) differ
// from `word` (the guard byte repeated), added into *damaged. A plan's every
// guard in one launch per PF_GUARD_BATCH ranges, instead of two synchronous
// copies per buffer; the host reads the guards only when this is not zero,
// to name the damage.
#define PF_GUARD_BATCH 48
struct PfGuardParams {
  unsigned long long damaged;
  unsigned long long base[PF_GUARD_BATCH];
  unsigned int bytes;
  unsigned int word;
  int count;
  int pad_;
};

// Bytes per element of a dtype tag (pf::dtype_size).
PF_DIGEST_FN int pf_digest_element_size(int dtype) {
  switch (dtype) {
    case 0:  // bool
    case 1:  // uint8
    case 2:  // int8
      return 1;
    case 3:  // int16
    case 6:  // float16
    case 7:  // bfloat16
      return 2;
    case 4:  // int32
    case 8:  // float32
      return 4;
    default:  // int64, float64
      return 8;
  }
}

// Element i's bits, zero-extended.
PF_DIGEST_FN unsigned long long pf_digest_bits(const void* data, long long i, int size) {
#if defined(__CUDACC__)
  switch (size) {
    case 1:
      return static_cast<const unsigned char*>(data)[i];
    case 2:
      return static_cast<const unsigned short*>(data)[i];
    case 4:
      return static_cast<const unsigned int*>(data)[i];
    default:
      return static_cast<const unsigned long long*>(data)[i];
  }
#else
  unsigned long long bits = 0;
  __builtin_memcpy(&bits, static_cast<const unsigned char*>(data) + i * size, size);
  return bits;  // little-endian x86-64: the low bytes, as on the device
#endif
}

PF_DIGEST_FN unsigned long long pf_digest_mix(unsigned long long x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

// Element i's share of the digest: the mixer of the element's bits XORed
// with a position key (the key plus i times the golden ratio, as SplitMix64
// steps). The mixer is a bijection, so at a given position other bits always
// give another term; one mixer per element keeps the host's share of the
// checks cheap (it digests every output it verified).
PF_DIGEST_FN unsigned long long pf_digest_term(unsigned long long key, long long i,
                                               unsigned long long bits) {
  return pf_digest_mix((key + static_cast<unsigned long long>(i) * 0x9e3779b97f4a7c15ULL) ^ bits);
}

// The digest from the sum of every element's term.
PF_DIGEST_FN unsigned long long pf_digest_finish(unsigned long long key, unsigned long long sum,
                                                 long long n, int dtype) {
  const unsigned long long shape =
      pf_digest_mix(~key ^ (static_cast<unsigned long long>(n) * 0xd6e8feb86659fd93ULL)) ^
      static_cast<unsigned long long>(dtype);
  return pf_digest_mix(sum ^ pf_digest_mix(shape));
}
