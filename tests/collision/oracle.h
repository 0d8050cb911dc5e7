/* An exact, independent oracle for narrow-phase queries between convex polytopes, in double
   precision, written from the definitions and not from the engine's algorithms:

   - separated: the distance is the minimum, over every pair of boundary triangles (polygonal
     faces fan-triangulated), of the triangle-triangle distance (6 vertex-triangle distances,
     9 segment-segment distances, 0 when an edge pierces the other triangle);
   - overlapping: the penetration depth is the minimum overlap of the projections over every face
     normal of A, every face normal of B and every normalised cross product of an edge of A with
     an edge of B (brute-force SAT, no pruning). The axis that achieves it is the normal.

   Also: a PRNG, transforms in double, signed distances to the surface of every shape type (from
   the shape's parameters), and checks of a cairn_query_result that need no test framework, so
   the benchmark can include this header too. Everything is static inline (no unused warnings). */
#ifndef CAIRN_TESTS_COLLISION_ORACLE_H
#define CAIRN_TESTS_COLLISION_ORACLE_H

#include <cairn/cairn.h>
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define ORACLE_PI 3.14159265358979323846

#define ORACLE_MAX_VERTS 64
#define ORACLE_MAX_FACES 128
#define ORACLE_MAX_TRIS  128
#define ORACLE_MAX_EDGES 192

/* ------------------------------------------------------------------------------------------ */
/* PRNG: splitmix64 for seeding, xoshiro256** for the stream. */

typedef struct oracle_rng {
    uint64_t s[4];
} oracle_rng;

static inline uint64_t oracle_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline void oracle_rng_seed(oracle_rng *rng, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; ++i)
        rng->s[i] = oracle_splitmix64(&x);
}

static inline uint64_t oracle_rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static inline uint64_t oracle_rng_next(oracle_rng *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = oracle_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = oracle_rotl(s[3], 45);
    return result;
}

/* Uniform in [lo, hi). */
static inline double oracle_uniform(oracle_rng *rng, double lo, double hi)
{
    return lo + (hi - lo) * (double)(oracle_rng_next(rng) >> 11) * (1.0 / 9007199254740992.0);
}

/* Uniform integer in [lo, hi]. */
static inline int oracle_int(oracle_rng *rng, int lo, int hi)
{
    return lo + (int)(oracle_rng_next(rng) % (uint64_t)(hi - lo + 1));
}

static inline vec3s oracle_unit_vector(oracle_rng *rng)
{
    for (;;) {
        double x = oracle_uniform(rng, -1, 1), y = oracle_uniform(rng, -1, 1),
               z = oracle_uniform(rng, -1, 1);
        double l = sqrt(x * x + y * y + z * z);
        if (l > 0.1 && l <= 1.0)
            return (vec3s){{(float)(x / l), (float)(y / l), (float)(z / l)}};
    }
}

