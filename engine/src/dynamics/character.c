/* The character controller (<cairn/character.h>): move and slide by shape casts against the
   world's bodies (as Box2D v3's mover and Jolt's CharacterVirtual do), step climbing, ground
   probing and snapping, riding, pushing, and a de-penetration pass first. */
#include <cairn/character.h>
#include <cairn/query.h>

#include "dynamics/character_state.h"
#include "dynamics/world_state.h"

#include "core/alloc.h"
#include "core/error.h"
#include "core/validate.h"

#include <math.h>
#include <string.h>

enum {
    SLIDE_ITERATIONS = 4, /* casts per move: enough for a corner of three planes */
    DEPENETRATE_ITERATIONS = 4,
    OVERLAP_CAPACITY = 16, /* bodies pushed out of per pass */
};

#define SKIN         0.005f /* m kept between the capsule and what it touches */
#define GROUND_PROBE 0.02f  /* m below the feet where ground still counts */
#define MAX_SPEED    1e4f
#define MAX_POSITION 1e6f

struct cairn_character {
    cairn_world *world;           /* NULL once the world is destroyed */
    cairn_character *next, *prev; /* the world's list of characters: they see each other */
    character_shapes shapes;
    cairn_character_def def; /* half_height and radius: the current size */
    float walkable_cos;      /* cos(max_slope) */
    vec3s position;
    vec3s velocity;
    cairn_character_ground ground;
};

static const vec3s up = {{0.0f, 1.0f, 0.0f}};

/* The bodies it collides with: its layers and the game's own filter. */
static cairn_query_filter body_filter(const cairn_character *c)
{
    return (cairn_query_filter){c->def.mask, c->def.filter, c->def.filter_context};
}

cairn_character_def cairn_character_default_def(void)
{
    return (cairn_character_def){
        .position = {{0.0f, 0.0f, 0.0f}},
        .half_height = 0.5f,
        .radius = 0.3f,
        .max_slope = 0.25f * GLM_PIf,
        .step_height = 0.3f,
        .mass = 80.0f,
        .max_push_force = 500.0f,
        .mask = CAIRN_QUERY_ALL,
        .filter = NULL,
        .filter_context = NULL,
    };
}

static bool check_range_in(const char *function, const char *name, float value, float low,
                           float high)
{
    if (!is_finite_float(value) || value < low || value > high)
        return error_set("%s: %s = %g is outside [%g, %g]", function, name, (double)value,
                         (double)low, (double)high);
    return true;
}

static bool check_range(const char *name, float value, float low, float high)
{
    return check_range_in("cairn_character_create", name, value, low, high);
}

bool character_size_valid(const char *function, float half_height, float radius)
{
    return check_range_in(function, "half_height", half_height, 0.0f, 1e3f) &&
           check_range_in(function, "radius", radius, 1e-3f, 1e3f);
}

void character_shapes_release(character_shapes *shapes)
{
    cairn_shape_release(shapes->capsule);
    cairn_shape_release(shapes->slim);
    cairn_shape_release(shapes->skin);
    *shapes = (character_shapes){0};
}

bool character_shapes_make(float half_height, float radius, character_shapes *out)
{
    float slim_radius = fmaxf(0.5f * radius, radius - 4.0f * SKIN);
    out->capsule = cairn_shape_capsule(half_height, radius);
    out->slim = cairn_shape_capsule(half_height, slim_radius);
    out->skin = cairn_shape_capsule(half_height, radius + SKIN);
    out->slim_lift = radius - slim_radius;
    if (out->capsule == NULL || out->slim == NULL || out->skin == NULL) {
        character_shapes_release(out);
        return false;
    }
    return true;
}

static bool check_def(const cairn_character_def *def)
{
    if (def == NULL)
        return error_set("cairn_character_create: def is NULL");
    if (!is_finite_vec3(def->position) || glms_vec3_norm(def->position) > MAX_POSITION)
        return error_set("cairn_character_create: position is not finite or beyond 1e6 m");
    if (!(def->max_slope > 0.0f && def->max_slope < 0.5f * GLM_PIf))
        return error_set("cairn_character_create: max_slope = %g is outside (0, pi/2)",
                         (double)def->max_slope);
    return character_size_valid("cairn_character_create", def->half_height, def->radius) &&
           check_range("step_height", def->step_height, 0.0f, 1e3f) &&
           check_range("mass", def->mass, 1e-3f, 1e9f) &&
           check_range("max_push_force", def->max_push_force, 0.0f, 1e12f);
}

