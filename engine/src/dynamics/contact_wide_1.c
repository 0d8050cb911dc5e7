/* The wide contact passes with 1 lane: the portable scalar path. */
#define CAIRN_LANES      1
#define CONTACT_WIDE_OPS contact_wide_ops_1
#include "dynamics/contact_wide_kernel.h"
