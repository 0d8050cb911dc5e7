/* Mass properties (volume, centre of mass, inertia) of every shape, convex radius included.
   Symmetric shapes sum closed-form second moments of simple pieces (boxes, cylinders, quarter
   cylinders, sphere octants, quarter tori); hulls sum tetrahedra. */
#include "geometry/shape.h"

#include "core/error.h"
#include "core/validate.h"

#include <math.h>
#include <string.h>

/* Volume and second moments S = integral of x x^T about the shape origin, in double because
   pieces of very different sizes are summed. */
typedef struct moments {
    double volume;
    double first[3];     /* integral of x */
    double second[3][3]; /* integral of x_i x_j */
} moments;

static void add_diagonal(moments *m, double volume, double xx, double yy, double zz)
{
    m->volume += volume;
    m->second[0][0] += xx;
    m->second[1][1] += yy;
    m->second[2][2] += zz;
}

/* Integral of t^2 over [t0, t1]. */
static double square_integral(double t0, double t1)
{
    return (t1 * t1 * t1 - t0 * t0 * t0) / 3.0;
}

/* An axis-aligned box piece [lo, hi]. */
static void add_box_piece(moments *m, const double lo[3], const double hi[3])
{
    double length[3] = {hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]};
    add_diagonal(m, length[0] * length[1] * length[2],
                 square_integral(lo[0], hi[0]) * length[1] * length[2],
                 square_integral(lo[1], hi[1]) * length[0] * length[2],
                 square_integral(lo[2], hi[2]) * length[0] * length[1]);
}

/* Moments u^p w^q of a quarter disk of radius r (u, w >= 0). */
typedef struct quarter_disk {
    double m00, m10, m20, m11, m30, m21;
} quarter_disk;

static quarter_disk quarter_disk_moments(double r)
{
    double r2 = r * r, r3 = r2 * r, r4 = r3 * r, r5 = r4 * r;
    return (quarter_disk){GLM_PI * r2 / 4.0, r3 / 3.0,        GLM_PI * r4 / 16.0,
                          r4 / 8.0,          2.0 * r5 / 15.0, r5 / 15.0};
}

/* Four quarter cylinders of radius r along `axis`, length 2*half_length, bulging outwards from
   the four edges at (+-a, +-b) of the perpendicular axes (i, j). */
static void add_box_edges(moments *m, int axis, double half_length, double a, double b, double r)
{
    quarter_disk q = quarter_disk_moments(r);
    int i = (axis + 1) % 3, j = (axis + 2) % 3;
    double length = 2.0 * half_length;
    double s[3];
    s[i] = 4.0 * length * (a * a * q.m00 + 2.0 * a * q.m10 + q.m20);
    s[j] = 4.0 * length * (b * b * q.m00 + 2.0 * b * q.m10 + q.m20);
    s[axis] = 4.0 * q.m00 * length * length * length / 12.0;
    add_diagonal(m, 4.0 * q.m00 * length, s[0], s[1], s[2]);
}

/* Eight sphere octants of radius r at the corners (+-c[0], +-c[1], +-c[2]). */
static void add_box_corners(moments *m, const double c[3], double r)
{
    double volume = GLM_PI * r * r * r / 6.0;
    double first = GLM_PI * r * r * r * r / 16.0;
    double second = GLM_PI * r * r * r * r * r / 30.0;
    double s[3];
    for (int k = 0; k < 3; ++k)
        s[k] = 8.0 * (c[k] * c[k] * volume + 2.0 * c[k] * first + second);
    add_diagonal(m, 8.0 * volume, s[0], s[1], s[2]);
}

/* A rounded box: core (a, b, c) grown by r = slabs + quarter-cylinder edges + octant corners. */
static moments box_moments(vec3s core_half, double r)
{
    moments m = {0};
    double c[3] = {core_half.x, core_half.y, core_half.z};
    for (int axis = 0; axis < 3; ++axis) {
        /* The slab through the core along `axis`, grown by r on both sides of that axis only. */
        double lo[3] = {-c[0], -c[1], -c[2]}, hi[3] = {c[0], c[1], c[2]};
        if (axis == 0) {
            lo[0] -= r;
            hi[0] += r;
            add_box_piece(&m, lo, hi);
            continue;
        }
        lo[axis] = c[axis];
        hi[axis] = c[axis] + r;
        add_box_piece(&m, lo, hi);
        lo[axis] = -c[axis] - r;
        hi[axis] = -c[axis];
        add_box_piece(&m, lo, hi);
    }
    if (r > 0.0) {
        for (int axis = 0; axis < 3; ++axis)
            add_box_edges(&m, axis, c[axis], c[(axis + 1) % 3], c[(axis + 2) % 3], r);
        add_box_corners(&m, c, r);
    }
    return m;
}

/* A solid cylinder about Y of radius rho over y in [y0, y1] (rho_inner > 0: a tube). */
static void add_tube(moments *m, double rho_inner, double rho, double y0, double y1)
{
    double area = GLM_PI * (rho * rho - rho_inner * rho_inner);
    double radial =
        GLM_PI * (rho * rho * rho * rho - rho_inner * rho_inner * rho_inner * rho_inner) / 4.0;
    add_diagonal(m, area * (y1 - y0), radial * (y1 - y0), area * square_integral(y0, y1),
                 radial * (y1 - y0));
}

