/* The contact-modification demo: the belt, the pad and the platform are plain static boxes; the
   pre-solve callback gives the belt a surface velocity, the pad a restitution of 1, and turns
   off the platform's contacts whose normal does not hold a body up. */
#include "surfaces_scene.h"

#include <stdio.h>

void surfaces_presolve(cairn_contact_modify *contact, void *context)
{
    const surface_rules *rules = context;
    bool belt_a = cairn_body_id_equal(contact->body_a, rules->belt);
    if (belt_a || cairn_body_id_equal(contact->body_b, rules->belt))
        /* The velocity is B's surface against A's. */
        contact->surface_velocity =
            belt_a ? rules->belt_velocity : glms_vec3_negate(rules->belt_velocity);
    if (cairn_body_id_equal(contact->body_a, rules->pad) ||
        cairn_body_id_equal(contact->body_b, rules->pad))
        contact->restitution = 1.0f;
    bool platform_a = cairn_body_id_equal(contact->body_a, rules->platform);
    if (platform_a || cairn_body_id_equal(contact->body_b, rules->platform)) {
        /* Held only from above: the normal from the platform to the other body points up. A
           ball rising through it has its normal down (or sideways) and passes. */
        float up = platform_a ? contact->normal.y : -contact->normal.y;
        contact->enabled = up > 0.7f;
    }
}

static cairn_body_id add(cairn_world *world, cairn_shape *shape, cairn_body_type type,
                         vec3s position, vec3s velocity)
{
    cairn_body_def def = cairn_body_default_def();
    def.type = type;
    def.shape = shape;
    def.transform.position = position;
    def.linear_velocity = velocity;
    cairn_body_id id = cairn_body_create(world, &def);
    cairn_shape_release(shape); /* the body holds its own reference */
    return id;
}

static bool add_statics(cairn_world *world, surface_rules *rules)
{
    vec3s still = glms_vec3_zero();
    cairn_body_id floor = add(world, cairn_shape_box((vec3s){{30, 0.5f, 30}}, 0.0f), CAIRN_STATIC,
                              (vec3s){{0, -0.5f, 0}}, still);
    rules->belt = add(world, cairn_shape_box((vec3s){{6, 0.2f, 1}}, 0.0f), CAIRN_STATIC,
                      (vec3s){{0, SURFACES_BELT_TOP - 0.2f, 0}}, still);
    rules->pad = add(world, cairn_shape_box((vec3s){{1.5f, 0.1f, 1.5f}}, 0.0f), CAIRN_STATIC,
                     (vec3s){{8.5f, SURFACES_PAD_TOP - 0.1f, 0}}, still);
    rules->platform = add(world, cairn_shape_box((vec3s){{2, 0.1f, 2}}, 0.0f), CAIRN_STATIC,
                          (vec3s){{0, SURFACES_PLATFORM_TOP - 0.1f, 5}}, still);
    rules->belt_velocity = (vec3s){{SURFACES_BELT_SPEED, 0, 0}};
    return cairn_body_is_valid(world, floor) && cairn_body_is_valid(world, rules->belt) &&
           cairn_body_is_valid(world, rules->pad) && cairn_body_is_valid(world, rules->platform);
}

static bool add_dynamics(cairn_world *world)
{
    bool ok = true;
    for (int i = 0; i < SURFACES_CRATES; ++i) /* on the belt, 1.5 m apart */
        ok &= cairn_body_is_valid(
            world,
            add(world, cairn_shape_box((vec3s){{0.3f, 0.3f, 0.3f}}, 0.02f), CAIRN_DYNAMIC,
                (vec3s){{-5.0f + 1.5f * (float)i, SURFACES_BELT_TOP + 0.3f, 0}}, glms_vec3_zero()));
    for (int i = 0; i < SURFACES_BALLS; ++i) /* under the platform, thrown up */
        ok &= cairn_body_is_valid(
            world, add(world, cairn_shape_sphere(SURFACES_BALL_RADIUS), CAIRN_DYNAMIC,
                       (vec3s){{-1.2f + 0.6f * (float)i, SURFACES_BALL_RADIUS, 5}},
                       (vec3s){{0, SURFACES_THROW_SPEED, 0}}));
    /* Dropped on the pad's far side: it comes back up to where it fell from. */
    ok &= cairn_body_is_valid(
        world,
        add(world, cairn_shape_sphere(SURFACES_BALL_RADIUS), CAIRN_DYNAMIC,
            (vec3s){{9.2f, SURFACES_PAD_TOP + SURFACES_BALL_RADIUS + SURFACES_DROP_HEIGHT, 0.8f}},
            glms_vec3_zero()));
    return ok;
}

cairn_world *surfaces_scene_create(const cairn_world_def *def, surface_rules *rules)
{
    cairn_world *world = cairn_world_create(def);
    if (!world) {
        fprintf(stderr, "cairn-demo: cannot create the world: %s\n", cairn_last_error());
        return NULL;
    }
    if (!add_statics(world, rules) || !add_dynamics(world) ||
        !cairn_world_set_presolve(world, surfaces_presolve, rules)) {
        fprintf(stderr, "cairn-demo: cannot build the surfaces scene: %s\n", cairn_last_error());
        cairn_world_destroy(world);
        return NULL;
    }
    return world;
}
