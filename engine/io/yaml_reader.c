/* One open YAML file (libfyaml document plus collected diagnostics), node positions, and the
   typed reads every settings and scene field goes through. */
#include "yaml_reader.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void io_copy(char *out, size_t capacity, const char *text)
{
    size_t length = strlen(text);
    if (length >= capacity)
        length = capacity - 1;
    memcpy(out, text, length);
    out[length] = '\0';
}

void io_join(char *out, size_t capacity, const char *a, const char *b, size_t b_length)
{
    io_copy(out, capacity, a);
    size_t used = strlen(out);
    if (used + 1 >= capacity)
        return;
    out[used++] = '.';
    size_t room = capacity - used - 1;
    size_t n = b_length < room ? b_length : room;
    memcpy(out + used, b, n);
    out[used + n] = '\0';
}

static void set_error(cairn_io_error *err, const char *file, int line, int column,
                      const char *message)
{
    io_copy(err->file, sizeof err->file, file);
    err->line = line;
    err->column = column;
    io_copy(err->message, sizeof err->message, message);
}

/* YAML streams are UTF-8 with no control characters but tab and line breaks; libfyaml 0.7 can
   loop forever on some (a NUL or a malformed UTF-8 sequence inside a directive), so they are
   refused before parsing. */
static bool check_printable(FILE *file, const char *path, cairn_io_error *err)
{
    int line = 1, column = 1, c, pending = 0;
    while ((c = fgetc(file)) != EOF) {
        const char *problem = NULL;
        if (pending > 0) {
            if ((c & 0xC0) != 0x80)
                problem = "malformed UTF-8";
            pending--;
        } else if (c >= 0x80) {
            pending = c >= 0xC2 && c <= 0xDF   ? 1
                      : c >= 0xE0 && c <= 0xEF ? 2
                      : c >= 0xF0 && c <= 0xF4 ? 3
                                               : -1;
            if (pending < 0)
                problem = "malformed UTF-8";
        } else if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7F) {
            problem = "control character";
        }
        if (problem != NULL) {
            char message[256];
            snprintf(message, sizeof message, "%s 0x%02X is not allowed in YAML", problem,
                     (unsigned)c);
            set_error(err, path, line, column, message);
            return false;
        }
        if (c == '\n') {
            line++;
            column = 1;
        } else if ((c & 0xC0) != 0x80) {
            column++; /* count characters, not UTF-8 continuation bytes */
        }
    }
    if (pending > 0) {
        set_error(err, path, line, column, "malformed UTF-8 at the end of the file");
        return false;
    }
    return true;
}

bool io_reader_open(io_reader *reader, const char *path, cairn_io_error *err)
{
    memset(reader, 0, sizeof *reader);
    reader->err = err;
    if (strlen(path) >= sizeof reader->path) {
        set_error(err, "", 0, 0, "path is too long");
        return false;
    }
    io_copy(reader->path, sizeof reader->path, path);
    FILE *probe = fopen(path, "rb");
    if (probe == NULL) {
        char message[256];
        snprintf(message, sizeof message, "cannot open file: %s", strerror(errno));
        set_error(err, path, 0, 0, message);
        return false;
    }
    bool printable = check_printable(probe, path, err);
    fclose(probe);
    if (!printable)
        return false;

    struct fy_diag_cfg diag_cfg;
    fy_diag_cfg_default(&diag_cfg);
    diag_cfg.fp = NULL;
    diag_cfg.output_fn = NULL;
    diag_cfg.colorize = false;
    reader->diag = fy_diag_create(&diag_cfg);
    if (reader->diag == NULL) {
        set_error(err, path, 0, 0, "out of memory creating the YAML diagnostics");
        return false;
    }
    fy_diag_set_collect_errors(reader->diag, true);
    struct fy_parse_cfg cfg = {
        .search_path = NULL,
        .flags = FYPCF_QUIET | FYPCF_COLLECT_DIAG | FYPCF_DEFAULT_VERSION_1_2,
        .userdata = NULL,
        .diag = reader->diag,
    };
    reader->doc = fy_document_build_from_file(&cfg, path);
    void *iter = NULL;
    struct fy_diag_error *first = fy_diag_errors_iterate(reader->diag, &iter);
    if (reader->doc != NULL || first == NULL)
        return true; /* no document and no error: an empty file (comments at most) */
    if (first != NULL) {
        char message[256];
        snprintf(message, sizeof message, "YAML syntax error: %s", first->msg);
        set_error(err, path, first->line, first->column, message);
    } else {
        set_error(err, path, 0, 0, "YAML syntax error");
    }
    io_reader_close(reader);
    return false;
}