cairn_character *cairn_character_create(cairn_world *world, const cairn_character_def *def)
{
    if (!world_unlocked(world, "cairn_character_create"))
        return NULL;
    if (world == NULL) {
        error_set("cairn_character_create: world is NULL");
        return NULL;
    }
    if (!check_def(def))
        return NULL;
    cairn_character *c = mem_calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    if (!character_shapes_make(def->half_height, def->radius, &c->shapes)) {
        mem_free(c, sizeof *c);
        return NULL;
    }
    c->world = world;
    c->next = world->characters;
    if (world->characters)
        world->characters->prev = c;
    world->characters = c;
    c->def = *def;
    c->walkable_cos = cosf(def->max_slope);
    c->position = def->position;
    c->ground.normal = up;
    return c;
}

void cairn_character_destroy(cairn_character *c)
{
    if (c == NULL || !world_unlocked(c->world, "cairn_character_destroy"))
        return;
    if (c->world != NULL) {
        if (c->prev)
            c->prev->next = c->next;
        else
            c->world->characters = c->next;
        if (c->next)
            c->next->prev = c->prev;
    }
    character_shapes_release(&c->shapes);
    mem_free(c, sizeof *c);
}

static cairn_transform at(vec3s position)
{
    cairn_transform xf = cairn_transform_identity();
    xf.position = position;
    return xf;
}

/* A hit on a body, not on another character (whose id is null). */
static bool is_body(cairn_body_id id)
{
    return id.generation != 0;
}

static bool walkable(const cairn_character *c, vec3s normal)
{
    return normal.y >= c->walkable_cos;
}

/* ---- de-penetration: out of every body it overlaps, along the separating normal ---- */

/* Out of every other character it overlaps (they are obstacles to each other). */
static bool depenetrate_characters(cairn_character *c)
{
    bool moved = false;
    for (const cairn_character *o = c->world->characters; o != NULL; o = o->next) {
        cairn_query_result r;
        if (o == c ||
            !cairn_collide(o->shapes.capsule, at(o->position), c->shapes.capsule, at(c->position),
                           NULL, &r) ||
            r.distance >= 0.0f)
            continue;
        c->position = glms_vec3_add(c->position, glms_vec3_scale(r.normal, SKIN - r.distance));
        moved = true;
    }
    return moved;
}

static void depenetrate(cairn_character *c)
{
    for (int pass = 0; pass < DEPENETRATE_ITERATIONS; ++pass) {
        cairn_body_id bodies[OVERLAP_CAPACITY];
        cairn_query_filter filter = body_filter(c);
        int count = cairn_world_overlap_shape_filtered(c->world, c->shapes.skin, at(c->position),
                                                       &filter, bodies, OVERLAP_CAPACITY);
        bool moved = false;
        for (int i = 0; i < count && i < OVERLAP_CAPACITY; ++i) {
            cairn_query_result r;
            cairn_transform xb = cairn_body_transform(c->world, bodies[i]);
            if (!cairn_collide(cairn_body_shape(c->world, bodies[i]), xb, c->shapes.capsule,
                               at(c->position), NULL, &r) ||
                r.distance >= 0.5f * SKIN)
                continue; /* touching exactly counts: a cast from contact finds no way out */
            /* the normal runs from the body to the capsule: out is along it */
            c->position = glms_vec3_add(c->position, glms_vec3_scale(r.normal, SKIN - r.distance));
            moved = true;
        }
        moved |= depenetrate_characters(c);
        if (!moved)
            return;
    }
}

/* ---- pushing ---- */

/* The pushes of one move, applied once the path is chosen: a step climb tries a second path
   from the same start, and the body in front must not be pushed by both. */
typedef struct push_list {
    cairn_body_id body[SLIDE_ITERATIONS];
    vec3s impulse[SLIDE_ITERATIONS], point[SLIDE_ITERATIONS];
    int count;
} push_list;

/* An impulse into a dynamic body it runs into, at most max_push_force dt, and no more than
   stops the character's motion into it. A body met again in the same move keeps the larger
   push, not the sum: the limit is per move. */
