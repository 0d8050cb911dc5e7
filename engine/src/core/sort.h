/* An in-place sort stamped out per element type, with the comparison inlined: the broadphase
   sorts thousands of small arrays per rebuild, where qsort's call through a function pointer per
   comparison costs more than the comparison. Introsort: quicksort on the median of three, down to
   insertion sort for short ranges, and heapsort past 2 log2(n) levels, so O(n log n) on every
   input. Not stable: give it a strict total order (no two distinct elements equal), and the
   result is the one order any sort gives.

   SORT_DEFINE(name, T, less) defines  static void name(T *data, int count)  where
   less(const T *a, const T *b) says whether a comes before b. */
#ifndef CAIRN_CORE_SORT_H
#define CAIRN_CORE_SORT_H

/* Ranges this short are finished by insertion sort. */
#define SORT_INSERTION_LIMIT 16

#define SORT_DEFINE(name, T, less)                                                                 \
    static void name##_swap(T *a, T *b)                                                            \
    {                                                                                              \
        T t = *a;                                                                                  \
        *a = *b;                                                                                   \
        *b = t;                                                                                    \
    }                                                                                              \
                                                                                                   \
    static void name##_insertion(T *d, int n)                                                      \
    {                                                                                              \
        for (int i = 1; i < n; ++i) {                                                              \
            T x = d[i];                                                                            \
            int j = i;                                                                             \
            for (; j > 0 && less(&x, &d[j - 1]); --j)                                              \
                d[j] = d[j - 1];                                                                   \
            d[j] = x;                                                                              \
        }                                                                                          \
    }                                                                                              \
                                                                                                   \
    static void name##_sift(T *d, int root, int n)                                                 \
    {                                                                                              \
        for (int child = 2 * root + 1; child < n; root = child, child = 2 * root + 1) {            \
            if (child + 1 < n && less(&d[child], &d[child + 1]))                                   \
                ++child;                                                                           \
            if (!less(&d[root], &d[child]))                                                        \
                return;                                                                            \
            name##_swap(&d[root], &d[child]);                                                      \
        }                                                                                          \
    }                                                                                              \
                                                                                                   \
    static void name##_heap(T *d, int n)                                                           \
    {                                                                                              \
        for (int i = n / 2 - 1; i >= 0; --i)                                                       \
            name##_sift(d, i, n);                                                                  \
        for (int end = n - 1; end > 0; --end) {                                                    \
            name##_swap(&d[0], &d[end]);                                                           \
            name##_sift(d, 0, end);                                                                \
        }                                                                                          \
    }                                                                                              \
                                                                                                   \
    /* Orders d[0], d[mid], d[n - 1] and splits around the median (in d[mid]); returns the         \
       first index of the upper part. */                                                           \
    static int name##_partition(T *d, int n)                                                       \
    {                                                                                              \
        int mid = n / 2;                                                                           \
        if (less(&d[mid], &d[0]))                                                                  \
            name##_swap(&d[mid], &d[0]);                                                           \
        if (less(&d[n - 1], &d[mid])) {                                                            \
            name##_swap(&d[n - 1], &d[mid]);                                                       \
            if (less(&d[mid], &d[0]))                                                              \
                name##_swap(&d[mid], &d[0]);                                                       \
        }                                                                                          \
        T pivot = d[mid];                                                                          \
        int i = 0, j = n - 1;                                                                      \
        for (;;) {                                                                                 \
            do                                                                                     \
                ++i;                                                                               \
            while (less(&d[i], &pivot));                                                           \
            do                                                                                     \
                --j;                                                                               \
            while (less(&pivot, &d[j]));                                                           \
            if (i >= j)                                                                            \
                return j + 1;                                                                      \
            name##_swap(&d[i], &d[j]);                                                             \
        }                                                                                          \
    }                                                                                              \
                                                                                                   \
    static void name##_intro(T *d, int n, int depth)                                               \
    {                                                                                              \
        while (n > SORT_INSERTION_LIMIT) {                                                         \
            if (depth-- == 0) {                                                                    \
                name##_heap(d, n);                                                                 \
                return;                                                                            \
            }                                                                                      \
            int split = name##_partition(d, n);                                                    \
            /* recurse into the smaller part, loop on the larger: O(log n) stack */                \
            if (split < n - split) {                                                               \
                name##_intro(d, split, depth);                                                     \
                d += split;                                                                        \
                n -= split;                                                                        \
            } else {                                                                               \
                name##_intro(d + split, n - split, depth);                                         \
                n = split;                                                                         \
            }                                                                                      \
        }                                                                                          \
        name##_insertion(d, n);                                                                    \
    }                                                                                              \
                                                                                                   \
    static void name(T *data, int count)                                                           \
    {                                                                                              \
        int depth = 0;                                                                             \
        for (int n = count; n > 1; n >>= 1)                                                        \
            depth += 2;                                                                            \
        name##_intro(data, count, depth);                                                          \
    }

#endif