/* A unit quaternion, uniform over rotations, normalised in float. */
static inline versors oracle_rotation(oracle_rng *rng)
{
    for (;;) {
        double q[4], l = 0;
        for (int i = 0; i < 4; ++i) {
            q[i] = oracle_uniform(rng, -1, 1);
            l += q[i] * q[i];
        }
        if (l > 0.01 && l <= 1.0) {
            l = sqrt(l);
            versors r = {
                {(float)(q[0] / l), (float)(q[1] / l), (float)(q[2] / l), (float)(q[3] / l)}};
            return glms_quat_normalize(r);
        }
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Small double vector helpers. */

static inline void ov_set(double r[3], double x, double y, double z)
{
    r[0] = x;
    r[1] = y;
    r[2] = z;
}
static inline void ov_copy(double r[3], const double a[3])
{
    r[0] = a[0];
    r[1] = a[1];
    r[2] = a[2];
}
static inline void ov_from(double r[3], vec3s v)
{
    ov_set(r, v.x, v.y, v.z);
}
static inline vec3s ov_to(const double a[3])
{
    return (vec3s){{(float)a[0], (float)a[1], (float)a[2]}};
}
static inline void ov_sub(double r[3], const double a[3], const double b[3])
{
    r[0] = a[0] - b[0];
    r[1] = a[1] - b[1];
    r[2] = a[2] - b[2];
}
static inline void ov_add(double r[3], const double a[3], const double b[3])
{
    r[0] = a[0] + b[0];
    r[1] = a[1] + b[1];
    r[2] = a[2] + b[2];
}
/* r = a + s * b */
static inline void ov_madd(double r[3], const double a[3], double s, const double b[3])
{
    r[0] = a[0] + s * b[0];
    r[1] = a[1] + s * b[1];
    r[2] = a[2] + s * b[2];
}
static inline double ov_dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
static inline void ov_cross(double r[3], const double a[3], const double b[3])
{
    double x = a[1] * b[2] - a[2] * b[1];
    double y = a[2] * b[0] - a[0] * b[2];
    double z = a[0] * b[1] - a[1] * b[0];
    ov_set(r, x, y, z);
}
static inline double ov_norm(const double a[3])
{
    return sqrt(ov_dot(a, a));
}
static inline double ov_dist(const double a[3], const double b[3])
{
    double d[3];
    ov_sub(d, a, b);
    return ov_norm(d);
}
static inline double oracle_clamp01(double x)
{
    return x < 0 ? 0 : (x > 1 ? 1 : x);
}

/* ------------------------------------------------------------------------------------------ */
/* Transforms in double: world = R(q) local + p, q = (x, y, z, w) as cglm stores it. */

typedef struct oracle_xf {
    double r[3][3];
    double p[3];
} oracle_xf;

static inline oracle_xf oracle_xf_from(cairn_transform xf)
{
    double x = xf.rotation.raw[0], y = xf.rotation.raw[1], z = xf.rotation.raw[2],
           w = xf.rotation.raw[3];
    double l = sqrt(x * x + y * y + z * z + w * w);
    x /= l;
    y /= l;
    z /= l;
    w /= l;
    oracle_xf o;
    o.r[0][0] = 1 - 2 * (y * y + z * z);
    o.r[0][1] = 2 * (x * y - z * w);
    o.r[0][2] = 2 * (x * z + y * w);
    o.r[1][0] = 2 * (x * y + z * w);
    o.r[1][1] = 1 - 2 * (x * x + z * z);
    o.r[1][2] = 2 * (y * z - x * w);
    o.r[2][0] = 2 * (x * z - y * w);
    o.r[2][1] = 2 * (y * z + x * w);
    o.r[2][2] = 1 - 2 * (x * x + y * y);
    ov_from(o.p, xf.position);
    return o;
}

static inline void oracle_xf_point(const oracle_xf *xf, const double local[3], double world[3])
{
    double r[3];
    for (int i = 0; i < 3; ++i)
        r[i] = xf->r[i][0] * local[0] + xf->r[i][1] * local[1] + xf->r[i][2] * local[2] + xf->p[i];
    ov_copy(world, r);
}

static inline void oracle_xf_dir(const oracle_xf *xf, const double local[3], double world[3])
{
    double r[3];
    for (int i = 0; i < 3; ++i)
        r[i] = xf->r[i][0] * local[0] + xf->r[i][1] * local[1] + xf->r[i][2] * local[2];
    ov_copy(world, r);
}

/* local = R^T (world - p) */
static inline void oracle_xf_inv_point(const oracle_xf *xf, const double world[3], double local[3])
{
    double d[3], r[3];
    ov_sub(d, world, xf->p);
    for (int i = 0; i < 3; ++i)
        r[i] = xf->r[0][i] * d[0] + xf->r[1][i] * d[1] + xf->r[2][i] * d[2];
    ov_copy(local, r);
}

static inline void oracle_xf_inv_dir(const oracle_xf *xf, const double world[3], double local[3])
{
    double r[3];
    for (int i = 0; i < 3; ++i)
        r[i] = xf->r[0][i] * world[0] + xf->r[1][i] * world[1] + xf->r[2][i] * world[2];
    ov_copy(local, r);
}

static inline versors oracle_axis_angle(double ax, double ay, double az, double angle)
{
    double l = sqrt(ax * ax + ay * ay + az * az);
    double s = sin(0.5 * angle) / l;
    return (versors){{(float)(ax * s), (float)(ay * s), (float)(az * s), (float)cos(0.5 * angle)}};
}

static inline cairn_transform oracle_transform(double x, double y, double z, versors q)
{
    cairn_transform xf;
    xf.position = (vec3s){{(float)x, (float)y, (float)z}};
    xf.rotation = q;
    return xf;
}

static inline versors oracle_quat_identity(void)
{
    return (versors){{0, 0, 0, 1}};
}

/* ------------------------------------------------------------------------------------------ */
/* Closest points between primitives. */

/* Closest point to p on segment [a, b]; returns the distance. */
static inline double oracle_point_segment(const double p[3], const double a[3], const double b[3],
                                          double closest[3])
{
    double ab[3], ap[3];
    ov_sub(ab, b, a);
    ov_sub(ap, p, a);
    double len2 = ov_dot(ab, ab);
    double t = len2 > 0 ? oracle_clamp01(ov_dot(ap, ab) / len2) : 0;
    double c[3];
    ov_madd(c, a, t, ab);
    if (closest)
        ov_copy(closest, c);
    return ov_dist(p, c);
}

/* Closest points of segments [p1, q1] and [p2, q2] (c1 on the first, c2 on the second); returns
   the distance. The general solution, kept only when no endpoint-to-segment pair is closer, so
   near-parallel segments (where the 2x2 system is ill-conditioned) stay exact. */
static inline double oracle_segment_segment(const double p1[3], const double q1[3],
                                            const double p2[3], const double q2[3], double c1[3],
                                            double c2[3])
{
    double d1[3], d2[3], r[3];
    ov_sub(d1, q1, p1);
    ov_sub(d2, q2, p2);
    ov_sub(r, p1, p2);
    double a = ov_dot(d1, d1), e = ov_dot(d2, d2), f = ov_dot(d2, r);
    double s = 0, t = 0;
    if (a <= 0 && e <= 0) {
        s = t = 0;
    } else if (a <= 0) {
        s = 0;
        t = oracle_clamp01(f / e);
    } else {
        double c = ov_dot(d1, r);
        if (e <= 0) {
            t = 0;
            s = oracle_clamp01(-c / a);
        } else {
            double b = ov_dot(d1, d2);
            double denom = a * e - b * b;
            s = denom > 1e-14 * a * e ? oracle_clamp01((b * f - c * e) / denom) : 0;
            t = (b * s + f) / e;
            if (t < 0) {
                t = 0;
                s = oracle_clamp01(-c / a);
            } else if (t > 1) {
                t = 1;
                s = oracle_clamp01((b - c) / a);
            }
        }
    }
    double x1[3], x2[3];
    ov_madd(x1, p1, s, d1);
    ov_madd(x2, p2, t, d2);
    double best = ov_dist(x1, x2);
    /* endpoint candidates */
    double y[3], dd;
    if ((dd = oracle_point_segment(p1, p2, q2, y)) < best) {
        best = dd;
        ov_copy(x1, p1);
        ov_copy(x2, y);
    }
    if ((dd = oracle_point_segment(q1, p2, q2, y)) < best) {
        best = dd;
        ov_copy(x1, q1);
        ov_copy(x2, y);
    }
    if ((dd = oracle_point_segment(p2, p1, q1, y)) < best) {
        best = dd;
        ov_copy(x1, y);
        ov_copy(x2, p2);
    }
    if ((dd = oracle_point_segment(q2, p1, q1, y)) < best) {
        best = dd;
        ov_copy(x1, y);
        ov_copy(x2, q2);
    }
    if (c1)
        ov_copy(c1, x1);
    if (c2)
        ov_copy(c2, x2);
    return best;
}

/* Closest point to p on triangle (a, b, c), by Voronoi regions of the vertices, edges and face;
   returns the distance. A degenerate triangle falls back to its three edges. */
static inline double oracle_point_triangle(const double p[3], const double a[3], const double b[3],
                                           const double c[3], double closest[3])
{
    double ab[3], ac[3], ap[3], bp[3], cp[3], r[3];
    ov_sub(ab, b, a);
    ov_sub(ac, c, a);
    ov_sub(ap, p, a);
    double d1 = ov_dot(ab, ap), d2 = ov_dot(ac, ap);
    if (d1 <= 0 && d2 <= 0) {
        ov_copy(r, a);
        goto done;
    }
    ov_sub(bp, p, b);
    double d3 = ov_dot(ab, bp), d4 = ov_dot(ac, bp);
    if (d3 >= 0 && d4 <= d3) {
        ov_copy(r, b);
        goto done;
    }
    double vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) {
        double v = d1 / (d1 - d3);
        ov_madd(r, a, v, ab);
        goto done;
    }
    ov_sub(cp, p, c);
    double d5 = ov_dot(ab, cp), d6 = ov_dot(ac, cp);
    if (d6 >= 0 && d5 <= d6) {
        ov_copy(r, c);
        goto done;
    }
    double vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) {
        double w = d2 / (d2 - d6);
        ov_madd(r, a, w, ac);
        goto done;
    }
    double va = d3 * d6 - d5 * d4;
    if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
        double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        double bc[3];
        ov_sub(bc, c, b);
        ov_madd(r, b, w, bc);
        goto done;
    }
    {
        double sum = va + vb + vc;
        double n[3];
        ov_cross(n, ab, ac);
        if (!(sum > 0) || ov_dot(n, n) <= 1e-24 * ov_dot(ab, ab) * ov_dot(ac, ac)) {
            /* degenerate: the closest of the three edges */
            double y[3], best = oracle_point_segment(p, a, b, r);
            double dd = oracle_point_segment(p, b, c, y);
            if (dd < best) {
                best = dd;
                ov_copy(r, y);
            }
            dd = oracle_point_segment(p, c, a, y);
            if (dd < best)
                ov_copy(r, y);
            goto done;
        }
        double v = vb / sum, w = vc / sum;
        ov_madd(r, a, v, ab);
        ov_madd(r, r, w, ac);
    }