void io_reader_close(io_reader *reader)
{
    if (reader->doc != NULL)
        fy_document_destroy(reader->doc);
    if (reader->diag != NULL)
        fy_diag_destroy(reader->diag);
    reader->doc = NULL;
    reader->diag = NULL;
}

struct fy_node *io_reader_root(const io_reader *reader)
{
    if (reader->doc == NULL)
        return NULL;
    struct fy_node *root = fy_document_root(reader->doc);
    if (root != NULL && fy_node_is_scalar(root) && io_scalar_is(root, "") &&
        fy_node_get_style(root) == FYNS_PLAIN)
        return NULL;
    return root;
}

/* The first scalar inside a node, in document order (a collection's own start is not exported by
   libfyaml 0.7). */
static struct fy_node *first_scalar(struct fy_node *node)
{
    while (node != NULL && !fy_node_is_scalar(node)) {
        void *iter = NULL;
        if (fy_node_is_mapping(node)) {
            struct fy_node_pair *pair = fy_node_mapping_iterate(node, &iter);
            node = pair != NULL ? fy_node_pair_key(pair) : NULL;
        } else {
            node = fy_node_sequence_iterate(node, &iter);
        }
    }
    return node;
}

/* Steps back from a collection's first scalar to the collection's own start: over blanks to the
   opening bracket of a flow collection, or to the dash of a block sequence item. Stays put when
   that would cross a line. */
static int collection_column_shift(const io_reader *reader, struct fy_node *collection,
                                   const struct fy_mark *inner)
{
    if (inner->input_pos == 0 || inner->column == 0)
        return 0;
    bool flow = fy_node_get_style(collection) == FYNS_FLOW;
    if (!flow && !fy_node_is_sequence(collection))
        return 0;
    size_t window = (size_t)inner->column < 256 ? (size_t)inner->column : 256;
    char text[256];
    FILE *file = fopen(reader->path, "rb");
    if (file == NULL)
        return 0;
    bool ok = fseek(file, (long)(inner->input_pos - window), SEEK_SET) == 0 &&
              fread(text, 1, window, file) == window;
    fclose(file);
    if (!ok)
        return 0;
    /* Nested collections start at their own scalar: walk out through every opener. */
    int shift = 0;
    for (size_t i = window; i > 0; --i) {
        char c = text[i - 1];
        if (c == ' ' || c == '\t')
            continue;
        if (c == '[' || c == '{' || c == '-') {
            shift = (int)(window - i + 1);
            break;
        }
        break;
    }
    return shift;
}

/* An empty value has no token: use the key it belongs to, or the enclosing collection. */
static void position_from_parent(const io_reader *reader, struct fy_node *node, int *line,
                                 int *column)
{
    struct fy_node *parent = fy_node_get_parent(node);
    if (parent == NULL || parent == node)
        return;
    if (fy_node_is_mapping(parent)) {
        void *iter = NULL;
        struct fy_node_pair *pair;
        while ((pair = fy_node_mapping_iterate(parent, &iter)) != NULL) {
            if (fy_node_pair_value(pair) == node && fy_node_pair_key(pair) != NULL) {
                io_node_position(reader, fy_node_pair_key(pair), line, column);
                return;
            }
        }
    }
    io_node_position(reader, parent, line, column);
}