static void push(cairn_character *c, const cairn_shape_cast_hit *hit, vec3s motion, float dt,
                 push_list *pushes)
{
    if (!is_body(hit->body) || cairn_body_get_type(c->world, hit->body) != CAIRN_DYNAMIC)
        return;
    float into = -glms_vec3_dot(motion, hit->normal) / dt; /* m/s towards the body */
    if (into <= 0.0f)
        return;
    float impulse = fminf(c->def.max_push_force * dt, c->def.mass * into);
    vec3s along = glms_vec3_scale(hit->normal, -impulse);
    int k = 0;
    while (k < pushes->count && !cairn_body_id_equal(pushes->body[k], hit->body))
        ++k;
    if (k < pushes->count && glms_vec3_norm2(pushes->impulse[k]) >= impulse * impulse)
        return;
    if (k == pushes->count && pushes->count == SLIDE_ITERATIONS)
        return;
    pushes->count += k == pushes->count;
    pushes->body[k] = hit->body;
    pushes->impulse[k] = along;
    pushes->point[k] = hit->point;
}

static void apply_pushes(cairn_character *c, const push_list *pushes)
{
    for (int k = 0; k < pushes->count; ++k)
        cairn_body_apply_impulse(c->world, pushes->body[k], pushes->impulse[k], pushes->point[k]);
}

/* ---- move and slide ---- */

/* The plane a hit stops motion with: a slope too steep to walk is a vertical wall for motion
   that does not go down (so it cannot be climbed), its own plane for motion that does (so the
   character slides down it). */
static vec3s blocking_normal(const cairn_character *c, vec3s normal, vec3s motion)
{
    if (walkable(c, normal) || normal.y <= 0.0f || motion.y < 0.0f)
        return normal;
    vec3s flat = {{normal.x, 0.0f, normal.z}};
    float length = glms_vec3_norm(flat);
    return length > 1e-6f ? glms_vec3_scale(flat, 1.0f / length) : normal;
}

/* Removes the part of motion into the planes met so far (at most two at once: into a crease,
   motion follows the crease). */
static vec3s clip(vec3s motion, const vec3s *planes, int count)
{
    for (int i = 0; i < count; ++i) {
        float into = glms_vec3_dot(motion, planes[i]);
        if (into < 0.0f)
            motion = glms_vec3_sub(motion, glms_vec3_scale(planes[i], into));
    }
    for (int i = 0; i < count; ++i)
        for (int j = i + 1; j < count; ++j)
            if (glms_vec3_dot(motion, planes[i]) < -1e-6f ||
                glms_vec3_dot(motion, planes[j]) < -1e-6f) {
                vec3s crease = glms_vec3_cross(planes[i], planes[j]);
                float length = glms_vec3_norm(crease);
                if (length < 1e-6f)
                    return glms_vec3_zero();
                crease = glms_vec3_scale(crease, 1.0f / length);
                motion = glms_vec3_scale(crease, glms_vec3_dot(motion, crease));
            }
    return motion;
}

void characters_orphan(cairn_world *world)
{
    for (cairn_character *c = world->characters; c != NULL; c = c->next)
        c->world = NULL;
    world->characters = NULL;
}

/* The first thing the shape meets moving by motion: a body of the world or another character
   (as an obstacle that does not move; its body id is null). */
static bool sweep(const cairn_character *c, const cairn_shape *shape, vec3s motion,
                  cairn_shape_cast_hit *hit)
{
    cairn_query_filter filter = body_filter(c);
    bool found =
        cairn_world_shape_cast_filtered(c->world, shape, at(c->position), motion, &filter, hit);
    for (const cairn_character *o = c->world->characters; o != NULL; o = o->next) {
        cairn_cast_hit h;
        if (o == c || !cairn_shape_cast(o->shapes.capsule, at(o->position), shape, at(c->position),
                                        motion, &h))
            continue;
        if (found && h.fraction >= hit->fraction)
            continue;
        *hit = (cairn_shape_cast_hit){{0, 0}, h.point, h.normal, h.fraction};
        found = true;
    }
    return found;
}

/* Casts the capsule along motion; moves it to the hit (less the skin) or all the way. Returns
   whether something was hit. */
static bool cast_shape_and_move(cairn_character *c, const cairn_shape *shape, vec3s motion,
                                cairn_shape_cast_hit *hit)
{
    float length = glms_vec3_norm(motion);
    if (length < 1e-7f)
        return false;
    if (!sweep(c, shape, motion, hit)) {
        c->position = glms_vec3_add(c->position, motion);
        return false;
    }
    float travel = fmaxf(0.0f, hit->fraction * length - SKIN);
    c->position = glms_vec3_add(c->position, glms_vec3_scale(motion, travel / length));
    return true;
}

