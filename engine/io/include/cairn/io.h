/* cairn_io: settings and scene files (YAML). A separate library; the engine never needs it. */
#ifndef CAIRN_IO_H
#define CAIRN_IO_H

#include <cairn/cairn.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Where and why a file could not be used. line and column are 1-based; 0 when the error has
   no position. */
typedef struct cairn_io_error {
    char file[256];
    int line, column;
    char message[256];
} cairn_io_error;

/* Formats the error as "file:line:column: message" (the position parts that are known) into
   buffer; returns the length snprintf would have written. */
int cairn_io_error_format(const cairn_io_error *error, char *buffer, size_t capacity);

#ifdef __cplusplus
}
#endif

#endif
