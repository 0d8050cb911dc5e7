/* Mouse picking and the drag spring. The dragged body's mass is read once at grab time. */
#include "picker.h"

#include <math.h>

#define PICK_RANGE     500.0f /* metres a pick ray reaches */
#define SPRING_HERTZ   3.0f
#define SPRING_DAMPING 0.7f   /* damping ratio */
#define MAX_PULL       150.0f /* m/s^2: the spring cannot throw a body faster than this */
#define PI             3.14159265358979f

static bool id_null(cairn_body_id id)
{
    return id.index == 0 && id.generation == 0;
}

static bool ray_hit(const cairn_world *world, vec3s origin, vec3s direction, cairn_ray_hit *hit)
{
    return cairn_world_raycast(world, origin, glms_vec3_scale(direction, PICK_RANGE), hit);
}

bool picker_select(picker *p, cairn_world *world, vec3s origin, vec3s direction, bool grab)
{
    cairn_ray_hit hit;
    p->dragging = false;
    if (!ray_hit(world, origin, direction, &hit)) {
        p->selected = (cairn_body_id){0, 0};
        p->partner = p->selected;
        return false;
    }
    if (hit.body.index != p->selected.index || hit.body.generation != p->selected.generation) {
        p->partner = (cairn_body_id){0, 0};
    }
    p->selected = hit.body;
    if (grab && cairn_body_get_type(world, hit.body) == CAIRN_DYNAMIC) {
        cairn_transform xf = cairn_body_transform(world, hit.body);
        vec3s offset = glms_vec3_sub(hit.point, xf.position);
        p->local_anchor = glms_quat_rotatev(glms_quat_inv(xf.rotation), offset);
        p->depth = glms_vec3_distance(origin, hit.point);
        p->target = hit.point;
        p->mass = cairn_body_mass(world, hit.body);
        p->dragging = p->mass > 0.0f;
    }
    return true;
}

bool picker_select_partner(picker *p, const cairn_world *world, vec3s origin, vec3s direction)
{
    cairn_ray_hit hit;
    if (id_null(p->selected) || !ray_hit(world, origin, direction, &hit) ||
        (hit.body.index == p->selected.index && hit.body.generation == p->selected.generation)) {
        return false;
    }
    p->partner = hit.body;
    return true;
}

void picker_move(picker *p, vec3s origin, vec3s direction)
{
    if (p->dragging) {
        p->target = glms_vec3_add(origin, glms_vec3_scale(direction, p->depth));
    }
}

void picker_release(picker *p)
{
    p->dragging = false;
}

bool picker_anchor(const picker *p, const cairn_world *world, vec3s *out)
{
    if (!p->dragging || !cairn_body_is_valid(world, p->selected)) {
        return false;
    }
    cairn_transform xf = cairn_body_transform(world, p->selected);
    *out = glms_vec3_add(xf.position, glms_quat_rotatev(xf.rotation, p->local_anchor));
    return true;
}

/* A damped spring solved implicitly over the step (stable at any stiffness), as a velocity
   change of the anchor turned into an impulse with the body's mass. */
void picker_before_step(picker *p, cairn_world *world, float dt)
{
    vec3s anchor;
    if (!picker_anchor(p, world, &anchor)) {
        return;
    }
    float omega = 2.0f * PI * SPRING_HERTZ;
    float c = 2.0f * SPRING_DAMPING * omega * dt, k = omega * omega * dt;
    vec3s stretch = glms_vec3_sub(p->target, anchor);
    vec3s v = cairn_body_linear_velocity(world, p->selected);
    vec3s dv = glms_vec3_scale(glms_vec3_sub(glms_vec3_scale(stretch, k), glms_vec3_scale(v, c)),
                               1.0f / (1.0f + c + k * dt));
    float limit = MAX_PULL * dt, length = glms_vec3_norm(dv);
    if (length > limit) {
        dv = glms_vec3_scale(dv, limit / length);
    }
    cairn_body_apply_impulse(world, p->selected, glms_vec3_scale(dv, p->mass), anchor);
}

void picker_validate(picker *p, const cairn_world *world)
{
    if (!id_null(p->selected) && !cairn_body_is_valid(world, p->selected)) {
        *p = (picker){.dragging = false};
    }
    if (!id_null(p->partner) && !cairn_body_is_valid(world, p->partner)) {
        p->partner = (cairn_body_id){0, 0};
    }
}