done:
    if (closest)
        ov_copy(closest, r);
    return ov_dist(p, r);
}

/* Where segment [p, q] crosses the plane of triangle (a, b, c), if it does, the distance from the
   crossing point to the triangle (0 when the segment pierces it); INFINITY otherwise. */
static inline double oracle_segment_pierce(const double p[3], const double q[3], const double a[3],
                                           const double b[3], const double c[3], double on_seg[3],
                                           double on_tri[3])
{
    double ab[3], ac[3], n[3], ap[3], aq[3];
    ov_sub(ab, b, a);
    ov_sub(ac, c, a);
    ov_cross(n, ab, ac);
    if (ov_dot(n, n) <= 0)
        return INFINITY;
    ov_sub(ap, p, a);
    ov_sub(aq, q, a);
    double dp = ov_dot(n, ap), dq = ov_dot(n, aq);
    if ((dp > 0 && dq > 0) || (dp < 0 && dq < 0) || dp == dq)
        return INFINITY;
    double t = dp / (dp - dq), x[3], pq[3], y[3];
    ov_sub(pq, q, p);
    ov_madd(x, p, t, pq);
    double d = oracle_point_triangle(x, a, b, c, y);
    ov_copy(on_seg, x);
    ov_copy(on_tri, y);
    return d;
}

/* Exact distance between triangles A = (a0, a1, a2) and B = (b0, b1, b2), with closest points. */
static inline double oracle_triangle_triangle(const double *const ta[3], const double *const tb[3],
                                              double ca[3], double cb[3])
{
    double best = INFINITY, x[3], y[3], d;
    double bx[3] = {0, 0, 0}, by[3] = {0, 0, 0};
    for (int i = 0; i < 3; ++i) {
        d = oracle_point_triangle(ta[i], tb[0], tb[1], tb[2], y);
        if (d < best) {
            best = d;
            ov_copy(bx, ta[i]);
            ov_copy(by, y);
        }
        d = oracle_point_triangle(tb[i], ta[0], ta[1], ta[2], x);
        if (d < best) {
            best = d;
            ov_copy(bx, x);
            ov_copy(by, tb[i]);
        }
    }
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            d = oracle_segment_segment(ta[i], ta[(i + 1) % 3], tb[j], tb[(j + 1) % 3], x, y);
            if (d < best) {
                best = d;
                ov_copy(bx, x);
                ov_copy(by, y);
            }
        }
    }
    /* an edge of one piercing the other: the shapes intersect */
    for (int i = 0; i < 3; ++i) {
        d = oracle_segment_pierce(ta[i], ta[(i + 1) % 3], tb[0], tb[1], tb[2], x, y);
        if (d < best) {
            best = d;
            ov_copy(bx, x);
            ov_copy(by, y);
        }
        d = oracle_segment_pierce(tb[i], tb[(i + 1) % 3], ta[0], ta[1], ta[2], y, x);
        if (d < best) {
            best = d;
            ov_copy(bx, x);
            ov_copy(by, y);
        }
    }
    if (ca)
        ov_copy(ca, bx);
    if (cb)
        ov_copy(cb, by);
    return best;
}

/* ------------------------------------------------------------------------------------------ */
/* Convex polytopes in world space. */

typedef struct oracle_poly {
    int nv, nf, nt, ne;
    double v[ORACLE_MAX_VERTS][3];
    double fn[ORACLE_MAX_FACES][3]; /* outward unit normals */
    double fd[ORACLE_MAX_FACES];    /* plane offsets: dot(fn, x) = fd on the face */
    int tri[ORACLE_MAX_TRIS][3];
    double tlo[ORACLE_MAX_TRIS][3], thi[ORACLE_MAX_TRIS][3];
    int edge[ORACLE_MAX_EDGES][2];
    double centroid[3];
    bool ok; /* false when a capacity was exceeded or a face was degenerate */
} oracle_poly;