/* The two quarter-torus rims: a quarter disk of radius r swept around Y at radius a, at heights
   +-b. Volume element (a + u) du dw dphi. */
static void add_cylinder_rims(moments *m, double a, double b, double r)
{
    quarter_disk q = quarter_disk_moments(r);
    double volume = 2.0 * GLM_PI * (a * q.m00 + q.m10);
    double radial =
        2.0 * GLM_PI * (a * a * a * q.m00 + 3.0 * a * a * q.m10 + 3.0 * a * q.m20 + q.m30);
    double height =
        2.0 * GLM_PI *
        (b * b * (a * q.m00 + q.m10) + 2.0 * b * (a * q.m10 + q.m11) + (a * q.m20 + q.m21));
    add_diagonal(m, 2.0 * volume, radial, 2.0 * height, radial);
}

static moments cylinder_moments(double half_height, double radius, double r)
{
    moments m = {0};
    double a = radius - r, b = half_height - r;
    add_tube(&m, 0.0, a, -half_height, half_height);
    if (r > 0.0) {
        add_tube(&m, a, radius, -b, b);
        add_cylinder_rims(&m, a, b, r);
    }
    return m;
}

/* A cylinder of radius r and half height h plus two hemispheres. */
static moments capsule_moments(double h, double r)
{
    moments m = {0};
    add_tube(&m, 0.0, r, -h, h);
    double hemisphere = 2.0 * GLM_PI * r * r * r / 3.0;
    double first = GLM_PI * r * r * r * r / 4.0;             /* integral of w over a hemisphere */
    double second = 2.0 * GLM_PI * r * r * r * r * r / 15.0; /* integral of w^2 (or x^2) */
    double axial = h * h * hemisphere + 2.0 * h * first + second;
    add_diagonal(&m, 2.0 * hemisphere, 2.0 * second, 2.0 * axial, 2.0 * second);
    return m;
}

static moments sphere_moments(double r)
{
    moments m = {0};
    double second = 4.0 * GLM_PI * r * r * r * r * r / 15.0;
    add_diagonal(&m, 4.0 * GLM_PI * r * r * r / 3.0, second, second, second);
    return m;
}

/* Tetrahedron (o, a, b, c), accumulated with vertices relative to o: volume det/6, first moment
   volume * centroid, second moment det/120 * (sum_i v_i v_i^T + (sum_i v_i)(sum_i v_i)^T). */
static void add_tetrahedron(moments *m, const double a[3], const double b[3], const double c[3])
{
    double det = a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
                 a[2] * (b[0] * c[1] - b[1] * c[0]);
    double volume = det / 6.0;
    m->volume += volume;
    for (int i = 0; i < 3; ++i) {
        m->first[i] += volume * (a[i] + b[i] + c[i]) / 4.0;
        for (int j = 0; j < 3; ++j) {
            double sum_i = a[i] + b[i] + c[i], sum_j = a[j] + b[j] + c[j];
            m->second[i][j] +=
                det / 120.0 * (a[i] * a[j] + b[i] * b[j] + c[i] * c[j] + sum_i * sum_j);
        }
    }
}

/* The outer hull (the polyhedron of the given points), fanned into tetrahedra from an interior
   point. The convex radius only rounds its edges inwards; that sliver is neglected. */
static moments hull_moments(const convex_hull *hull, double origin[3])
{
    moments m = {0};
    for (int k = 0; k < 3; ++k)
        origin[k] = hull->interior.raw[k];
    for (int f = 0; f < hull->face_count; ++f) {
        const hull_face *face = &hull->faces[f];
        int first = face->first_edge;
        int edge = hull->edges[first].next;
        double p0[3], p1[3], p2[3];
        for (int k = 0; k < 3; ++k)
            p0[k] = hull->vertices[hull->edges[first].origin].raw[k] - origin[k];
        for (int n = 1; n + 1 < face->edge_count; ++n, edge = hull->edges[edge].next) {
            int next = hull->edges[edge].next;
            for (int k = 0; k < 3; ++k) {
                p1[k] = hull->vertices[hull->edges[edge].origin].raw[k] - origin[k];
                p2[k] = hull->vertices[hull->edges[next].origin].raw[k] - origin[k];
            }
            add_tetrahedron(&m, p0, p1, p2);
        }
    }
    return m;
}

/* The moments of the image of a solid under x -> R x + t (the parallel axis theorem in matrix
   form): first' = R f + V t, second' = R S R^T + t (R f)^T + (R f) t^T + V t t^T. */
