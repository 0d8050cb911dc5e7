/* The wide contact passes with 4 lanes: SSE2 or NEON. */
#define CAIRN_LANES      4
#define CONTACT_WIDE_OPS contact_wide_ops_4
#include "dynamics/contact_wide_kernel.h"
