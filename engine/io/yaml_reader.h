/* Private to cairn_io: one open YAML file, positions of its nodes, and typed, range-checked reads
   that report file:line:column errors. */
#ifndef CAIRN_IO_YAML_READER_H
#define CAIRN_IO_YAML_READER_H

#include <cairn/io.h>

#include <libfyaml.h>

/* Paths longer than this are an error. */
#define IO_PATH_CAPACITY 1024
/* Dotted field names used in messages ("bodies[3].shape.box.half_extents"). */
#define IO_WHAT_CAPACITY 160

typedef struct io_reader {
    char path[IO_PATH_CAPACITY]; /* as reported in errors */
    struct fy_document *doc;
    struct fy_diag *diag;
    cairn_io_error *err;
} io_reader;

/* Parses the file; false with err filled (cannot open, YAML syntax error with its position). */
bool io_reader_open(io_reader *reader, const char *path, cairn_io_error *err);
void io_reader_close(io_reader *reader);
/* Copies text, truncated to fit capacity (> 0). */
void io_copy(char *out, size_t capacity, const char *text);

/* "a.b" (b_length characters of b), truncated to fit capacity: dotted field names. */
void io_join(char *out, size_t capacity, const char *a, const char *b, size_t b_length);

/* The document root; NULL for an empty file. */
struct fy_node *io_reader_root(const io_reader *reader);

/* 1-based line and column of a node (0, 0 when unknown). */
void io_node_position(const io_reader *reader, struct fy_node *node, int *line, int *column);

/* Fills reader->err with the node's position (none when node is NULL) and the message; returns
   false so callers can `return io_fail(...)`. */
bool io_fail(const io_reader *reader, struct fy_node *at, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* The scalar text (not zero-terminated) of a scalar node, NULL for collections. */
const char *io_scalar(struct fy_node *node, size_t *length);
/* True when the scalar node's text equals text. */
bool io_scalar_is(struct fy_node *node, const char *text);

/* Value of key in a mapping, NULL when absent. */
struct fy_node *io_lookup(struct fy_node *mapping, const char *key);

bool io_expect_mapping(const io_reader *reader, struct fy_node *node, const char *what);
bool io_expect_sequence(const io_reader *reader, struct fy_node *node, const char *what);
/* Every key of the mapping must be a plain scalar in allowed (count names); the error names the
   unknown key and suggests the closest allowed one. */
bool io_check_keys(const io_reader *reader, struct fy_node *mapping, const char *what,
                   const char *const *allowed, int count);

/* Typed reads. Numbers must be plain scalars, finite and inside [low, high]; the error message
   names the field (what) and the valid range. */
bool io_read_float(const io_reader *reader, struct fy_node *node, const char *what, float low,
                   float high, float *out);
/* The same with an open lower bound: low < value <= high. */
bool io_read_float_above(const io_reader *reader, struct fy_node *node, const char *what, float low,
                         float high, float *out);
bool io_read_int(const io_reader *reader, struct fy_node *node, const char *what, int low, int high,
                 int *out);
bool io_read_bool(const io_reader *reader, struct fy_node *node, const char *what, bool *out);
/* 32 bits (collision layers and masks): a decimal or 0x-prefixed hexadecimal integer in
   [0, 0xffffffff]. */
bool io_read_bits(const io_reader *reader, struct fy_node *node, const char *what, uint32_t *out);
/* A sequence of exactly count numbers, each inside [low, high]. */
bool io_read_floats(const io_reader *reader, struct fy_node *node, const char *what, int count,
                    float low, float high, float *out);
bool io_read_vec3(const io_reader *reader, struct fy_node *node, const char *what, float low,
                  float high, vec3s *out);
/* Reads one item of a list into out (item_bytes of it), naming it `what` in errors. */
typedef bool io_item_fn(const io_reader *reader, struct fy_node *node, const char *what, void *out,
                        void *context);
/* A sequence of min_count to max_count items, each read by read_item as what[i] into *out
   (count items of item_bytes, malloc'd: the caller frees it, also on failure) and *count. `noun`
   names the items in the count error ("%s has %d points, expected 4 to 512"). */
bool io_read_list(const io_reader *reader, struct fy_node *node, const char *what, const char *noun,
                  int min_count, int max_count, size_t item_bytes, io_item_fn *read_item,
                  void *context, void **out, int *count);
/* A sequence of min_count to max_count [x, y, z] items, each inside [low, high], into *out
   (malloc'd: the caller frees it, also on failure) and *count. `noun` names the items in the
   count error ("%s has %d points, expected 4 to 512"). */
bool io_read_vec3_list(const io_reader *reader, struct fy_node *node, const char *what,
                       const char *noun, int min_count, int max_count, float low, float high,
                       vec3s **out, int *count);
/* [x, y, z, w] with length within 1e-3 of 1, renormalised. */
bool io_read_quat(const io_reader *reader, struct fy_node *node, const char *what, versors *out);
/* One of names (count of them); *out is its index. */
bool io_read_enum(const io_reader *reader, struct fy_node *node, const char *what,
                  const char *const *names, int count, int *out);
/* A scalar string that fits capacity (with its terminating zero). */
bool io_read_string(const io_reader *reader, struct fy_node *node, const char *what, char *out,
                    size_t capacity);

#endif
