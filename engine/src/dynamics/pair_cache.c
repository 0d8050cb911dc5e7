/* The body-pair cache (Jolt's body pair cache, Box2D's contact recycling): bodies resting on
   each other barely move relative to each other, so their manifold from the last step is still
   right once its points are re-measured at the new poses. That skips GJK, EPA and clipping for
   most pairs of a settled pile. */
#include "dynamics/contact.h"

#include "core/quad.h"
#include "core/xform.h"
#include "geometry/shape.h"

#include <math.h>

/* B's pose in A's frame; unit_a: xform_unit(xa), which turns the point as xa would, to the bit. */
static cairn_transform relative_pose(cairn_transform xa, cairn_transform unit_a, cairn_transform xb)
{
    return (cairn_transform){xform_unit_inverse_point(unit_a, xb.position),
                             glms_quat_mul(glms_quat_conjugate(xa.rotation), xb.rotation)};
}

void pair_cache_store(contact *c, const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                      cairn_transform xb, float margin, float gap, float reach_b)
{
    c->reuse = (pair_cache){relative_pose(xa, xform_unit(xa), xb),
                            xform_inverse_vector(xa, c->manifold.normal),
                            margin,
                            gap,
                            reach_b,
                            true,
                            (uint8_t)shape_symmetry_of(a),
                            (uint8_t)shape_symmetry_of(b)};
    for (int i = 1; i < contact_manifold_count(c); ++i)
        c->extra->local_normals[i - 1] = xform_inverse_vector(xa, contact_manifold(c, i)->normal);
}

pair_cache_limits pair_cache_limits_make(float max_distance, float max_angle)
{
    return (pair_cache_limits){max_distance, max_angle > 0.0f ? cosf(0.5f * max_angle) : 2.0f};
}

static bool pose_close(cairn_transform then, cairn_transform now, pair_cache_limits limits)
{
    if (glms_vec3_distance2(then.position, now.position) > limits.distance * limits.distance)
        return false;
    /* The rotation between q0 and q1 is 2 acos(|q0 . q1|). */
    return fabsf(glms_quat_dot(then.rotation, now.rotation)) >= limits.cos_half_angle;
}

_Static_assert(MANIFOLD_MAX_POINTS == 4, "a manifold's points are re-measured as one quad");

/* xform_unit_point of every lane's point (core/quad.h: the same bits as one point at a time). */
static quad_vec turn_points(cairn_transform unit, const quad_vec *v)
{
    quad_quat p = quad_quat_splat(unit.rotation);
    quad_vec turned = quad_turn(&p, v);
    return (quad_vec){turned.x + unit.position.x, turned.y + unit.position.y,
                      turned.z + unit.position.z};
}

/* A body's rotation relative to the other body as the contact sees it: `then` (at the build)
   turned by what `now` added, less what its shape does not show (all of it for a sphere, the
   twist about the axis for a capsule or a cylinder). A point of a rolling body's surface is
   then carried with its centre, not with its material: the contact of a rolling ball stays
   under it. The re-measured point of a turning body stayed on its material, behind the centre
   by as far as the ball rolled since the build, and the normal force there turned the ball on:
   balls rolled at 0.06 m/s for ever, the speed under which their pair moved less than the 1 mm
   limit a step. */
static versors seen_rotation(versors then, versors now, shape_symmetry symmetry)
{
    if (symmetry == SYMMETRY_POINT)
        return then;
    versors delta = glms_quat_mul(now, glms_quat_conjugate(then));
    vec3s axis = xform_rotate_normalized(then, (vec3s){{0.0f, 1.0f, 0.0f}});
    float along = delta.x * axis.x + delta.y * axis.y + delta.z * axis.z;
    versors twist = {{axis.x * along, axis.y * along, axis.z * along, delta.w}};
    float norm = glms_quat_norm(twist);
    if (!(norm > 1e-6f)) /* a half turn across the axis: far past the cache's angle limit */
        return now;
    twist = (versors){{twist.x / norm, twist.y / norm, twist.z / norm, twist.w / norm}};
    versors swing = glms_quat_mul(delta, glms_quat_conjugate(twist));
    return glms_quat_normalize(glms_quat_mul(swing, then));
}

/* Which body of a pair rolls: its point is where the contact is, and the other body's point is
   taken from it along the normal (a point of a face slides under a rolling ball). */
typedef enum rolling_side { ROLLING_NONE, ROLLING_A, ROLLING_B } rolling_side;

/* The manifold's points at the new poses (unit_a and unit_b: xform_unit), from their points on A
   and B. */
