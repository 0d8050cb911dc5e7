/* The pre-solve callback: a touching contact's materials, surface velocity and whether the
   solver sees it, changed by the game for one step (one-way platforms, conveyor belts, bouncy
   pads). */
#include "dynamics/world_state.h"

#include "core/error.h"
#include "core/validate.h"

static cairn_contact_modify modify_view(const cairn_world *world, const contact *c,
                                        const cairn_surface_material *seen)
{
    cairn_contact_modify view = {
        .body_a = body_id_at(world, c->body_a),
        .body_b = body_id_at(world, c->body_b),
        .normal = c->manifold.normal,
        .point_count = c->manifold.point_count,
        .enabled = true,
        .friction = seen->friction,
        .restitution = seen->restitution,
        .surface_velocity = glms_vec3_zero(),
        .rolling_resistance = seen->rolling_resistance,
    };
    const body *a = &world->bodies.data[c->body_a];
    for (int p = 0; p < c->manifold.point_count; ++p) {
        view.points[p] = glms_vec3_add(a->center, c->manifold.points[p].anchor_a);
        view.separations[p] = c->manifold.points[p].separation;
    }
    return view;
}

static float clamp_float(float value, float low, float high, float fallback)
{
    if (!is_finite_float(value))
        return fallback;
    return value < low ? low : (value > high ? high : value);
}

void contact_presolve(cairn_world *world, contact *c)
{
    contact_combine_materials(world, c); /* each step starts from the materials */
    /* The callback sees the first manifold's (a mesh triangle's) materials; the solver keeps
       per-manifold materials unless the callback changes them. */
    cairn_surface_material seen = contact_manifold_material(world, c, &c->manifold);
    cairn_contact_modify view = modify_view(world, c, &seen);
    world->presolve(&view, world->presolve_context);
    c->disabled = !view.enabled;
    c->friction = clamp_float(view.friction, 0.0f, 1e30f, seen.friction);
    c->restitution = clamp_float(view.restitution, 0.0f, 1.0f, seen.restitution);
    c->rolling_resistance =
        clamp_float(view.rolling_resistance, 0.0f, 1.0f, seen.rolling_resistance);
    c->material_override = c->friction != seen.friction || c->restitution != seen.restitution ||
                           c->rolling_resistance != seen.rolling_resistance;
    c->surface_velocity =
        is_finite_vec3(view.surface_velocity) ? view.surface_velocity : glms_vec3_zero();
}

/* Every contact back to its materials, enabled and still. */
static void reset_contacts(cairn_world *world, contact_array *contacts)
{
    for (int i = 0; i < contacts->count; ++i) {
        contact *c = &contacts->data[i];
        contact_combine_materials(world, c);
        c->disabled = false;
        c->surface_velocity = glms_vec3_zero();
    }
}

bool cairn_world_set_presolve(cairn_world *world, cairn_presolve_fn *presolve, void *context)
{
    if (!world_unlocked(world, "cairn_world_set_presolve"))
        return false;
    if (world == NULL)
        return error_set("cairn_world_set_presolve: world is NULL");
    world->presolve = presolve;
    world->presolve_context = presolve ? context : NULL;
    if (presolve == NULL) {
        reset_contacts(world, &world->contacts);
        reset_contacts(world, &world->parked);
    }
    return true;
}
