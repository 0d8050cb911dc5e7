/* The thread-local last error and the process-wide assert hook. */
#include "core/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

enum { ERROR_CAPACITY = 512 };

static _Thread_local char last_error[ERROR_CAPACITY];

/* Set once at start-up, like the allocator; the only other mutable global. */
static cairn_assert_fn *assert_handler;

bool error_set(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(last_error, sizeof last_error, format, args);
    va_end(args);
    return false;
}

const char *cairn_last_error(void)
{
    return last_error;
}

void cairn_clear_error(void)
{
    last_error[0] = '\0';
}

void cairn_set_assert_handler(cairn_assert_fn *handler)
{
    assert_handler = handler;
}

void assert_fail(const char *condition, const char *file, int line)
{
    if (assert_handler) {
        assert_handler(condition, file, line);
        return;
    }
    fprintf(stderr, "cairn: assertion failed: %s (%s:%d)\n", condition, file, line);
    abort();
}