static void remeasure(manifold *m, vec3s normal, cairn_transform unit_a, cairn_transform unit_b,
                      rolling_side rolling)
{
    m->normal = normal;
    quad_vec local_a = {{0}, {0}, {0}}, local_b = {{0}, {0}, {0}};
    for (int i = 0; i < m->point_count; ++i) {
        quad_put_vec(&local_a, i, m->points[i].local_a);
        quad_put_vec(&local_b, i, m->points[i].local_b);
    }
    quad_vec on_a = turn_points(unit_a, &local_a), on_b = turn_points(unit_b, &local_b);
    quad separation =
        (on_b.x - on_a.x) * normal.x + (on_b.y - on_a.y) * normal.y + (on_b.z - on_a.z) * normal.z;
    quad_vec mid = {(on_a.x + on_b.x) * 0.5f, (on_a.y + on_b.y) * 0.5f, (on_a.z + on_b.z) * 0.5f};
    if (rolling != ROLLING_NONE) {
        const quad_vec *round = rolling == ROLLING_A ? &on_a : &on_b;
        quad half = separation * (rolling == ROLLING_A ? 0.5f : -0.5f);
        mid = (quad_vec){round->x + half * normal.x, round->y + half * normal.y,
                         round->z + half * normal.z};
    }
    for (int i = 0; i < m->point_count; ++i) {
        manifold_point *p = &m->points[i];
        p->separation = separation[i];
        p->anchor_a = p->anchor_b = quad_get_vec(&mid, i);
    }
}

/* Whether a pair found apart is still apart by more than margin. In A's frame every point x of
   B has moved by at most |dp| + |x| 2 sin(t / 2) since (t the angle B turned relative to A,
   cos(t / 2) = |q0 . q1|), and a gap shrinks by no more than the points move. A thousandth of
   the gap and 0.1 mm of slack cover the rounding of the poses and of the gap. */
static bool still_apart(const pair_cache *then, cairn_transform now, float margin)
{
    if (!(then->gap > margin))
        return false;
    float cosine = fminf(fabsf(glms_quat_dot(then->relative.rotation, now.rotation)), 1.0f);
    float chord = 2.0f * sqrtf(1.0f - cosine * cosine);
    float moved = glms_vec3_distance(then->relative.position, now.position) + chord * then->reach_b;
    return then->gap - moved > margin + 1e-3f * then->gap + 1e-4f;
}

bool pair_cache_reuse(contact *c, cairn_transform xa, cairn_transform xb, float margin,
                      pair_cache_limits limits)
{
    if (!c->reuse.valid || limits.distance <= 0.0f)
        return false;
    /* Each rotation is normalised once here, not for every vector it turns: the same bits as
       relative_pose and xform_point give (xform_unit). */
    cairn_transform unit_a = xform_unit(xa);
    cairn_transform relative = relative_pose(xa, unit_a, xb);
    if (still_apart(&c->reuse, relative, margin))
        return true; /* the manifold stays empty, and the pose it was found apart at stays */
    /* A larger margin could admit points the cached manifold left out. */
    if (margin > c->reuse.margin + limits.distance ||
        !pose_close(c->reuse.relative, relative, limits))
        return false;
    cairn_transform unit_b = xform_unit(xb);
    /* A round body on a body that is not is seen from it. Two round bodies keep their points on
       their material: seeing each from the other would turn it with the other's rolling, and
       the narrow phase run afresh for them kept piles of ragdolls' capsules from falling
       asleep (a new manifold each step moves its points a little). */
    shape_symmetry symmetry_a = c->reuse.symmetry_a, symmetry_b = c->reuse.symmetry_b;
    bool a_rolls = symmetry_a != SYMMETRY_NONE, b_rolls = symmetry_b != SYMMETRY_NONE;
    rolling_side rolling = a_rolls == b_rolls ? ROLLING_NONE : (a_rolls ? ROLLING_A : ROLLING_B);
    if (rolling == ROLLING_B) /* B seen from A */
        unit_b.rotation = glms_quat_normalize(
            glms_quat_mul(unit_a.rotation, seen_rotation(c->reuse.relative.rotation,
                                                         relative.rotation, symmetry_b)));
    if (rolling == ROLLING_A) /* A seen from B: the relative rotations inverted */
        unit_a.rotation = glms_quat_normalize(glms_quat_mul(
            unit_b.rotation, seen_rotation(glms_quat_conjugate(c->reuse.relative.rotation),
                                           glms_quat_conjugate(relative.rotation), symmetry_a)));
    for (int i = 0; i < contact_manifold_count(c); ++i) {
        vec3s local_normal = i == 0 ? c->reuse.local_normal : c->extra->local_normals[i - 1];
        remeasure(contact_manifold(c, i), xform_unit_vector(unit_a, local_normal), unit_a, unit_b,
                  rolling);
    }
    return true;
}
