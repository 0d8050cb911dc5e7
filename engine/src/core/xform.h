/* Rigid transform helpers over cglm's struct API, inline because every query uses them. */
#ifndef CAIRN_CORE_XFORM_H
#define CAIRN_CORE_XFORM_H

#include <cairn/base.h>

static inline vec3s xform_point(cairn_transform xf, vec3s local)
{
    return glms_vec3_add(glms_quat_rotatev(xf.rotation, local), xf.position);
}

static inline vec3s xform_vector(cairn_transform xf, vec3s local)
{
    return glms_quat_rotatev(xf.rotation, local);
}

static inline vec3s xform_inverse_vector(cairn_transform xf, vec3s world)
{
    return glms_quat_rotatev(glms_quat_conjugate(xf.rotation), world);
}

static inline vec3s xform_inverse_point(cairn_transform xf, vec3s world)
{
    return xform_inverse_vector(xf, glms_vec3_sub(world, xf.position));
}

/* xf expressed in the frame of `frame` (frame^-1 * xf). */
static inline cairn_transform xform_relative(cairn_transform frame, cairn_transform xf)
{
    return (cairn_transform){
        xform_inverse_point(frame, xf.position),
        glms_quat_normalize(glms_quat_mul(glms_quat_conjugate(frame.rotation), xf.rotation))};
}

/* What glms_quat_rotatev(q, v) does after it normalises q, for p = glms_quat_normalize(q):
   the same operations in the same order, so the same vector to the bit. Code that turns several
   vectors by one rotation normalises it once and calls this. */
static inline vec3s xform_rotate_normalized(versors p, vec3s v)
{
    vec3s u = {{p.x, p.y, p.z}};
    float s = p.w;
    vec3s turned = glms_vec3_add(glms_vec3_scale(u, 2.0f * glms_vec3_dot(u, v)),
                                 glms_vec3_scale(v, s * s - glms_vec3_dot(u, u)));
    return glms_vec3_add(turned, glms_vec3_scale(glms_vec3_cross(u, v), 2.0f * s));
}

/* xf with its rotation normalised once, for the xform_unit_ functions below: they give what
   xform_point, xform_vector and the inverses give on xf, to the bit (xform_rotate_normalized,
   and the conjugate of the normalised rotation is the normalised conjugate), without normalising
   the rotation for every vector. Not to be normalised again: that may move the last bit. */
static inline cairn_transform xform_unit(cairn_transform xf)
{
    xf.rotation = glms_quat_normalize(xf.rotation);
    return xf;
}

static inline vec3s xform_unit_vector(cairn_transform unit, vec3s local)
{
    return xform_rotate_normalized(unit.rotation, local);
}

static inline vec3s xform_unit_point(cairn_transform unit, vec3s local)
{
    return glms_vec3_add(xform_rotate_normalized(unit.rotation, local), unit.position);
}

static inline vec3s xform_unit_inverse_vector(cairn_transform unit, vec3s world)
{
    return xform_rotate_normalized(glms_quat_conjugate(unit.rotation), world);
}

static inline vec3s xform_unit_inverse_point(cairn_transform unit, vec3s world)
{
    return xform_unit_inverse_vector(unit, glms_vec3_sub(world, unit.position));
}

/* Rotation matrix of a unit quaternion (columns are the rotated axes). */
static inline mat3s xform_rotation_matrix(cairn_transform xf)
{
    return glms_quat_mat3(xf.rotation);
}

#endif
