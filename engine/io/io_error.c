/* Formatting of file errors, in the file:line:column form editors understand. */
#include <cairn/io.h>

#include <stdio.h>

int cairn_io_error_format(const cairn_io_error *error, char *buffer, size_t capacity)
{
    if (error->line > 0 && error->column > 0)
        return snprintf(buffer, capacity, "%s:%d:%d: %s", error->file, error->line, error->column,
                        error->message);
    if (error->line > 0)
        return snprintf(buffer, capacity, "%s:%d: %s", error->file, error->line, error->message);
    if (error->file[0] != '\0')
        return snprintf(buffer, capacity, "%s: %s", error->file, error->message);
    return snprintf(buffer, capacity, "%s", error->message);
}
