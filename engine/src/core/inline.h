/* A function the compiler must inline: small kernels written once for any size or variant and
   stamped out for the ones that occur, each compiled with its constants known. */
#ifndef CAIRN_CORE_INLINE_H
#define CAIRN_CORE_INLINE_H

#define ALWAYS_INLINE static inline __attribute__((always_inline))

#endif