void io_node_position(const io_reader *reader, struct fy_node *node, int *line, int *column)
{
    *line = 0;
    *column = 0;
    if (node == NULL)
        return;
    struct fy_node *scalar = first_scalar(node);
    struct fy_token *token = scalar != NULL ? fy_node_get_scalar_token(scalar) : NULL;
    const struct fy_mark *mark = token != NULL ? fy_token_start_mark(token) : NULL;
    if (mark == NULL) {
        position_from_parent(reader, node, line, column);
        return;
    }
    int shift = 0;
    if (scalar != node)
        shift = collection_column_shift(reader, node, mark);
    else if (fy_node_get_style(node) == FYNS_SINGLE_QUOTED ||
             fy_node_get_style(node) == FYNS_DOUBLE_QUOTED)
        shift = mark->column > 0 ? 1 : 0; /* the mark is inside the opening quote */
    *line = mark->line + 1;
    *column = mark->column + 1 - shift;
}

bool io_fail(const io_reader *reader, struct fy_node *at, const char *format, ...)
{
    cairn_io_error *err = reader->err;
    io_copy(err->file, sizeof err->file, reader->path);
    io_node_position(reader, at, &err->line, &err->column);
    va_list args;
    va_start(args, format);
    vsnprintf(err->message, sizeof err->message, format, args);
    va_end(args);
    return false;
}

const char *io_scalar(struct fy_node *node, size_t *length)
{
    *length = 0;
    if (node == NULL || !fy_node_is_scalar(node))
        return NULL;
    const char *text = fy_node_get_scalar(node, length);
    return text != NULL ? text : "";
}

bool io_scalar_is(struct fy_node *node, const char *text)
{
    size_t length;
    const char *value = io_scalar(node, &length);
    return value != NULL && length == strlen(text) && memcmp(value, text, length) == 0;
}

struct fy_node *io_lookup(struct fy_node *mapping, const char *key)
{
    if (mapping == NULL || !fy_node_is_mapping(mapping))
        return NULL;
    void *iter = NULL;
    struct fy_node_pair *pair;
    while ((pair = fy_node_mapping_iterate(mapping, &iter)) != NULL)
        if (io_scalar_is(fy_node_pair_key(pair), key))
            return fy_node_pair_value(pair);
    return NULL;
}

static const char *kind_of(struct fy_node *node)
{
    if (node == NULL)
        return "nothing";
    if (fy_node_is_alias(node))
        return "an alias";
    if (fy_node_is_mapping(node))
        return "a mapping";
    if (fy_node_is_sequence(node))
        return "a sequence";
    size_t length;
    io_scalar(node, &length);
    if (length == 0 && fy_node_get_style(node) == FYNS_PLAIN)
        return "nothing";
    return fy_node_get_style(node) == FYNS_PLAIN ? "a scalar" : "a quoted string";
}

bool io_expect_mapping(const io_reader *reader, struct fy_node *node, const char *what)
{
    if (node != NULL && fy_node_is_mapping(node))
        return true;
    return io_fail(reader, node, "%s must be a mapping, got %s", what, kind_of(node));
}

bool io_expect_sequence(const io_reader *reader, struct fy_node *node, const char *what)
{
    if (node != NULL && fy_node_is_sequence(node))
        return true;
    return io_fail(reader, node, "%s must be a sequence, got %s", what, kind_of(node));
}

/* Levenshtein distance, capped at the short names used as keys. */
static int edit_distance(const char *a, size_t la, const char *b)
{
    size_t lb = strlen(b);
    if (la > 63 || lb > 63)
        return 99;
    int row[64];
    for (size_t j = 0; j <= lb; ++j)
        row[j] = (int)j;
    for (size_t i = 1; i <= la; ++i) {
        int diagonal = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; ++j) {
            int above = row[j];
            int cost = a[i - 1] == b[j - 1] ? 0 : 1;
            int best = diagonal + cost;
            if (above + 1 < best)
                best = above + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diagonal = above;
        }
    }
    return row[lb];
}

