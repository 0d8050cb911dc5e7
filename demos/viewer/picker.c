/* Mouse picking and the drag through a soft joint. */
#include "picker.h"

#include <math.h>

#define PICK_RANGE     500.0f /* metres a pick ray reaches */
#define SPRING_HERTZ   3.0f
#define SPRING_DAMPING 0.7f /* damping ratio */

static bool id_null(cairn_body_id id)
{
    return id.index == 0 && id.generation == 0;
}

static bool ray_hit(const cairn_world *world, vec3s origin, vec3s direction, cairn_ray_hit *hit)
{
    return cairn_world_raycast(world, origin, glms_vec3_scale(direction, PICK_RANGE), hit);
}

/* Ends a drag: its joint goes (when its world is still the one shown). */
static void stop_drag(picker *p, cairn_world *world)
{
    if (p->dragging && world == p->world)
        cairn_joint_destroy(world, p->joint);
    p->dragging = false;
    p->joint = (cairn_joint_id){0, 0};
    p->world = NULL;
}

/* A ball joint with a spring from the world at the grabbed point: mass-independent softness,
   stable at any stiffness, and the solver sees the drag like any other joint. */
static bool start_drag(picker *p, cairn_world *world, cairn_body_id body, vec3s point)
{
    cairn_joint_def def = cairn_joint_default_def(CAIRN_JOINT_BALL);
    def.body_b = body;
    def.anchor_a = def.anchor_b = point;
    def.enable_spring = true;
    def.spring_hertz = SPRING_HERTZ;
    def.spring_damping_ratio = SPRING_DAMPING;
    def.collide_connected = true;
    p->joint = cairn_joint_create(world, &def);
    p->world = world;
    return p->joint.generation != 0;
}

bool picker_select(picker *p, cairn_world *world, vec3s origin, vec3s direction, bool grab)
{
    cairn_ray_hit hit;
    stop_drag(p, world);
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
        p->dragging = start_drag(p, world, hit.body, hit.point);
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

void picker_release(picker *p, cairn_world *world)
{
    stop_drag(p, world);
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

void picker_before_step(picker *p, cairn_world *world, float dt)
{
    (void)dt;
    if (p->dragging && world == p->world)
        cairn_joint_set_world_anchor(world, p->joint, p->target);
}

void picker_validate(picker *p, const cairn_world *world)
{
    /* a new world (reload, next scene): the drag's joint went with the old one */
    bool joint_gone = p->dragging && (world != p->world || !cairn_joint_is_valid(world, p->joint));
    if (joint_gone || (!id_null(p->selected) && !cairn_body_is_valid(world, p->selected))) {
        *p = (picker){.dragging = false};
    }
    if (!id_null(p->partner) && !cairn_body_is_valid(world, p->partner)) {
        p->partner = (cairn_body_id){0, 0};
    }
}