static inline void oracle_poly_begin(oracle_poly *p)
{
    p->nv = p->nf = p->nt = p->ne = 0;
    p->ok = true;
    ov_set(p->centroid, 0, 0, 0);
}

static inline void oracle_poly_add_vertex(oracle_poly *p, const double x[3])
{
    if (p->nv >= ORACLE_MAX_VERTS) {
        p->ok = false;
        return;
    }
    ov_copy(p->v[p->nv++], x);
}

/* Call after all vertices are in and before the faces. */
static inline void oracle_poly_vertices_done(oracle_poly *p)
{
    double c[3] = {0, 0, 0};
    for (int i = 0; i < p->nv; ++i)
        ov_add(c, c, p->v[i]);
    if (p->nv > 0)
        for (int k = 0; k < 3; ++k)
            c[k] /= p->nv;
    ov_copy(p->centroid, c);
}

static inline void oracle_poly_add_edge(oracle_poly *p, int a, int b)
{
    int lo = a < b ? a : b, hi = a < b ? b : a;
    for (int e = 0; e < p->ne; ++e)
        if (p->edge[e][0] == lo && p->edge[e][1] == hi)
            return;
    if (p->ne >= ORACLE_MAX_EDGES) {
        p->ok = false;
        return;
    }
    p->edge[p->ne][0] = lo;
    p->edge[p->ne][1] = hi;
    p->ne++;
}

/* A convex polygonal face given by vertex indices in order (either winding): the normal comes from
   Newell's method in double and is oriented away from the centroid; the offset is the largest
   projection of the face's vertices (so every vertex lies behind every plane up to rounding). */
static inline void oracle_poly_add_face(oracle_poly *p, const int *idx, int count)
{
    if (count < 3 || p->nf >= ORACLE_MAX_FACES) {
        p->ok = false;
        return;
    }
    double n[3] = {0, 0, 0};
    for (int i = 0; i < count; ++i) {
        const double *a = p->v[idx[i]], *b = p->v[idx[(i + 1) % count]];
        n[0] += (a[1] - b[1]) * (a[2] + b[2]);
        n[1] += (a[2] - b[2]) * (a[0] + b[0]);
        n[2] += (a[0] - b[0]) * (a[1] + b[1]);
    }
    double l = ov_norm(n);
    if (!(l > 0)) {
        p->ok = false;
        return;
    }
    for (int k = 0; k < 3; ++k)
        n[k] /= l;
    double to_centroid[3];
    ov_sub(to_centroid, p->centroid, p->v[idx[0]]);
    if (ov_dot(n, to_centroid) > 0)
        for (int k = 0; k < 3; ++k)
            n[k] = -n[k];
    double d = -INFINITY;
    for (int i = 0; i < count; ++i)
        d = fmax(d, ov_dot(n, p->v[idx[i]]));
    ov_copy(p->fn[p->nf], n);
    p->fd[p->nf] = d;
    p->nf++;
    for (int i = 1; i + 1 < count; ++i) {
        if (p->nt >= ORACLE_MAX_TRIS) {
            p->ok = false;
            return;
        }
        int *t = p->tri[p->nt];
        t[0] = idx[0];
        t[1] = idx[i];
        t[2] = idx[i + 1];
        for (int k = 0; k < 3; ++k) {
            p->tlo[p->nt][k] = fmin(p->v[t[0]][k], fmin(p->v[t[1]][k], p->v[t[2]][k]));
            p->thi[p->nt][k] = fmax(p->v[t[0]][k], fmax(p->v[t[1]][k], p->v[t[2]][k]));
        }
        p->nt++;
    }
    for (int i = 0; i < count; ++i)
        oracle_poly_add_edge(p, idx[i], idx[(i + 1) % count]);
}

/* The outer hull of a hull shape (through the public topology accessors), in world space. */
static inline void oracle_poly_from_hull(oracle_poly *p, const cairn_shape *shape,
                                         cairn_transform xf)
{
    oracle_xf x = oracle_xf_from(xf);
    oracle_poly_begin(p);
    int nv = cairn_hull_vertex_count(shape);
    for (int i = 0; i < nv; ++i) {
        double local[3], world[3];
        ov_from(local, cairn_hull_vertex(shape, i));
        oracle_xf_point(&x, local, world);
        oracle_poly_add_vertex(p, world);
    }
    oracle_poly_vertices_done(p);
    int nf = cairn_hull_face_count(shape);
    if (nv < 4 || nf < 4)
        p->ok = false;
    for (int f = 0; f < nf; ++f) {
        int idx[ORACLE_MAX_VERTS];
        int count = cairn_hull_face_vertices(shape, f, idx, ORACLE_MAX_VERTS);
        if (count > ORACLE_MAX_VERTS) {
            p->ok = false;
            continue;
        }
        bool valid = true;
        for (int i = 0; i < count; ++i)
            valid = valid && idx[i] >= 0 && idx[i] < nv;
        if (!valid) {
            p->ok = false;
            continue;
        }
        oracle_poly_add_face(p, idx, count);
    }
}

/* A box of the given half extents (its sharp outer box) in world space. */
static inline void oracle_poly_from_box(oracle_poly *p, double hx, double hy, double hz,
                                        cairn_transform xf)
{
    oracle_xf x = oracle_xf_from(xf);
    oracle_poly_begin(p);
    for (int i = 0; i < 8; ++i) {
        double local[3] = {i & 1 ? hx : -hx, i & 2 ? hy : -hy, i & 4 ? hz : -hz}, world[3];
        oracle_xf_point(&x, local, world);
        oracle_poly_add_vertex(p, world);
    }
    oracle_poly_vertices_done(p);
    static const int faces[6][4] = {{0, 2, 6, 4}, {1, 5, 7, 3}, {0, 4, 5, 1},
                                    {2, 3, 7, 6}, {0, 1, 3, 2}, {4, 6, 7, 5}};
    for (int f = 0; f < 6; ++f)
        oracle_poly_add_face(p, faces[f], 4);
}