static bool cast_and_move(cairn_character *c, vec3s motion, cairn_shape_cast_hit *hit)
{
    return cast_shape_and_move(c, c->shapes.capsule, motion, hit);
}

/* Moves straight up or down with the slim capsule, its bottom level with the full one's. */
static bool cast_vertical(cairn_character *c, float distance, cairn_shape_cast_hit *hit)
{
    vec3s motion = glms_vec3_scale(up, distance);
    if (distance < 0.0f)
        motion = glms_vec3_scale(up, distance - c->shapes.slim_lift);
    vec3s start = c->position;
    bool hit_something = cast_shape_and_move(c, c->shapes.slim, motion, hit);
    /* the slim capsule stopped lower than the full one would: by slim_lift across the surface,
       so by slim_lift / n.y vertically */
    if (distance < 0.0f && hit_something && hit->normal.y > 1e-3f)
        c->position.y =
            fmaxf(c->position.y + c->shapes.slim_lift / hit->normal.y, start.y + distance);
    return hit_something;
}

/* Slides along everything met; returns whether a wall (not walkable) stopped horizontal
   motion, for the step climb. */
static bool slide(cairn_character *c, vec3s motion, float dt, bool *hit_wall, push_list *pushes)
{
    vec3s planes[SLIDE_ITERATIONS];
    int count = 0;
    *hit_wall = false;
    for (int i = 0; i < SLIDE_ITERATIONS; ++i) {
        vec3s start = c->position;
        cairn_shape_cast_hit hit;
        if (!cast_and_move(c, motion, &hit))
            return true;
        push(c, &hit, motion, dt, pushes);
        vec3s done = glms_vec3_sub(c->position, start);
        vec3s left = glms_vec3_sub(motion, done);
        vec3s normal = blocking_normal(c, hit.normal, left);
        *hit_wall |= !walkable(c, hit.normal) && hit.normal.y > -0.1f;
        planes[count++] = normal;
        motion = clip(left, planes, count);
    }
    return false;
}

/* Whether a landing is on walkable ground. The rounded foot meets a step's edge with a
   sloped normal, so an edge counts when a ray just past it, along the motion, finds walkable
   ground at its height (a slope has no such ground: its surface goes on rising). */
static bool walkable_beside(const cairn_character *c, vec3s point, vec3s offset)
{
    vec3s above = glms_vec3_scale(up, c->def.step_height + GROUND_PROBE);
    vec3s origin = glms_vec3_add(point, glms_vec3_add(offset, above));
    cairn_ray_hit ground;
    cairn_query_filter filter = body_filter(c);
    return cairn_world_raycast_filtered(c->world, origin, glms_vec3_scale(above, -2.0f), &filter,
                                        &ground) &&
           walkable(c, ground.normal) && fabsf(ground.point.y - point.y) < GROUND_PROBE;
}

/* Whether a hit from above is on walkable ground. The rounded foot meets the edge of a step
   with a sloped normal: an edge counts when a ray down just beside it, on either side across
   the capsule's axis, finds walkable ground at its height (a steep slope has none: its
   surface keeps rising or falling). */
static bool stands_on(const cairn_character *c, const cairn_shape_cast_hit *hit)
{
    if (walkable(c, hit->normal))
        return true;
    if (hit->normal.y <= 0.0f)
        return false;
    vec3s across = {{hit->point.x - c->position.x, 0.0f, hit->point.z - c->position.z}};
    float length = glms_vec3_norm(across);
    if (length < 1e-6f)
        return false;
    vec3s offset = glms_vec3_scale(across, 2.0f * GROUND_PROBE / length);
    return walkable_beside(c, hit->point, offset) ||
           walkable_beside(c, hit->point, glms_vec3_negate(offset));
}

/* Up by the step height, the horizontal motion, and back down onto walkable ground: kept only
   when it lands on walkable ground higher than it started and got farther than sliding did. */
