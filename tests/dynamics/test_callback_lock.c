/* A step's callbacks (the pair filter, the pre-solve callback) may read the world but not change
   it: every call that would change it is refused with an error naming it, and the step goes on
   as if the call had not been made (the state hash equals that of a twin world whose callback
   calls nothing). Before this, a pair filter that destroyed a body crashed the narrow phase, and
   a pre-solve callback that stepped the world broke the step's scratch memory. */
#include "scene_helpers.h"

#include <cairn/character.h>
#include <string.h>

typedef struct meddler {
    cairn_world *world;
    cairn_body_id box, floor;
    cairn_joint_id joint;
    cairn_character *character;
    void *snapshot;
    size_t snapshot_size;
    bool meddle;     /* the twin's callback calls nothing */
    bool done;       /* meddles once a step: the first callback of the step */
    int attempts;    /* calls made from inside the step */
    int refused;     /* of those, refused with an error naming the call */
    char wrong[512]; /* the first call not refused as it should have been */
} meddler;

/* A call made from the callback: refused (its result says so, for those that return one) with
   an error that names it and says why. */
static void expect_refused(meddler *m, bool refused, const char *name)
{
    const char *error = cairn_last_error();
    m->attempts++;
    if (refused && strstr(error, name) && strstr(error, "stepping"))
        m->refused++;
    else if (m->wrong[0] == '\0')
        snprintf(m->wrong, sizeof m->wrong, "%s: refused %d, error \"%s\"", name, refused, error);
}

static void meddle_with_bodies(meddler *m)
{
    cairn_world *w = m->world;
    cairn_body_def def = cairn_body_default_def();
    def.shape = cairn_body_shape(w, m->box);
    expect_refused(m, !cairn_body_is_valid(w, cairn_body_create(w, &def)), "cairn_body_create");
    cairn_body_destroy(w, m->box);
    expect_refused(m, cairn_body_is_valid(w, m->box), "cairn_body_destroy");
    vec3s at = cairn_body_transform(w, m->box).position, up = v3(0, 1, 0);
    cairn_body_apply_impulse(w, m->box, up, at);
    expect_refused(m, true, "cairn_body_apply_impulse");
    expect_refused(m, !cairn_body_apply_force(w, m->box, up, at), "cairn_body_apply_force");
    expect_refused(m, !cairn_body_apply_torque(w, m->box, up), "cairn_body_apply_torque");
    expect_refused(m, !cairn_body_apply_angular_impulse(w, m->box, up),
                   "cairn_body_apply_angular_impulse");
    expect_refused(m, !cairn_body_set_linear_velocity(w, m->box, up),
                   "cairn_body_set_linear_velocity");
    expect_refused(m, !cairn_body_set_angular_velocity(w, m->box, up),
                   "cairn_body_set_angular_velocity");
    expect_refused(m, !cairn_body_set_transform(w, m->box, scene_at(v3(5, 5, 5))),
                   "cairn_body_set_transform");
    expect_refused(m, !cairn_body_set_enabled(w, m->box, false), "cairn_body_set_enabled");
    expect_refused(m, !cairn_body_set_awake(w, m->box, false), "cairn_body_set_awake");
    expect_refused(m, !cairn_body_set_allow_sleep(w, m->box, true), "cairn_body_set_allow_sleep");
    expect_refused(m, !cairn_body_set_friction(w, m->box, 0.1f), "cairn_body_set_friction");
    expect_refused(m, !cairn_body_set_restitution(w, m->box, 0.9f), "cairn_body_set_restitution");
    expect_refused(m, !cairn_body_set_gravity_scale(w, m->box, 0.0f),
                   "cairn_body_set_gravity_scale");
    expect_refused(m, !cairn_body_set_linear_damping(w, m->box, 3.0f),
                   "cairn_body_set_linear_damping");
    expect_refused(m, !cairn_body_set_angular_damping(w, m->box, 3.0f),
                   "cairn_body_set_angular_damping");
    expect_refused(m, !cairn_body_set_filter(w, m->box, 2u, 0u), "cairn_body_set_filter");
    expect_refused(m, !cairn_body_set_type(w, m->box, CAIRN_STATIC), "cairn_body_set_type");
    cairn_mass_properties mass = {.mass = 1.0f, .inertia = glms_mat3_identity()};
    expect_refused(m, !cairn_body_set_mass_properties(w, m->box, &mass),
                   "cairn_body_set_mass_properties");
    expect_refused(m, !cairn_body_set_shape(w, m->box, cairn_body_shape(w, m->box)),
                   "cairn_body_set_shape");
    expect_refused(m, !cairn_body_set_locked_rotation(w, m->box, CAIRN_LOCK_ROTATION_ALL),
                   "cairn_body_set_locked_rotation");
    expect_refused(m, !cairn_body_set_locked_translation(w, m->box, CAIRN_LOCK_TRANSLATION_ALL),
                   "cairn_body_set_locked_translation");
    expect_refused(m, !cairn_body_set_kinematic_target(w, m->floor, scene_at(up), SCENE_DT),
                   "cairn_body_set_kinematic_target");
}