/* A polytope from world-space points and faces (index lists, each terminated by -1). */
static inline void oracle_poly_from_faces(oracle_poly *p, const double (*pts)[3], int n,
                                          const int *faces)
{
    oracle_poly_begin(p);
    for (int i = 0; i < n; ++i)
        oracle_poly_add_vertex(p, pts[i]);
    oracle_poly_vertices_done(p);
    int idx[ORACLE_MAX_VERTS], count = 0;
    for (const int *f = faces; *f != -2; ++f) {
        if (*f == -1) {
            oracle_poly_add_face(p, idx, count);
            count = 0;
        } else if (count < ORACLE_MAX_VERTS) {
            idx[count++] = *f;
        }
    }
}

/* Signed distance to the polytope by planes: max over faces of dot(n, x) - offset. Exact inside
   and on a face's region outside; a lower bound of the Euclidean distance near edges. */
static inline double oracle_poly_plane_distance(const oracle_poly *p, const double x[3])
{
    double s = -INFINITY;
    for (int f = 0; f < p->nf; ++f)
        s = fmax(s, ov_dot(p->fn[f], x) - p->fd[f]);
    return s;
}

/* Largest distance of a vertex outside a face plane, and of a face's vertex off its plane: a
   closed, convex, consistently oriented polytope has both near 0. Also checks Euler's formula
   V - E + F = 2 over the triangulated surface. */
static inline double oracle_poly_flatness(const oracle_poly *p, bool *euler_ok)
{
    double worst = 0;
    for (int f = 0; f < p->nf; ++f)
        for (int i = 0; i < p->nv; ++i)
            worst = fmax(worst, ov_dot(p->fn[f], p->v[i]) - p->fd[f]);
    if (euler_ok) {
        /* every edge of a closed triangulated surface is shared by exactly two triangles */
        int tri_edges = 3 * p->nt;
        /* triangulated: E_t = 3T/2, V - E_t + T = 2 */
        *euler_ok = (tri_edges % 2 == 0) && (p->nv - tri_edges / 2 + p->nt == 2);
    }
    return worst;
}

static inline void oracle_project(const oracle_poly *p, const double n[3], double *lo, double *hi)
{
    double mn = INFINITY, mx = -INFINITY;
    for (int i = 0; i < p->nv; ++i) {
        double d = n[0] * p->v[i][0] + n[1] * p->v[i][1] + n[2] * p->v[i][2];
        mn = d < mn ? d : mn;
        mx = d > mx ? d : mx;
    }
    *lo = mn;
    *hi = mx;
}

/* Overlap of A and B along n when B is pushed along +n: max_A(n) - min_B(n). Positive: the
   translation of B along n needed to separate; negative: the gap along n. */
static inline double oracle_directed_overlap(const oracle_poly *a, const oracle_poly *b,
                                             const double n[3])
{
    double alo, ahi, blo, bhi;
    oracle_project(a, n, &alo, &ahi);
    oracle_project(b, n, &blo, &bhi);
    return ahi - blo;
}

typedef struct oracle_sat {
    bool overlap;    /* no separating axis among the candidates */
    double depth;    /* min overlap (>= 0) when overlapping; largest gap (> 0) when separated */
    double axis[3];  /* overlapping: direction to push B (A towards B); separated: A->B */
    int axes_tested; /* candidates projected */
} oracle_sat;

static inline bool oracle_sat_axis(const oracle_poly *a, const oracle_poly *b, double u[3],
                                   bool early_exit, oracle_sat *r)
{
    double alo, ahi, blo, bhi;
    oracle_project(a, u, &alo, &ahi);
    oracle_project(b, u, &blo, &bhi);
    double plus = ahi - blo, minus = bhi - alo;
    r->axes_tested++;
    double o = plus < minus ? plus : minus;
    if (o < 0) {
        /* separated along u: the gap is -o */
        if (r->overlap || -o > r->depth) {
            r->overlap = false;
            r->depth = -o;
            double s = plus < minus ? 1 : -1; /* plus < 0: B lies towards +u */
            ov_set(r->axis, s * u[0], s * u[1], s * u[2]);
        }
        return early_exit;
    }
    if (r->overlap && o < r->depth) {
        r->depth = o;
        double s = plus <= minus ? 1 : -1;
        ov_set(r->axis, s * u[0], s * u[1], s * u[2]);
    }
    return false;
}

/* Brute-force SAT over every face normal of both and every edge-edge cross product. With
   early_exit, stops at the first separating axis (then depth is only some gap). */
static inline oracle_sat oracle_sat_query(const oracle_poly *a, const oracle_poly *b,
                                          bool early_exit)
{
    oracle_sat r;
    r.overlap = true;
    r.depth = INFINITY;
    ov_set(r.axis, 0, 0, 1);
    r.axes_tested = 0;
    double u[3];
    for (int f = 0; f < a->nf; ++f) {
        ov_copy(u, a->fn[f]);
        if (oracle_sat_axis(a, b, u, early_exit, &r))
            return r;
    }
    for (int f = 0; f < b->nf; ++f) {
        ov_copy(u, b->fn[f]);
        if (oracle_sat_axis(a, b, u, early_exit, &r))
            return r;
    }
    for (int i = 0; i < a->ne; ++i) {
        double ea[3];
        ov_sub(ea, a->v[a->edge[i][1]], a->v[a->edge[i][0]]);
        double la = ov_norm(ea);
        for (int j = 0; j < b->ne; ++j) {
            double eb[3];
            ov_sub(eb, b->v[b->edge[j][1]], b->v[b->edge[j][0]]);
            double lb = ov_norm(eb);
            ov_cross(u, ea, eb);
            double l = ov_norm(u);
            if (!(l > 1e-9 * la * lb))
                continue;
            for (int k = 0; k < 3; ++k)
                u[k] /= l;
            if (oracle_sat_axis(a, b, u, early_exit, &r))
                return r;
        }
    }
    return r;
}

