/* Internal error reporting (thread-local last error) and the assert hook. */
#ifndef CAIRN_CORE_ERROR_H
#define CAIRN_CORE_ERROR_H

#include <cairn/base.h>

/* Records a printf-style message as this thread's cairn_last_error(). Always returns false so
   validation code can `return error_set(...)`. */
bool error_set(const char *format, ...) __attribute__((format(printf, 1, 2)));

void assert_fail(const char *condition, const char *file, int line);

/* Internal invariants: on in Debug and Sanitize builds, compiled out when NDEBUG is defined. */
#ifdef NDEBUG
#define CAIRN_ASSERT(condition) ((void)0)
#else
#define CAIRN_ASSERT(condition)                                                                    \
    ((condition) ? (void)0 : assert_fail(#condition, __FILE__, __LINE__))
#endif

#endif