static void meddle_with_the_rest(meddler *m)
{
    cairn_world *w = m->world;
    cairn_joint_def joint = cairn_joint_default_def(CAIRN_JOINT_BALL);
    joint.body_b = m->box;
    expect_refused(m, !cairn_joint_is_valid(w, cairn_joint_create(w, &joint)),
                   "cairn_joint_create");
    cairn_joint_destroy(w, m->joint);
    expect_refused(m, cairn_joint_is_valid(w, m->joint), "cairn_joint_destroy");
    expect_refused(m, !cairn_joint_set_limits(w, m->joint, true, -1, 1), "cairn_joint_set_limits");
    expect_refused(m, !cairn_joint_set_motor(w, m->joint, true, 1, 10), "cairn_joint_set_motor");
    expect_refused(m, !cairn_joint_set_spring(w, m->joint, true, 2, 1, 0),
                   "cairn_joint_set_spring");
    expect_refused(m, !cairn_joint_set_world_anchor(w, m->joint, v3(1, 3, 0)),
                   "cairn_joint_set_world_anchor");
    expect_refused(m, !cairn_joint_set_break_force(w, m->joint, 10.0f),
                   "cairn_joint_set_break_force");
    expect_refused(m, !cairn_joint_set_steering(w, m->joint, 0.1f), "cairn_joint_set_steering");
    cairn_character_def character = cairn_character_default_def();
    expect_refused(m, cairn_character_create(w, &character) == NULL, "cairn_character_create");
    expect_refused(m, !cairn_character_move(m->character, v3(1, 0, 0), SCENE_DT),
                   "cairn_character_move");
    expect_refused(m, !cairn_character_set_position(m->character, v3(0, 9, 9)),
                   "cairn_character_set_position");
    cairn_character_destroy(m->character);
    expect_refused(m, true, "cairn_character_destroy");
    cairn_world_def def = cairn_world_get_def(w);
    def.gravity = v3(0, 0, 0);
    expect_refused(m, !cairn_world_set_def(w, &def), "cairn_world_set_def");
    expect_refused(m, !cairn_world_restore(w, m->snapshot, m->snapshot_size),
                   "cairn_world_restore");
    expect_refused(m, !cairn_world_set_pair_filter(w, NULL, NULL), "cairn_world_set_pair_filter");
    expect_refused(m, !cairn_world_set_presolve(w, NULL, NULL), "cairn_world_set_presolve");
    cairn_world_step(w, SCENE_DT);
    expect_refused(m, true, "cairn_world_step");
    cairn_world_destroy(w);
    expect_refused(m, true, "cairn_world_destroy");
}

static void meddle(meddler *m)
{
    if (!m->meddle || m->done)
        return;
    m->done = true;
    meddle_with_bodies(m);
    meddle_with_the_rest(m);
}

static void presolve(cairn_contact_modify *contact, void *context)
{
    (void)contact;
    meddle(context);
}

static bool pair_filter(cairn_body_id a, cairn_body_id b, void *context)
{
    (void)a, (void)b;
    meddle(context);
    return true;
}

/* A box on a kinematic floor, a ball hung from the world by a joint, a character: each call
   has something to act on. A ball falls onto the box: its pair, made during the steps, passes
   the pair filter. The snapshot is taken before the first step. */