/* Distance between the boundaries: min over pairs of triangles, with closest points. Boxes of the
   triangles give a lower bound that skips pairs which cannot beat the best so far. */
static inline double oracle_boundary_distance(const oracle_poly *a, const oracle_poly *b,
                                              double pa[3], double pb[3])
{
    double best = INFINITY, x[3], y[3];
    ov_copy(pa, a->v[0]);
    ov_copy(pb, b->v[0]);
    for (int i = 0; i < a->nt; ++i) {
        const double *ta[3] = {a->v[a->tri[i][0]], a->v[a->tri[i][1]], a->v[a->tri[i][2]]};
        for (int j = 0; j < b->nt; ++j) {
            double lb = 0;
            for (int k = 0; k < 3; ++k) {
                double g = fmax(b->tlo[j][k] - a->thi[i][k], a->tlo[i][k] - b->thi[j][k]);
                if (g > 0)
                    lb += g * g;
            }
            if (lb >= best * best)
                continue;
            const double *tb[3] = {b->v[b->tri[j][0]], b->v[b->tri[j][1]], b->v[b->tri[j][2]]};
            double d = oracle_triangle_triangle(ta, tb, x, y);
            if (d < best) {
                best = d;
                ov_copy(pa, x);
                ov_copy(pb, y);
            }
        }
    }
    return best;
}

typedef struct oracle_result {
    bool overlap;
    double distance;     /* separated: >= 0 gap; overlapping: minus the depth */
    double normal[3];    /* unit, A towards B */
    double pa[3], pb[3]; /* separated only: closest points */
} oracle_result;

/* The oracle query for two polytopes. */
static inline oracle_result oracle_query(const oracle_poly *a, const oracle_poly *b)
{
    oracle_result r;
    memset(&r, 0, sizeof r);
    oracle_sat s = oracle_sat_query(a, b, true);
    if (s.overlap) {
        /* early exit never triggered: s holds the full minimum */
        r.overlap = true;
        r.distance = -s.depth;
        ov_copy(r.normal, s.axis);
        return r;
    }
    r.overlap = false;
    r.distance = oracle_boundary_distance(a, b, r.pa, r.pb);
    double d[3];
    ov_sub(d, r.pb, r.pa);
    double l = ov_norm(d);
    if (l > 0)
        ov_set(r.normal, d[0] / l, d[1] / l, d[2] / l);
    else
        ov_copy(r.normal, s.axis);
    return r;
}

/* ------------------------------------------------------------------------------------------ */
/* Any shape type: signed distance to the full surface (convex radius included), from the shape's
   parameters; hulls by the planes of the outer hull. In world space. */

static inline double oracle_shape_sdf(const cairn_shape *shape, cairn_transform xf,
                                      const double world[3])
{
    oracle_xf x = oracle_xf_from(xf);
    double p[3];
    oracle_xf_inv_point(&x, world, p);
    cairn_shape_params s = cairn_shape_get_params(shape);
    double rc = s.convex_radius;
    switch (s.type) {
    case CAIRN_SHAPE_SPHERE:
        return ov_norm(p) - s.radius;
    case CAIRN_SHAPE_BOX: {
        double q[3], out = 0, in = -INFINITY;
        for (int k = 0; k < 3; ++k) {
            q[k] = fabs(p[k]) - (s.half_extents.raw[k] - rc);
            out += q[k] > 0 ? q[k] * q[k] : 0;
            in = fmax(in, q[k]);
        }
        return sqrt(out) + fmin(in, 0) - rc;
    }
    case CAIRN_SHAPE_CAPSULE: {
        double y = fabs(p[1]) - s.half_height;
        y = y > 0 ? y : 0;
        return sqrt(p[0] * p[0] + y * y + p[2] * p[2]) - s.radius;
    }
    case CAIRN_SHAPE_CYLINDER: {
        double dr = sqrt(p[0] * p[0] + p[2] * p[2]) - (s.radius - rc);
        double dy = fabs(p[1]) - (s.half_height - rc);
        double ox = dr > 0 ? dr : 0, oy = dy > 0 ? dy : 0;
        return fmin(fmax(dr, dy), 0) + sqrt(ox * ox + oy * oy) - rc;
    }
    case CAIRN_SHAPE_HULL: {
        double best = -INFINITY;
        for (int f = 0; f < cairn_hull_face_count(shape); ++f) {
            float offset;
            vec3s n = cairn_hull_face_normal(shape, f, &offset);
            best = fmax(best, n.x * p[0] + n.y * p[1] + n.z * p[2] - offset);
        }
        return best;
    }
    case CAIRN_SHAPE_MESH:
    case CAIRN_SHAPE_HEIGHTFIELD:
    case CAIRN_SHAPE_COMPOUND: /* the oracle covers the convex shapes only */
        break;
    }
    return INFINITY;
}

/* Support value h(n) = max over the full shape of dot(n, x), world space, through the public
   support mapping (tested on its own by the geometry tests). */
static inline double oracle_shape_support_value(const cairn_shape *shape, cairn_transform xf,
                                                const double n[3])
{
    oracle_xf x = oracle_xf_from(xf);
    double ln[3], lp[3], wp[3];
    oracle_xf_inv_dir(&x, n, ln);
    ov_from(lp, cairn_shape_support(shape, ov_to(ln)));
    oracle_xf_point(&x, lp, wp);
    return ov_dot(n, wp);
}

/* Directed overlap along n for any two shapes: h_A(n) + h_B(-n). For the returned normal this
   must be the depth (overlapping) or minus the distance (separated). */
