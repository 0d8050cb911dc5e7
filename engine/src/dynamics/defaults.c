/* Every default of the world and body definitions, and their range checks, in one place. */
#include <cairn/world.h>

#include "core/error.h"
#include "core/validate.h"

cairn_world_def cairn_world_default_def(void)
{
    cairn_world_def def;
    def.gravity = (vec3s){{0.0f, -9.81f, 0.0f}};
    def.solver = (cairn_solver_settings){
        .velocity_iterations = 8,
        .position_iterations = 3,
        .substeps = 4,
        .baumgarte = 0.2f,
        .linear_slop = 0.005f,
        .max_linear_correction = 0.2f,
        .restitution_threshold = 1.0f,
        .warm_start_factor = 1.0f,
        .contact_hertz = 60.0f,
        .contact_damping_ratio = 10.0f,
        .max_push_velocity = 3.0f,
        .speculative_distance = 0.02f,
        .position_correction = CAIRN_SOFT_STEP,
        .warm_starting = true,
        .simplex_caching = true,
        .joint_trees = true,
        .sleep_linear_velocity = 0.05f,
        .sleep_angular_velocity = 0.05f,
        .time_to_sleep = 0.5f,
        .pair_cache_distance = 0.001f,
        .pair_cache_angle = 0.035f,
        .joint_hertz = 60.0f,
        .joint_damping_ratio = 2.0f,
    };
    def.linear_damping = 0.0f;
    def.angular_damping = 0.05f;
    def.max_linear_speed = 400.0f;
    def.max_angular_speed = 100.0f;
    def.hit_event_threshold = 1.0f;
    def.worker_count = 1;
    def.enqueue_task = NULL;
    def.finish_task = NULL;
    def.user_task_context = NULL;
    return def;
}

static bool check_float(const char *name, float value, float low, float high)
{
    if (!is_finite_float(value))
        return error_set("cairn_world_def: %s is not finite", name);
    if (value < low || value > high)
        return error_set("cairn_world_def: %s = %g is outside [%g, %g]", name, (double)value,
                         (double)low, (double)high);
    return true;
}

static bool check_int(const char *name, int value, int low, int high)
{
    if (value < low || value > high)
        return error_set("cairn_world_def: %s = %d is outside [%d, %d]", name, value, low, high);
    return true;
}

static bool check_solver(const cairn_solver_settings *s)
{
    return check_int("solver.velocity_iterations", s->velocity_iterations, 1, 100) &&
           check_int("solver.position_iterations", s->position_iterations, 0, 100) &&
           check_int("solver.substeps", s->substeps, 1, 16) &&
           check_float("solver.baumgarte", s->baumgarte, 0.0f, 1.0f) &&
           check_float("solver.linear_slop", s->linear_slop, 0.0f, 0.1f) &&
           check_float("solver.max_linear_correction", s->max_linear_correction, 0.0f, 10.0f) &&
           check_float("solver.restitution_threshold", s->restitution_threshold, 0.0f, 100.0f) &&
           check_float("solver.warm_start_factor", s->warm_start_factor, 0.0f, 1.0f) &&
           check_float("solver.contact_hertz", s->contact_hertz, 0.0f, 1000.0f) &&
           check_float("solver.contact_damping_ratio", s->contact_damping_ratio, 0.0f, 100.0f) &&
           check_float("solver.max_push_velocity", s->max_push_velocity, 0.0f, 100.0f) &&
           check_float("solver.speculative_distance", s->speculative_distance, 0.0f, 1.0f) &&
           check_int("solver.position_correction", s->position_correction, CAIRN_BAUMGARTE,
                     CAIRN_SOFT_STEP) &&
           check_float("solver.sleep_linear_velocity", s->sleep_linear_velocity, 0.0f, 10.0f) &&
           check_float("solver.sleep_angular_velocity", s->sleep_angular_velocity, 0.0f, 10.0f) &&
           check_float("solver.time_to_sleep", s->time_to_sleep, 0.0f, 100.0f) &&
           check_float("solver.pair_cache_distance", s->pair_cache_distance, 0.0f, 0.1f) &&
           check_float("solver.pair_cache_angle", s->pair_cache_angle, 0.0f, 0.5f) &&
           check_float("solver.joint_hertz", s->joint_hertz, 0.0f, 1000.0f) &&
           check_float("solver.joint_damping_ratio", s->joint_damping_ratio, 0.0f, 100.0f);
}

static bool check_threads(const cairn_world_def *def)
{
    if (!check_int("worker_count", def->worker_count, 1, CAIRN_MAX_WORKERS))
        return false;
    if ((def->enqueue_task == NULL) != (def->finish_task == NULL))
        return error_set("cairn_world_def: enqueue_task and finish_task are given together or not "
                         "at all (%s is missing)",
                         def->enqueue_task ? "finish_task" : "enqueue_task");
    if (def->enqueue_task == NULL && def->worker_count != 1)
        return error_set("cairn_world_def: worker_count = %d needs enqueue_task and finish_task "
                         "(without them the step runs on the calling thread: worker_count 1)",
                         def->worker_count);
    return true;
}

bool cairn_world_def_validate(const cairn_world_def *def)
{
    if (def == NULL)
        return error_set("cairn_world_def: def is NULL");
    if (!is_finite_vec3(def->gravity))
        return error_set("cairn_world_def: gravity is not finite");
    if (glms_vec3_norm(def->gravity) > 1000.0f)
        return error_set("cairn_world_def: |gravity| = %g is above 1000 m/s^2",
                         (double)glms_vec3_norm(def->gravity));
    return check_solver(&def->solver) &&
           check_float("linear_damping", def->linear_damping, 0.0f, 100.0f) &&
           check_float("angular_damping", def->angular_damping, 0.0f, 100.0f) &&
           check_float("max_linear_speed", def->max_linear_speed, 0.0f, 1e4f) &&
           check_float("max_angular_speed", def->max_angular_speed, 0.0f, 1e4f) &&
           check_float("hit_event_threshold", def->hit_event_threshold, 0.0f, 1e4f) &&
           check_threads(def);
}

cairn_body_def cairn_body_default_def(void)
{
    cairn_body_def def;
    def.type = CAIRN_DYNAMIC;
    def.transform = cairn_transform_identity();
    def.linear_velocity = glms_vec3_zero();
    def.angular_velocity = glms_vec3_zero();
    def.shape = NULL;
    def.density = 1000.0f;
    def.friction = 0.6f;
    def.restitution = 0.0f;
    def.allow_sleep = true;
    def.user_data = NULL;
    def.gravity_scale = 1.0f;
    def.linear_damping = 0.0f;
    def.angular_damping = 0.0f;
    def.locked_rotation = 0u;
    def.locked_translation = 0u;
    def.rolling_resistance = 0.0f;
    def.layer = 1u;
    def.mask = ~0u;
    def.is_sensor = false;
    def.enabled = true;
    return def;
}