static void climb_step(cairn_character *c, vec3s before, vec3s horizontal, float dt,
                       push_list *pushes)
{
    vec3s slid = c->position;
    push_list climbed = {.count = 0};
    c->position = before;
    cairn_shape_cast_hit hit;
    cast_vertical(c, c->def.step_height, &hit);
    float raised = c->position.y - before.y;
    bool wall;
    slide(c, horizontal, dt, &wall, &climbed);
    if (cast_vertical(c, -(raised + GROUND_PROBE), &hit) && stands_on(c, &hit) &&
        c->position.y > before.y + 1e-4f &&
        glms_vec3_norm2(glms_vec3_sub(c->position, before)) >
            glms_vec3_norm2(glms_vec3_sub(slid, before))) {
        *pushes = climbed; /* the climbed path's pushes replace the slid one's */
        return;
    }
    c->position = slid;
}

/* ---- ground ---- */

static void probe_ground(cairn_character *c, float reach, bool snap)
{
    cairn_character_ground none = {false, up, {0, 0}, glms_vec3_zero()};
    cairn_shape_cast_hit hit;
    /* the slim capsule reaches slim_lift further down to cover the same distance */
    float slim_reach = reach + c->shapes.slim_lift;
    vec3s probe = glms_vec3_scale(up, -slim_reach);
    if (!sweep(c, c->shapes.slim, probe, &hit) || !stands_on(c, &hit)) {
        c->ground = none;
        return;
    }
    /* the skin and the slim capsule's lift are across the surface: vertically they are longer
       by 1 / n.y on a slope */
    float gap = hit.fraction * slim_reach - (c->shapes.slim_lift + SKIN) / hit.normal.y;
    if (gap > GROUND_PROBE && !snap) {
        c->ground = none;
        return;
    }
    if (gap > 0.0f)
        c->position.y -= gap; /* stick to the ground walking down slopes and stairs */
    c->ground = (cairn_character_ground){true, hit.normal, hit.body, glms_vec3_zero()};
    if (is_body(hit.body) && cairn_body_get_type(c->world, hit.body) != CAIRN_STATIC) {
        vec3s v = cairn_body_linear_velocity(c->world, hit.body);
        vec3s w = cairn_body_angular_velocity(c->world, hit.body);
        vec3s r = glms_vec3_sub(hit.point, cairn_body_center_of_mass(c->world, hit.body));
        c->ground.velocity = glms_vec3_add(v, glms_vec3_cross(w, r));
    }
}

bool cairn_character_move(cairn_character *c, vec3s velocity, float dt)
{
    if (c == NULL)
        return error_set("cairn_character_move: character is NULL");
    if (c->world == NULL)
        return error_set("cairn_character_move: its world was destroyed");
    if (!world_unlocked(c->world, "cairn_character_move"))
        return false;
    if (!is_finite_vec3(velocity) || glms_vec3_norm(velocity) > MAX_SPEED)
        return error_set("cairn_character_move: velocity is not finite or above 1e4 m/s");
    if (!is_finite_float(dt) || dt <= 0.0f || dt > 1.0f)
        return error_set("cairn_character_move: dt = %g is outside (0, 1]", (double)dt);
    vec3s start = c->position;
    bool was_on_ground = c->ground.on_ground;
    /* what it stands on carries it (a platform, a lift) */
    vec3s carried = was_on_ground ? c->ground.velocity : glms_vec3_zero();
    depenetrate(c);
    vec3s motion = glms_vec3_scale(glms_vec3_add(velocity, carried), dt);
    vec3s before = c->position;
    bool wall;
    push_list pushes = {.count = 0};
    slide(c, motion, dt, &wall, &pushes);
    vec3s horizontal = {{motion.x, 0.0f, motion.z}};
    if (wall && was_on_ground && c->def.step_height > 0.0f && glms_vec3_norm(horizontal) > 1e-6f)
        climb_step(c, before, horizontal, dt, &pushes);
    apply_pushes(c, &pushes);
    bool rising = velocity.y > 1e-3f;
    probe_ground(c, was_on_ground && !rising ? c->def.step_height + GROUND_PROBE : GROUND_PROBE,
                 was_on_ground && !rising);
    c->velocity = glms_vec3_scale(glms_vec3_sub(c->position, start), 1.0f / dt);
    return true;
}

vec3s cairn_character_position(const cairn_character *c)
{
    return c ? c->position : glms_vec3_zero();
}

bool cairn_character_set_position(cairn_character *c, vec3s position)
{
    if (c == NULL)
        return error_set("cairn_character_set_position: character is NULL");
    if (!world_unlocked(c->world, "cairn_character_set_position"))
        return false;
    if (!is_finite_vec3(position) || glms_vec3_norm(position) > MAX_POSITION)
        return error_set("cairn_character_set_position: position is not finite or beyond 1e6 m");
    c->position = position;
    c->ground = (cairn_character_ground){false, up, {0, 0}, glms_vec3_zero()};
    return true;
}