static inline double oracle_shape_directed_overlap(const cairn_shape *a, cairn_transform xa,
                                                   const cairn_shape *b, cairn_transform xb,
                                                   const double n[3])
{
    double m[3] = {-n[0], -n[1], -n[2]};
    return oracle_shape_support_value(a, xa, n) + oracle_shape_support_value(b, xb, m);
}

/* ------------------------------------------------------------------------------------------ */
/* Checks of a query result that hold for every pair of shapes. Each returns a bitmask of the
   violated properties (0 when all hold). */

enum {
    ORACLE_BAD_FINITE = 1 << 0,  /* a NaN or Inf in the result */
    ORACLE_BAD_UNIT = 1 << 1,    /* |normal| not within 1e-4 of 1 */
    ORACLE_BAD_SIGN = 1 << 2,    /* overlap but distance > 0, or separated but distance < 0 */
    ORACLE_BAD_WITNESS = 1 << 3, /* point_b - point_a != distance * normal */
    ORACLE_BAD_AABB = 1 << 4,    /* a witness point outside its shape's (expanded) bounds */
    ORACLE_BAD_ITER = 1 << 5,    /* iteration counts out of [0, bound) */
};

static inline bool oracle_finite_vec(vec3s v)
{
    return isfinite(v.x) && isfinite(v.y) && isfinite(v.z);
}

static inline bool oracle_in_aabb(cairn_aabb box, vec3s p, double slack)
{
    for (int k = 0; k < 3; ++k)
        if (p.raw[k] < box.min.raw[k] - slack || p.raw[k] > box.max.raw[k] + slack)
            return false;
    return true;
}

static inline int oracle_check_basic(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                                     cairn_transform xb, const cairn_query_result *r,
                                     double witness_tol, double aabb_slack, int iteration_bound)
{
    int bad = 0;
    if (!isfinite(r->distance) || !oracle_finite_vec(r->normal) || !oracle_finite_vec(r->point_a) ||
        !oracle_finite_vec(r->point_b))
        return ORACLE_BAD_FINITE;
    double n[3];
    ov_from(n, r->normal);
    if (fabs(ov_norm(n) - 1.0) > 1e-4)
        bad |= ORACLE_BAD_UNIT;
    if ((r->overlap && r->distance > 0) || (!r->overlap && r->distance < 0))
        bad |= ORACLE_BAD_SIGN;
    double pa[3], pb[3], d[3];
    ov_from(pa, r->point_a);
    ov_from(pb, r->point_b);
    ov_sub(d, pb, pa);
    ov_madd(d, d, -(double)r->distance, n);
    if (ov_norm(d) > witness_tol)
        bad |= ORACLE_BAD_WITNESS;
    if (!oracle_in_aabb(cairn_shape_bounds(a, xa), r->point_a, aabb_slack) ||
        !oracle_in_aabb(cairn_shape_bounds(b, xb), r->point_b, aabb_slack))
        bad |= ORACLE_BAD_AABB;
    if (r->gjk_iterations < 0 || r->gjk_iterations >= iteration_bound || r->epa_iterations < 0 ||
        r->epa_iterations >= iteration_bound)
        bad |= ORACLE_BAD_ITER;
    return bad;
}

static inline void oracle_describe_bad(int bad, char *buf, size_t size)
{
    static const char *names[] = {"non-finite",       "non-unit normal",      "sign",
                                  "witness relation", "witness outside AABB", "iterations"};
    buf[0] = '\0';
    size_t used = 0;
    for (int i = 0; i < 6; ++i)
        if (bad & (1 << i)) {
            int w = snprintf(buf + used, size - used, "%s%s", used ? ", " : "", names[i]);
            if (w < 0 || (size_t)w >= size - used)
                return;
            used += (size_t)w;
        }
}

static inline void oracle_print_result(FILE *f, const char *label, const cairn_query_result *r)
{
    fprintf(f,
            "  %s: overlap=%d distance=%.9g normal=(%.7f %.7f %.7f) a=(%.7g %.7g %.7g) "
            "b=(%.7g %.7g %.7g) gjk=%d epa=%d\n",
            label, r->overlap, (double)r->distance, (double)r->normal.x, (double)r->normal.y,
            (double)r->normal.z, (double)r->point_a.x, (double)r->point_a.y, (double)r->point_a.z,
            (double)r->point_b.x, (double)r->point_b.y, (double)r->point_b.z, r->gjk_iterations,
            r->epa_iterations);
}

/* ------------------------------------------------------------------------------------------ */
/* Known answers: one query result against an expectation, with every contract property checked.
   `far` is the distance of the pair from the origin: float positions there carry rounding of
   about far * FLT_EPSILON, which widens every tolerance by 4 * far * FLT_EPSILON. */

typedef struct oracle_expect {
    int overlap;       /* 1 or 0; -1: not checked */
    bool has_distance; /* distance known */
    double distance;   /* separated: gap; overlapping: minus the depth */
    double tol;        /* tolerance on the distance at the origin */
    int normal_count;  /* accepted normals (A towards B); 0: any that is consistent */
    double normals[4][3];
    double normal_tol;  /* |n - accepted| at the origin; 0 means 1e-3 */
    bool perpendicular; /* instead: the normal must be perpendicular to normals[0] */
} oracle_expect;

static inline double oracle_far_slack(double far)
{
    return 4.0 * far * FLT_EPSILON;
}

