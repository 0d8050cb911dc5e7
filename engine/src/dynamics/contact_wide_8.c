/* The wide contact passes with 8 lanes: AVX2 (built with -mavx2 on x86). */
#define CAIRN_LANES      8
#define CONTACT_WIDE_OPS contact_wide_ops_8
#include "dynamics/contact_wide_kernel.h"