static bool fail_unknown_key(const io_reader *reader, struct fy_node *key, const char *what,
                             const char *const *allowed, int count)
{
    size_t length;
    const char *text = io_scalar(key, &length);
    int best = -1, best_distance = 4;
    for (int i = 0; i < count; ++i) {
        int distance = edit_distance(text, length, allowed[i]);
        if (distance < best_distance) {
            best_distance = distance;
            best = i;
        }
    }
    if (best >= 0)
        return io_fail(reader, key, "unknown key '%.*s' in %s (did you mean '%s'?)",
                       (int)(length > 64 ? 64 : length), text, what, allowed[best]);
    char list[200];
    size_t used = 0;
    list[0] = '\0';
    for (int i = 0; i < count && used < sizeof list; ++i)
        used +=
            (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", allowed[i]);
    return io_fail(reader, key, "unknown key '%.*s' in %s (expected %s)",
                   (int)(length > 32 ? 32 : length), text, what, list);
}

bool io_check_keys(const io_reader *reader, struct fy_node *mapping, const char *what,
                   const char *const *allowed, int count)
{
    void *iter = NULL;
    struct fy_node_pair *pair;
    while ((pair = fy_node_mapping_iterate(mapping, &iter)) != NULL) {
        struct fy_node *key = fy_node_pair_key(pair);
        if (key == NULL || !fy_node_is_scalar(key) || fy_node_is_alias(key))
            return io_fail(reader, key != NULL ? key : mapping, "keys of %s must be plain names",
                           what);
        bool known = false;
        for (int i = 0; i < count && !known; ++i)
            known = io_scalar_is(key, allowed[i]);
        if (!known)
            return fail_unknown_key(reader, key, what, allowed, count);
    }
    return true;
}

/* The plain scalar's text as a C string in buffer; false with an error for anything else. */
static bool scalar_text(const io_reader *reader, struct fy_node *node, const char *what,
                        const char *expected, char *buffer, size_t capacity)
{
    size_t length;
    const char *text = io_scalar(node, &length);
    if (text == NULL || fy_node_is_alias(node) || fy_node_get_style(node) != FYNS_PLAIN ||
        length == 0)
        return io_fail(reader, node, "%s must be %s, got %s", what, expected, kind_of(node));
    if (length >= capacity)
        return io_fail(reader, node, "%s must be %s, got '%.20s...'", what, expected, text);
    memcpy(buffer, text, length);
    buffer[length] = '\0';
    return true;
}

/* Parses a YAML 1.2 core-schema number, the special .nan / .inf forms included. */
static bool parse_number(const char *text, double *out)
{
    const char *body = text[0] == '+' || text[0] == '-' ? text + 1 : text;
    double sign = text[0] == '-' ? -1.0 : 1.0;
    if (strcmp(body, ".inf") == 0 || strcmp(body, ".Inf") == 0 || strcmp(body, ".INF") == 0) {
        *out = sign * INFINITY;
        return true;
    }
    if (strcmp(text, ".nan") == 0 || strcmp(text, ".NaN") == 0 || strcmp(text, ".NAN") == 0) {
        *out = NAN;
        return true;
    }
    /* strtod also takes hex, "nan" and "infinity": the core schema does not. */
    for (const char *c = body; *c; ++c)
        if (!strchr("0123456789.eE+-", *c))
            return false;
    char *end = NULL;
    *out = strtod(text, &end);
    return end != text && *end == '\0';
}

static bool read_number(const io_reader *reader, struct fy_node *node, const char *what, char *text,
                        size_t capacity, double *value)
{
    if (!scalar_text(reader, node, what, "a number", text, capacity))
        return false;
    if (!parse_number(text, value))
        return io_fail(reader, node, "%s must be a number, got '%s'", what, text);
    if (!isfinite(*value))
        return io_fail(reader, node, "%s = %s is not a finite number", what, text);
    return true;
}

static bool read_float_range(const io_reader *reader, struct fy_node *node, const char *what,
                             float low, float high, bool open_low, float *out)
{
    char text[64];
    double value = 0.0;
    if (!read_number(reader, node, what, text, sizeof text, &value))
        return false;
    bool below = open_low ? !(value > (double)low) : value < (double)low;
    if (below || value > (double)high)
        return io_fail(reader, node, "%s = %s is outside %c%g, %g]", what, text,
                       open_low ? '(' : '[', (double)low, (double)high);
    *out = (float)value;
    return true;
}

bool io_read_float(const io_reader *reader, struct fy_node *node, const char *what, float low,
                   float high, float *out)
{
    return read_float_range(reader, node, what, low, high, false, out);
}

bool io_read_float_above(const io_reader *reader, struct fy_node *node, const char *what, float low,
                         float high, float *out)
{
    return read_float_range(reader, node, what, low, high, true, out);
}

bool io_read_int(const io_reader *reader, struct fy_node *node, const char *what, int low, int high,
                 int *out)
{
    char text[64];
    if (!scalar_text(reader, node, what, "an integer", text, sizeof text))
        return false;
    const char *digits = text[0] == '+' || text[0] == '-' ? text + 1 : text;
    bool integer = digits[0] != '\0' && strspn(digits, "0123456789") == strlen(digits);
    if (!integer)
        return io_fail(reader, node, "%s must be an integer, got '%s'", what, text);
    errno = 0;
    long value = strtol(text, NULL, 10);
    if (errno == ERANGE || value < low || value > high)
        return io_fail(reader, node, "%s = %s is outside [%d, %d]", what, text, low, high);
    *out = (int)value;
    return true;
}

bool io_read_bits(const io_reader *reader, struct fy_node *node, const char *what, uint32_t *out)
{
    char text[64];
    if (!scalar_text(reader, node, what, "an integer", text, sizeof text))
        return false;
    bool hex = text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    const char *digits = hex ? text + 2 : text;
    const char *allowed = hex ? "0123456789abcdefABCDEF" : "0123456789";
    if (digits[0] == '\0' || strspn(digits, allowed) != strlen(digits))
        return io_fail(reader, node, "%s must be a decimal or 0x hexadecimal integer, got '%s'",
                       what, text);
    errno = 0;
    unsigned long long value = strtoull(digits, NULL, hex ? 16 : 10);
    if (errno == ERANGE || value > 0xffffffffull)
        return io_fail(reader, node, "%s = %s is outside [0, 0xffffffff]", what, text);
    *out = (uint32_t)value;
    return true;
}

bool io_read_bool(const io_reader *reader, struct fy_node *node, const char *what, bool *out)
{
    char text[16];
    if (!scalar_text(reader, node, what, "true or false", text, sizeof text))
        return false;
    if (!strcmp(text, "true") || !strcmp(text, "True") || !strcmp(text, "TRUE")) {
        *out = true;
        return true;
    }
    if (!strcmp(text, "false") || !strcmp(text, "False") || !strcmp(text, "FALSE")) {
        *out = false;
        return true;
    }
    return io_fail(reader, node, "%s must be true or false, got '%s'", what, text);
}

bool io_read_floats(const io_reader *reader, struct fy_node *node, const char *what, int count,
                    float low, float high, float *out)
{
    if (!io_expect_sequence(reader, node, what))
        return false;
    int items = fy_node_sequence_item_count(node);
    if (items != count)
        return io_fail(reader, node, "%s must have %d elements, got %d", what, count, items);
    void *iter = NULL;
    for (int i = 0; i < count; ++i) {
        struct fy_node *item = fy_node_sequence_iterate(node, &iter);
        char name[IO_WHAT_CAPACITY + 16];
        snprintf(name, sizeof name, "%s[%d]", what, i);
        if (!io_read_float(reader, item, name, low, high, &out[i]))
            return false;
    }
    return true;
}

bool io_read_vec3(const io_reader *reader, struct fy_node *node, const char *what, float low,
                  float high, vec3s *out)
{
    float v[3];
    if (!io_read_floats(reader, node, what, 3, low, high, v))
        return false;
    *out = (vec3s){{v[0], v[1], v[2]}};
    return true;
}

bool io_read_list(const io_reader *reader, struct fy_node *node, const char *what, const char *noun,
                  int min_count, int max_count, size_t item_bytes, io_item_fn *read_item,
                  void *context, void **out, int *count)
{
    *out = NULL;
    if (!io_expect_sequence(reader, node, what))
        return false;
    *count = fy_node_sequence_item_count(node);
    if (*count < min_count || *count > max_count)
        return io_fail(reader, node, "%s has %d %s, expected %d to %d", what, *count, noun,
                       min_count, max_count);
    *out = malloc((size_t)*count * item_bytes);
    if (*out == NULL)
        return io_fail(reader, node, "%s: out of memory", what);
    void *iter = NULL;
    for (int i = 0; i < *count; ++i) {
        char item[IO_WHAT_CAPACITY + 16];
        snprintf(item, sizeof item, "%s[%d]", what, i);
        if (!read_item(reader, fy_node_sequence_iterate(node, &iter), item,
                       (char *)*out + (size_t)i * item_bytes, context))
            return false;
    }
    return true;
}

/* The bounds of a vec3 list's items. */
typedef struct vec3_range {
    float low, high;
} vec3_range;

static bool read_vec3_item(const io_reader *reader, struct fy_node *node, const char *what,
                           void *out, void *context)
{
    const vec3_range *range = context;
    return io_read_vec3(reader, node, what, range->low, range->high, out);
}

bool io_read_vec3_list(const io_reader *reader, struct fy_node *node, const char *what,
                       const char *noun, int min_count, int max_count, float low, float high,
                       vec3s **out, int *count)
{
    vec3_range range = {low, high};
    void *items = NULL;
    bool ok = io_read_list(reader, node, what, noun, min_count, max_count, sizeof **out,
                           read_vec3_item, &range, &items, count);
    *out = items;
    return ok;
}

bool io_read_quat(const io_reader *reader, struct fy_node *node, const char *what, versors *out)
{
    float q[4];
    if (!io_read_floats(reader, node, what, 4, -2.0f, 2.0f, q))
        return false;
    float length = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (fabsf(length - 1.0f) > 1e-3f)
        return io_fail(reader, node,
                       "%s has length %g: a rotation must be a unit quaternion [x, y, z, w] "
                       "(length within 1e-3 of 1)",
                       what, (double)length);
    *out = (versors){{q[0] / length, q[1] / length, q[2] / length, q[3] / length}};
    return true;
}

bool io_read_enum(const io_reader *reader, struct fy_node *node, const char *what,
                  const char *const *names, int count, int *out)
{
    char list[160];
    size_t used = 0;
    list[0] = '\0';
    for (int i = 0; i < count && used < sizeof list; ++i)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? " | " : "", names[i]);
    char text[64];
    if (!scalar_text(reader, node, what, "one of the names", text, sizeof text))
        return false;
    for (int i = 0; i < count; ++i) {
        if (strcmp(text, names[i]) == 0) {
            *out = i;
            return true;
        }
    }
    return io_fail(reader, node, "%s = '%s' is not one of %s", what, text, list);
}

bool io_read_string(const io_reader *reader, struct fy_node *node, const char *what, char *out,
                    size_t capacity)
{
    size_t length;
    const char *text = io_scalar(node, &length);
    if (text == NULL || fy_node_is_alias(node) || length == 0)
        return io_fail(reader, node, "%s must be a string, got %s", what, kind_of(node));
    if (length >= capacity)
        return io_fail(reader, node, "%s is longer than %zu characters", what, capacity - 1);
    if (memchr(text, '\0', length) != NULL)
        return io_fail(reader, node, "%s contains a zero byte", what);
    memcpy(out, text, length);
    out[length] = '\0';
    return true;
}