static moments moments_transform(const moments *m, const double rotation[3][3], const double t[3])
{
    moments out = {.volume = m->volume};
    double rf[3], rs[3][3];
    for (int i = 0; i < 3; ++i) {
        rf[i] = 0.0;
        for (int k = 0; k < 3; ++k)
            rf[i] += rotation[i][k] * m->first[k];
        out.first[i] = rf[i] + m->volume * t[i];
        for (int j = 0; j < 3; ++j) {
            rs[i][j] = 0.0;
            for (int k = 0; k < 3; ++k)
                rs[i][j] += rotation[i][k] * m->second[k][j];
        }
    }
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            double rsr = 0.0;
            for (int k = 0; k < 3; ++k)
                rsr += rs[i][k] * rotation[j][k];
            out.second[i][j] = rsr + t[i] * rf[j] + rf[i] * t[j] + m->volume * t[i] * t[j];
        }
    return out;
}

/* Rotation matrix (row i, column j) of a unit quaternion, in doubles. */
static void quat_matrix(versors q, double r[3][3])
{
    double x = q.x, y = q.y, z = q.z, w = q.w;
    double n = x * x + y * y + z * z + w * w, s = n > 0.0 ? 2.0 / n : 0.0;
    r[0][0] = 1.0 - s * (y * y + z * z);
    r[0][1] = s * (x * y - z * w);
    r[0][2] = s * (x * z + y * w);
    r[1][0] = s * (x * y + z * w);
    r[1][1] = 1.0 - s * (x * x + z * z);
    r[1][2] = s * (y * z - x * w);
    r[2][0] = s * (x * z - y * w);
    r[2][1] = s * (y * z + x * w);
    r[2][2] = 1.0 - s * (x * x + y * y);
}

static moments shape_moments(const cairn_shape *shape, double origin[3]);

/* The children's moments moved into the compound's frame and summed (overlaps count twice). */
static moments compound_moments(const cairn_shape *shape)
{
    static const double identity[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    moments sum = {0};
    for (int c = 0; c < shape->compound.count; ++c) {
        double origin[3], rotation[3][3];
        moments child = shape_moments(shape->compound.children[c], origin);
        moments local = moments_transform(&child, identity, origin); /* about the child origin */
        cairn_transform xf = shape->compound.transforms[c];
        double t[3] = {xf.position.x, xf.position.y, xf.position.z};
        quat_matrix(xf.rotation, rotation);
        moments placed = moments_transform(&local, rotation, t);
        sum.volume += placed.volume;
        for (int i = 0; i < 3; ++i) {
            sum.first[i] += placed.first[i];
            for (int j = 0; j < 3; ++j)
                sum.second[i][j] += placed.second[i][j];
        }
    }
    return sum;
}

/* Moments about the shape origin (or about origin[] for hulls, which it sets). */
static moments shape_moments(const cairn_shape *shape, double origin[3])
{
    origin[0] = origin[1] = origin[2] = 0.0;
    double r = shape->convex_radius;
    switch (shape->type) {
    case CAIRN_SHAPE_COMPOUND:
        return compound_moments(shape);
    case CAIRN_SHAPE_MESH: /* surfaces: no volume */
    case CAIRN_SHAPE_HEIGHTFIELD:
        return (moments){0};
    case CAIRN_SHAPE_SPHERE:
        return sphere_moments(r);
    case CAIRN_SHAPE_BOX:
        return box_moments(shape->box.core_half, r);
    case CAIRN_SHAPE_CAPSULE:
        return capsule_moments(shape->capsule.half_height, r);
    case CAIRN_SHAPE_CYLINDER:
        return cylinder_moments(shape->cylinder.half_height, shape->cylinder.radius, r);
    case CAIRN_SHAPE_HULL:
        return hull_moments(&shape->hull.outer, origin);
    }
    return (moments){0};
}

float cairn_shape_volume(const cairn_shape *shape)
{
    if (!shape_given(shape, "cairn_shape_volume"))
        return 0.0f;
    double origin[3];
    return (float)shape_moments(shape, origin).volume;
}

bool cairn_shape_mass_properties(const cairn_shape *shape, float density,
                                 cairn_mass_properties *out)
{
    if (shape == NULL || out == NULL)
        return error_set("cairn_shape_mass_properties: shape or out is NULL");
    if (!is_finite_float(density) || density <= 0.0f)
        return error_set("cairn_shape_mass_properties: density = %g must be finite and positive",
                         (double)density);
    if (shape_is_triangles(shape)) {
        /* Static geometry has no mass; the zeros keep a static or kinematic body's centre at
           its origin. */
        memset(out, 0, sizeof *out);
        return true;
    }
    double origin[3];
    moments m = shape_moments(shape, origin);
    double center[3], covariance[3][3];
    for (int i = 0; i < 3; ++i)
        center[i] = m.first[i] / m.volume;
    /* Shift the second moment from the reference point to the centre of mass. */
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            covariance[i][j] = m.second[i][j] - m.volume * center[i] * center[j];
    double trace = covariance[0][0] + covariance[1][1] + covariance[2][2];
    out->mass = (float)(density * m.volume);
    for (int i = 0; i < 3; ++i) {
        out->center.raw[i] = (float)(origin[i] + center[i]);
        for (int j = 0; j < 3; ++j)
            out->inertia.raw[j][i] = (float)(density * ((i == j ? trace : 0.0) - covariance[i][j]));
    }
    return true;
}