/* ---- size: crouching and standing up ---- */

/* Whether a capsule at position has room: it overlaps no body it collides with, and no other
   character, by more than half the skin (touching counts as room, as in depenetrate). More
   bodies around it than it can look at count as no room. */
static bool has_room(const cairn_character *c, const cairn_shape *capsule, vec3s position)
{
    cairn_body_id bodies[OVERLAP_CAPACITY];
    cairn_query_filter filter = body_filter(c);
    int count = cairn_world_overlap_shape_filtered(c->world, capsule, at(position), &filter, bodies,
                                                   OVERLAP_CAPACITY);
    if (count < 0 || count > OVERLAP_CAPACITY)
        return false;
    cairn_query_result r;
    for (int i = 0; i < count; ++i)
        if (cairn_collide(cairn_body_shape(c->world, bodies[i]),
                          cairn_body_transform(c->world, bodies[i]), capsule, at(position), NULL,
                          &r) &&
            r.distance < -0.5f * SKIN)
            return false;
    for (const cairn_character *o = c->world->characters; o != NULL; o = o->next)
        if (o != c &&
            cairn_collide(o->shapes.capsule, at(o->position), capsule, at(position), NULL, &r) &&
            r.distance < -0.5f * SKIN)
            return false;
    return true;
}

bool cairn_character_set_size(cairn_character *c, float half_height, float radius)
{
    if (c == NULL)
        return error_set("cairn_character_set_size: character is NULL");
    if (c->world == NULL)
        return error_set("cairn_character_set_size: its world was destroyed");
    if (!world_unlocked(c->world, "cairn_character_set_size") ||
        !character_size_valid("cairn_character_set_size", half_height, radius))
        return false;
    /* the lowest point stays where it is: crouching keeps the feet on the ground */
    float rise = (half_height + radius) - (c->def.half_height + c->def.radius);
    vec3s position = glms_vec3_add(c->position, glms_vec3_scale(up, rise));
    character_shapes shapes;
    if (!character_shapes_make(half_height, radius, &shapes))
        return error_set("cairn_character_set_size: out of memory");
    if (!has_room(c, shapes.capsule, position)) {
        character_shapes_release(&shapes);
        return error_set("cairn_character_set_size: no room for half_height %g, radius %g: the "
                         "capsule would overlap a body or another character",
                         (double)half_height, (double)radius);
    }
    character_shapes_release(&c->shapes);
    c->shapes = shapes;
    c->def.half_height = half_height;
    c->def.radius = radius;
    c->position = position;
    return true;
}

void cairn_character_size(const cairn_character *c, float *half_height, float *radius)
{
    *half_height = c ? c->def.half_height : 0.0f;
    *radius = c ? c->def.radius : 0.0f;
}

vec3s cairn_character_velocity(const cairn_character *c)
{
    return c ? c->velocity : glms_vec3_zero();
}

cairn_character_ground cairn_character_ground_state(const cairn_character *c)
{
    cairn_character_ground none = {false, up, {0, 0}, glms_vec3_zero()};
    return c ? c->ground : none;
}

int characters_count(const cairn_world *world)
{
    int count = 0;
    for (const cairn_character *c = world->characters; c != NULL; c = c->next)
        ++count;
    return count;
}

void characters_save(const cairn_world *world, character_record *out)
{
    int i = 0;
    for (const cairn_character *c = world->characters; c != NULL; c = c->next)
        out[i++] = (character_record){c->position, c->velocity, c->ground, c->def.half_height,
                                      c->def.radius};
}

cairn_character *characters_first(const cairn_world *world)
{
    return world->characters;
}

cairn_character *characters_next(const cairn_character *c)
{
    return c->next;
}

bool characters_same_size(const cairn_character *c, const character_record *in)
{
    return c->def.half_height == in->half_height && c->def.radius == in->radius;
}

void characters_load_one(cairn_character *c, const character_record *in, character_shapes *shapes)
{
    c->position = in->position;
    c->velocity = in->velocity;
    c->ground = in->ground;
    if (shapes->capsule != NULL) {
        character_shapes_release(&c->shapes);
        c->shapes = *shapes;
        *shapes = (character_shapes){0};
        c->def.half_height = in->half_height;
        c->def.radius = in->radius;
    }
}