/* Returns true when everything holds; otherwise writes what failed into msg. */
static inline bool oracle_check_expect(const cairn_shape *a, cairn_transform xa,
                                       const cairn_shape *b, cairn_transform xb,
                                       const cairn_query_result *r, const oracle_expect *e,
                                       double far, char *msg, size_t size)
{
    double slack = oracle_far_slack(far);
    int used = 0;
    msg[0] = '\0';
#define ORACLE_FAIL(...)                                                                           \
    do {                                                                                           \
        if (used >= 0 && (size_t)used < size) {                                                    \
            int w_ = snprintf(msg + used, size - (size_t)used, __VA_ARGS__);                       \
            used = w_ < 0 ? -1 : used + w_;                                                        \
        }                                                                                          \
    } while (0)
    int bad = oracle_check_basic(a, xa, b, xb, r, 1e-4 + slack, 1e-3 + slack, 256);
    if (bad) {
        char names[160];
        oracle_describe_bad(bad, names, sizeof names);
        ORACLE_FAIL("[%s] ", names);
        if (bad & ORACLE_BAD_FINITE)
            return false;
    }
    /* witness points on their surfaces (rounded hulls have no exact planes: skipped) */
    double pa[3], pb[3];
    ov_from(pa, r->point_a);
    ov_from(pb, r->point_b);
    bool plane_a = cairn_shape_get_type(a) != CAIRN_SHAPE_HULL || cairn_shape_convex_radius(a) == 0;
    bool plane_b = cairn_shape_get_type(b) != CAIRN_SHAPE_HULL || cairn_shape_convex_radius(b) == 0;
    double sa = plane_a ? oracle_shape_sdf(a, xa, pa) : 0;
    double sb = plane_b ? oracle_shape_sdf(b, xb, pb) : 0;
    if (!(fabs(sa) <= 1e-4 + slack) || !(fabs(sb) <= 1e-4 + slack))
        ORACLE_FAIL("[witness off surface: a %.3g, b %.3g] ", sa, sb);
    /* the normal achieves the distance: h_A(n) + h_B(-n) = -distance */
    double n[3];
    ov_from(n, r->normal);
    double l = ov_norm(n);
    if (l > 0)
        for (int k = 0; k < 3; ++k)
            n[k] /= l;
    double value = e->has_distance ? e->distance : (double)r->distance;
    double directed = oracle_shape_directed_overlap(a, xa, b, xb, n);
    if (!(fabs(directed + value) <= 1e-3 + slack))
        ORACLE_FAIL("[normal does not achieve the distance: h_A(n)+h_B(-n) = %.9g, distance "
                    "%.9g] ",
                    directed, value);
    if (e->has_distance) {
        double tol = e->tol + slack;
        if (!(fabs((double)r->distance - e->distance) <= tol))
            ORACLE_FAIL("[distance %.9g, expected %.9g (tol %.3g)] ", (double)r->distance,
                        e->distance, tol);
    }
    bool decided = !e->has_distance || fabs(e->distance) > 1e-5 + e->tol + slack;
    if (e->overlap >= 0 && decided && r->overlap != (e->overlap == 1))
        ORACLE_FAIL("[verdict %d, expected %d] ", r->overlap, e->overlap);
    double ntol = (e->normal_tol > 0 ? e->normal_tol : 1e-3) + slack;
    if (e->perpendicular) {
        if (!(fabs(ov_dot(n, e->normals[0])) <= ntol))
            ORACLE_FAIL("[normal (%.7f %.7f %.7f) not perpendicular to (%g %g %g)] ", n[0], n[1],
                        n[2], e->normals[0][0], e->normals[0][1], e->normals[0][2]);
    } else if (e->normal_count > 0) {
        double best = INFINITY;
        for (int i = 0; i < e->normal_count; ++i)
            best = fmin(best, ov_dist(n, e->normals[i]));
        if (!(best <= ntol))
            ORACLE_FAIL("[normal (%.7f %.7f %.7f), expected (%g %g %g)%s] ", n[0], n[1], n[2],
                        e->normals[0][0], e->normals[0][1], e->normals[0][2],
                        e->normal_count > 1 ? " or another" : "");
    }
#undef ORACLE_FAIL
    return used == 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Random hulls for the tests and the benchmark. */

/* count points in a box of random half sizes in [0.25, 0.6] around a small random offset. */
static inline void oracle_random_points(oracle_rng *rng, vec3s *out, int count)
{
    double h[3], c[3];
    for (int k = 0; k < 3; ++k) {
        h[k] = oracle_uniform(rng, 0.25, 0.6);
        c[k] = oracle_uniform(rng, -0.15, 0.15);
    }
    for (int i = 0; i < count; ++i)
        for (int k = 0; k < 3; ++k)
            out[i].raw[k] = (float)(c[k] + oracle_uniform(rng, -h[k], h[k]));
}

/* count points on an ellipsoid of random semi-axes in [0.3, 0.6] (all become hull vertices). */
static inline void oracle_random_ellipsoid_points(oracle_rng *rng, vec3s *out, int count)
{
    double h[3];
    for (int k = 0; k < 3; ++k)
        h[k] = oracle_uniform(rng, 0.3, 0.6);
    for (int i = 0; i < count; ++i) {
        vec3s u = oracle_unit_vector(rng);
        for (int k = 0; k < 3; ++k)
            out[i].raw[k] = (float)(h[k] * u.raw[k]);
    }
}

/* Every hull vertex is one of the input points, every input point is inside the hull (within
   tol), and the topology is a closed convex polytope. */
static inline bool oracle_hull_matches_points(const cairn_shape *shape, const vec3s *pts, int n,
                                              double tol)
{
    oracle_poly p;
    cairn_transform id = {{{0, 0, 0}}, {{0, 0, 0, 1}}};
    oracle_poly_from_hull(&p, shape, id);
    if (!p.ok)
        return false;
    bool euler = false;
    if (oracle_poly_flatness(&p, &euler) > tol || !euler)
        return false;
    for (int i = 0; i < p.nv; ++i) {
        bool found = false;
        for (int j = 0; j < n && !found; ++j)
            found = p.v[i][0] == pts[j].x && p.v[i][1] == pts[j].y && p.v[i][2] == pts[j].z;
        if (!found)
            return false;
    }
    for (int j = 0; j < n; ++j) {
        double x[3];
        ov_from(x, pts[j]);
        if (oracle_poly_plane_distance(&p, x) > tol)
            return false;
    }
    return true;
}

#endif