static void build(meddler *m)
{
    m->world = scene_default_world();
    m->floor = scene_body(m->world, cairn_shape_box(v3(10, 0.5f, 10), SCENE_RADIUS),
                          CAIRN_KINEMATIC, scene_at(v3(0, -0.5f, 0)), 1000.0f, 0.6f, 0.0f);
    m->box = scene_box(m->world, v3(0, 0.5f, 0), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.6f);
    cairn_body_id ball = scene_sphere(m->world, v3(4, 3, 0), 0.3f, 1000.0f, 0.5f, 0.0f);
    scene_sphere(m->world, v3(0, 2.2f, 0), 0.3f, 1000.0f, 0.5f, 0.0f); /* lands on the box */
    cairn_joint_def joint = cairn_joint_default_def(CAIRN_JOINT_BALL);
    joint.body_b = ball;
    joint.anchor_a = joint.anchor_b = v3(4, 4, 0);
    m->joint = cairn_joint_create(m->world, &joint);
    cr_assert(cairn_joint_is_valid(m->world, m->joint), "%s", cairn_last_error());
    cairn_character_def character = cairn_character_default_def();
    character.position = v3(-4, 1, 0);
    m->character = cairn_character_create(m->world, &character);
    cr_assert_not_null(m->character, "%s", cairn_last_error());
    m->snapshot_size = cairn_world_snapshot_size(m->world);
    m->snapshot = malloc(m->snapshot_size);
    cr_assert(cairn_world_snapshot(m->world, m->snapshot, m->snapshot_size));
}

static void step_twins(meddler *twins, int steps)
{
    for (int n = 0; n < steps; ++n)
        for (int t = 0; t < 2; ++t) {
            twins[t].done = false;
            cairn_world_step(twins[t].world, SCENE_DT);
        }
}

static void expect_every_call_refused_and_nothing_changed(meddler *twins, int calls)
{
    cr_expect_eq(twins[1].attempts, calls, "calls made from the callback: %d", twins[1].attempts);
    cr_expect_eq(twins[1].refused, twins[1].attempts, "%s", twins[1].wrong);
    cr_expect_eq(cairn_world_state_hash(twins[0].world), cairn_world_state_hash(twins[1].world),
                 "the refused calls changed the world");
    cr_expect(cairn_body_is_valid(twins[1].world, twins[1].box));
    cr_expect(cairn_joint_is_valid(twins[1].world, twins[1].joint));
    /* Between steps, the same calls work again. */
    cr_expect(cairn_body_set_linear_velocity(twins[1].world, twins[1].box, v3(0, 1, 0)), "%s",
              cairn_last_error());
    for (int t = 0; t < 2; ++t) {
        cairn_character_destroy(twins[t].character);
        cairn_world_destroy(twins[t].world);
        free(twins[t].snapshot);
    }
}

enum { CALLS_PER_STEP = 42, STEPS = 30 };

Test(callback_lock, the_presolve_callback_cannot_change_the_world)
{
    meddler twins[2] = {{.meddle = false}, {.meddle = true}};
    for (int t = 0; t < 2; ++t) {
        build(&twins[t]);
        cr_assert(cairn_world_set_presolve(twins[t].world, presolve, &twins[t]));
    }
    step_twins(twins, STEPS);
    expect_every_call_refused_and_nothing_changed(twins, CALLS_PER_STEP * STEPS);
}

/* The pair filter runs when a pair first overlaps: the falling ball and the box. */
Test(callback_lock, the_pair_filter_cannot_change_the_world)
{
    meddler twins[2] = {{.meddle = false}, {.meddle = true}};
    for (int t = 0; t < 2; ++t) {
        build(&twins[t]);
        twins[t].done = true; /* not while the filter is installed (outside the step) */
        cr_assert(cairn_world_set_pair_filter(twins[t].world, pair_filter, &twins[t]));
    }
    step_twins(twins, STEPS);
    cr_assert_geq(twins[1].attempts, CALLS_PER_STEP, "the filter never ran in a step");
    expect_every_call_refused_and_nothing_changed(twins, twins[1].attempts);
}
