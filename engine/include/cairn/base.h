/* Cairn base types and process-wide hooks: transforms, bounds, allocator, assert, last error. */
#ifndef CAIRN_BASE_H
#define CAIRN_BASE_H

#include <cglm/struct.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(CAIRN_SHARED) && defined(CAIRN_BUILDING)
#define CAIRN_API __attribute__((visibility("default")))
#else
#define CAIRN_API
#endif

#define CAIRN_VERSION_MAJOR 0
#define CAIRN_VERSION_MINOR 1
#define CAIRN_VERSION_PATCH 0

#ifdef __cplusplus
extern "C" {
#endif

/* A rigid transform: world = rotation * local + position. Metres; unit quaternion (x, y, z, w). */
typedef struct cairn_transform {
    vec3s position;
    versors rotation;
} cairn_transform;

/* An axis-aligned box, metres; min <= max on every axis. */
typedef struct cairn_aabb {
    vec3s min, max;
} cairn_aabb;

/* The identity transform. */
CAIRN_API cairn_transform cairn_transform_identity(void);

/* Memory hooks. alloc returns 16-byte aligned memory or NULL; free receives the size that was
   allocated. user is passed through unchanged. */
typedef struct cairn_allocator {
    void *(*alloc)(size_t size, void *user);
    void (*free)(void *memory, size_t size, void *user);
    void *user;
} cairn_allocator;

/* Installs the allocator for every allocation Cairn makes. Call once at start-up, before any
   other Cairn call allocates; NULL restores malloc/free. Returns false (and changes nothing)
   when Cairn memory is still allocated, or when only one of the two functions is given. */
CAIRN_API bool cairn_set_allocator(const cairn_allocator *allocator);

/* Bytes currently allocated through the hooks (a leak check for tests and tools). */
CAIRN_API size_t cairn_allocated_bytes(void);

/* Called when an internal invariant breaks (a Cairn bug, never bad user input). The default
   prints the condition and aborts. Set once at start-up; NULL restores the default. */
typedef void cairn_assert_fn(const char *condition, const char *file, int line);
/* Installs the handler above. */
CAIRN_API void cairn_set_assert_handler(cairn_assert_fn *handler);

/* Thread-local message of the last failed call on this thread ("" when none failed yet). */
CAIRN_API const char *cairn_last_error(void);
/* Clears this thread's last error. */
CAIRN_API void cairn_clear_error(void);

#ifdef __cplusplus
}
#endif

#endif
