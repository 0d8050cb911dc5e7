/* Joints in the solver step: the active set, the per-substep frames, the dispatch to each
   type's rows, reactions and the break test. */
#include "dynamics/joint_solver.h"

#include "dynamics/contact_rows.h"
#include "dynamics/joint.h"

#include "core/xform.h"

#include <math.h>
#include <string.h>

const joint_ops *joint_ops_of(cairn_joint_type type)
{
    static const joint_ops *const table[] = {
        [CAIRN_JOINT_BALL] = &joint_ball_ops,
        [CAIRN_JOINT_HINGE] = &joint_hinge_ops,
        [CAIRN_JOINT_SLIDER] = &joint_slider_ops,
        [CAIRN_JOINT_FIXED] = &joint_fixed_ops,
        [CAIRN_JOINT_DISTANCE] = &joint_distance_ops,
        [CAIRN_JOINT_SWING_TWIST] = &joint_swing_twist_ops,
        [CAIRN_JOINT_WHEEL] = &joint_wheel_ops,
    };
    return table[type];
}

/* A frame's k-th axis: what rotating the unit vector e_k by the frame gives, written out with
   the products by the zeros of e_k left out (the joints ask for these several times a
   substep). The operations that remain are those of glms_quat_rotatev, in its order: the same
   axis to the bit. */
static vec3s unit_frame_axis(versors p, int k)
{
    vec3s u = {{p.x, p.y, p.z}};
    float s = p.w;
    float along = 2.0f * u.raw[k], scale = s * s - glms_vec3_dot(u, u), twice = 2.0f * s;
    vec3s v = glms_vec3_scale(u, along);
    v.raw[k] += scale;
    /* u x e_k, which has a zero at k */
    int next = (k + 1) % 3, last = (k + 2) % 3;
    v.raw[next] += u.raw[last] * twice;
    v.raw[last] += -u.raw[next] * twice;
    return v;
}

vec3s joint_axis_x(versors frame)
{
    return unit_frame_axis(glms_quat_normalize(frame), 0);
}

vec3s joint_axis_y(versors frame)
{
    return unit_frame_axis(glms_quat_normalize(frame), 1);
}

vec3s joint_axis_z(versors frame)
{
    return unit_frame_axis(glms_quat_normalize(frame), 2);
}

versors joint_relative_rotation(const joint_step *s)
{
    return glms_quat_mul(glms_quat_conjugate(s->frame_a), s->frame_b);
}

float joint_translation(const joint_step *s)
{
    return glms_vec3_dot(glms_vec3_sub(s->anchor_b, s->anchor_a), joint_axis_x(s->frame_a));
}

float joint_twist_angle(versors q)
{
    /* the twist part of q = swing * twist is (x, 0, 0, w) normalised; its angle 2 atan2(x, w),
       taken with w >= 0 so that it lies in (-pi, pi] */
    float sign = q.w < 0.0f ? -1.0f : 1.0f;
    return 2.0f * atan2f(sign * q.x, sign * q.w);
}

vec3s joint_rotation_vector(versors q)
{
    float sign = q.w < 0.0f ? -1.0f : 1.0f;
    vec3s v = {{sign * q.x, sign * q.y, sign * q.z}};
    float s = glms_vec3_norm(v);
    if (s < 1e-7f)
        return glms_vec3_scale(v, 2.0f); /* the limit of angle / sin(angle / 2) */
    return glms_vec3_scale(v, 2.0f * atan2f(s, sign * q.w) / s);
}

void joint_lock_rotation(angle_part *lock, const joint_step *s)
{
    const vec3s *axes = s->axes_a;
    /* the relative rotation is in A's joint frame: its components are about A's axes */
    vec3s turn = joint_rotation_vector(joint_relative_rotation(s));
    float error[3] = {turn.x, turn.y, turn.z};
    angle_prepare(lock, &s->pair, axes, 3, error, !s->direct);
}

/* A side of the joint: the body's state in the step written into state, and its pose (the
   world's: at rest at the origin, no response). Written in place, not returned: a joint's
   sides are read at every substep. */
static const body *side_of(joint_solver *js, uint32_t index, joint_body_state *state)
{
    cairn_world *w = js->world;
    if (index == JOINT_WORLD) {
        *state = (joint_body_state){&js->velocities[w->bodies.count], 0.0f, glms_mat3_zero()};
        return NULL;
    }
    const body *b = &w->bodies.data[index];
    body_velocity *v = &js->velocities[index];
    state->velocity = v;
    state->inverse_mass = v->inverse_mass;
    state->inverse_inertia = v->inverse_mass > 0.0f ? b->inverse_inertia : glms_mat3_zero();
    state->locked_translation = body_translation_lock(b);
    return b;
}

static bool moves(const cairn_world *world, uint32_t index)
{
    return index != JOINT_WORLD && world->bodies.data[index].awake;
}

static bool is_enabled(const cairn_world *world, uint32_t index)
{
    return index == JOINT_WORLD || world->bodies.data[index].enabled;
}

static bool is_dynamic(const cairn_world *world, uint32_t index)
{
    return index != JOINT_WORLD && world->bodies.data[index].type == CAIRN_DYNAMIC;
}

/* A joint takes part when one of its bodies moves this step, one is dynamic (a body's type can
   change after the joint was made) and neither is disabled. */
static bool joint_is_active(const cairn_world *world, const joint *j)
{
    return j->alive && (moves(world, j->body_a) || moves(world, j->body_b)) &&
           (is_dynamic(world, j->body_a) || is_dynamic(world, j->body_b)) &&
           is_enabled(world, j->body_a) && is_enabled(world, j->body_b);
}

static void rest_if_still(joint_solver *js, uint32_t index)
{
    if (index != JOINT_WORLD && !js->world->bodies.data[index].awake)
        velocities_rest(js->velocities, index);
}

static bool side_moves(const joint_solver *js, uint32_t index)
{
    return index != JOINT_WORLD && js->velocities[index].inverse_mass > 0.0f;
}

/* The group of active joint k (group_of is only read when there are several). */
static int group_of_joint(const joint_solver *js, const int *group_of, int k)
{
    if (js->group_count == 1)
        return 0;
    int group = group_of[js->active[k]];
    return group >= 0 && group < js->group_count ? group : 0;
}

/* The active joints into js->order, group by group and in a group colour by colour, each in
   index order (a counting sort on group and colour; colors[k] the colour of active joint k), and
   each group's colour offsets. next: room for group_count * GRAPH_BUCKETS slots. */
static void order_joints(joint_solver *js, const int *group_of, const uint8_t *colors, int *next)
{
    int buckets = js->group_count * GRAPH_BUCKETS;
    memset(next, 0, sizeof(int) * (size_t)buckets);
    for (int k = 0; k < js->count; ++k)
        next[group_of_joint(js, group_of, k) * GRAPH_BUCKETS + colors[k]]++;
    for (int b = 0, first = 0; b < buckets; ++b) {
        int count = next[b];
        js->groups[b / GRAPH_BUCKETS].color_first[b % GRAPH_BUCKETS] = first;
        next[b] = first;
        first += count;
    }
    for (int g = 0; g < js->group_count; ++g)
        js->groups[g].color_first[GRAPH_BUCKETS] =
            g + 1 < js->group_count ? js->groups[g + 1].color_first[0] : js->count;
    for (int k = 0; k < js->count; ++k)
        js->order[next[group_of_joint(js, group_of, k) * GRAPH_BUCKETS + colors[k]]++] =
            (uint32_t)k;
}

/* Colours the active joints in index order (graph_color.h) and orders them group by group (a
   group's colours are those the whole step's colouring gives: groups share no moving body).
   Without scratch memory for the body masks every joint goes to its group's overflow, in index
   order; without memory for the order, false. */
static bool color_joints(joint_solver *js, const int *group_of)
{
    cairn_world *w = js->world;
    size_t bodies = (size_t)w->bodies.count + 1;
    size_t buckets = (size_t)js->group_count * GRAPH_BUCKETS;
    graph_mask *used = arena_push(&w->scratch, sizeof *used * bodies, "joint body colours");
    uint8_t *colors = arena_push(&w->scratch, (size_t)js->count + 1, "joint colours");
    int *next = arena_push(&w->scratch, sizeof(int) * buckets, "joint colour slots");
    if (used && colors) {
        memset(used, 0, sizeof *used * bodies);
        for (int k = 0; k < js->count; ++k) {
            uint32_t a = js->bodies[k][0], b = js->bodies[k][1];
            colors[k] = (uint8_t)graph_color_pick(used, a, side_moves(js, a), b, side_moves(js, b));
        }
    } else if (colors) {
        memset(colors, GRAPH_OVERFLOW, (size_t)js->count);
    }
    bool ordered = colors && next;
    if (ordered)
        order_joints(js, group_of, colors, next);
    void *pushed[] = {next, colors, used};
    for (int i = 0; i < 3; ++i)
        if (pushed[i])
            arena_pop(&w->scratch, pushed[i]);
    return ordered;
}

static void find_trees(joint_solver *js, const int *group_of);

void joints_begin(joint_solver *js, cairn_world *world, team *t, body_velocity *velocities, float h,
                  const bool *touching, const int *group_of, int group_count)
{
    *js = (joint_solver){
        .world = world, .team = t, .velocities = velocities, .h = h, .touching = touching};
    velocities_rest(velocities, (uint32_t)world->bodies.count);
    int live = world->joints.count;
    for (int i = 0; i < live; ++i) {
        joint *j = &world->joints.data[i];
        j->reaction_force = glms_vec3_zero();
        j->reaction_torque = glms_vec3_zero();
    }
    if (id_pool_count(&world->joint_ids) == 0)
        return;
    size_t n = (size_t)live;
    js->active = arena_push(&world->scratch, sizeof(uint32_t) * n, "active joints");
    js->steps = arena_push(&world->scratch, sizeof(joint_step) * n, "joint steps");
    js->rows = arena_push(&world->scratch, sizeof(tree_joint) * n, "joint rows");
    js->blocks = arena_push(&world->scratch, sizeof(joint_block) * n, "joint blocks");
    js->bodies = arena_push(&world->scratch, sizeof(uint32_t[2]) * n, "joint bodies");
    js->in_tree = arena_push(&world->scratch, sizeof(bool) * n, "joints in trees");
    js->alone = arena_push(&world->scratch, sizeof(bool) * n, "joints alone in trees");
    js->order = arena_push(&world->scratch, sizeof(uint32_t) * n, "joint order");
    js->group_count = group_of && group_count > 0 ? group_count : 1;
    js->groups =
        arena_push(&world->scratch, sizeof(joint_group) * (size_t)js->group_count, "joint groups");
    if (!js->active || !js->steps || !js->rows || !js->blocks || !js->bodies || !js->in_tree ||
        !js->alone || !js->order || !js->groups) {
        joints_end(js); /* no memory: the joints sit this step out */
        return;
    }
    for (int i = 0; i < live; ++i) {
        joint *j = &world->joints.data[i];
        if (!joint_is_active(world, j))
            continue;
        rest_if_still(js, j->body_a);
        rest_if_still(js, j->body_b);
        js->bodies[js->count][0] = j->body_a;
        js->bodies[js->count][1] = j->body_b;
        js->in_tree[js->count] = js->alone[js->count] = false;
        if (!world->def.solver.warm_starting) /* the step starts from zero impulses */
            joint_reset_impulses(j);
        js->active[js->count++] = (uint32_t)i;
    }
    if (!color_joints(js, group_of)) {
        js->count = 0;
        joints_end(js); /* no memory: the joints sit this step out */
        return;
    }
    find_trees(js, group_of);
}

/* The share of a joint's position error one position pass closes (split impulse mode). */
#define JOINT_POSITION_FACTOR 0.8f

/* The fewest joints a worker takes at once. */
enum { JOINT_BLOCK = 4 };

static void for_each_joint_color(joint_solver *js, team_stage_fn *stage)
{
    if (js->group)
        graph_color_run(js->team, js->group->color_first, &js->stage_first, stage, js, JOINT_BLOCK);
}

/* The joint's frames at the bodies' current poses. */
static void frame_step(joint_solver *js, const joint *j, joint_step *s)
{
    const body *a = side_of(js, j->body_a, &s->pair.a), *b = side_of(js, j->body_b, &s->pair.b);
    cairn_transform pose_a = a ? a->transform : cairn_transform_identity();
    vec3s center_a = a ? a->center : glms_vec3_zero();
    s->anchor_a = xform_point(pose_a, j->local_anchor_a);
    s->anchor_b = xform_point(b->transform, j->local_anchor_b);
    s->r_a = glms_vec3_sub(s->anchor_a, center_a);
    s->r_b = glms_vec3_sub(s->anchor_b, b->center);
    if (joint_ops_of(j->type)->frameless)
        return;
    s->frame_a = glms_quat_mul(pose_a.rotation, j->local_frame_a);
    s->frame_b = glms_quat_mul(b->transform.rotation, j->local_frame_b);
    versors unit_a = glms_quat_normalize(s->frame_a); /* once for its three axes */
    for (int k = 0; k < 3; ++k)
        s->axes_a[k] = unit_frame_axis(unit_a, k);
    s->x_b = joint_axis_x(s->frame_b);
}

float joint_position_now(const cairn_world *world, const joint *j)
{
    cairn_transform a = j->body_a == JOINT_WORLD ? cairn_transform_identity()
                                                 : world->bodies.data[j->body_a].transform;
    cairn_transform b = world->bodies.data[j->body_b].transform;
    joint_step s = {
        .anchor_a = xform_point(a, j->local_anchor_a),
        .anchor_b = xform_point(b, j->local_anchor_b),
        .frame_a = glms_quat_mul(a.rotation, j->local_frame_a),
        .frame_b = glms_quat_mul(b.rotation, j->local_frame_b),
    };
    return joint_ops_of(j->type)->position(j, &s);
}

/* The softness of a joint's rows in the passes and in the relax passes. A calm tree
   (joint_tree.h) is rigid, its error closed at the soft rate, and keeps that bias through the
   relax passes: relaxing it away costs a swinging pendulum its energy (13% in 10 s from 60
   degrees, 0.8% kept). Every other row is a soft constraint of the world's joint softness,
   relaxed like the contacts. */
static void set_softness(joint_solver *js, int k, softness soft)
{
    const softness velocity_only = {0.0f, 1.0f, 0.0f};
    bool calm = js->in_tree[k];
    js->steps[k].relax_soft = calm ? soft : velocity_only;
    js->rows[k].soft = (softness){soft.bias_rate, 1.0f, 0.0f};
}

/* Rows besides the equality rows: a limit, motor or spring, or a swing-twist's cone. */
static bool has_free_rows(const joint *j)
{
    const cairn_joint_def *d = &j->settings;
    return d->enable_limit || d->enable_motor || d->enable_spring ||
           j->type == CAIRN_JOINT_SWING_TWIST;
}

/* The rigid softness of this substep's joint rows. */
static softness rigid_softness(const joint_solver *js)
{
    const cairn_solver_settings *settings = &js->world->def.solver;
    float inverse_h = 1.0f / js->h;
    /* split impulse: velocities only, and the position passes close the error
       (joints_correct_positions). A bias velocity stays in the bodies: with it, ragdolls lying
       on the ground never came to rest (joints.md). */
    if (settings->position_correction == CAIRN_SPLIT_IMPULSE)
        return (softness){0.0f, 1.0f, 0.0f};
    if (settings->position_correction == CAIRN_BAUMGARTE)
        return (softness){settings->baumgarte * inverse_h, 1.0f, 0.0f};
    /* stiffer than a quarter of the substep rate is not stable */
    return make_soft(fminf(settings->joint_hertz, 0.25f * inverse_h), settings->joint_damping_ratio,
                     js->h);
}

/* Whether the passes solve a joint's equality rows as one block (joint_block.h): in the rigid
   modes, when the rows are two parts. A single part (a ball's point, a distance's rod) is a
   block already, which its type solves with the same result at half the cost (100 ball-jointed
   chains in Baumgarte mode: solver 1.4 ms against 2.5-3.0 ms through the generic block). Soft step
   keeps its soft rows part by part, as its ragdolls were tuned: with soft blocks, 4 of 24 perturbed
   runs of the ragdoll staircase never slept (2 part by part) and one hinge came to rest tilted by 1
   rad (0.3 at most part by part). */
static bool solves_blocks(const joint_solver *js, const joint *j)
{
    return js->world->def.solver.position_correction != CAIRN_SOFT_STEP &&
           joint_ops_of(j->type)->coupled_parts;
}

/* Factors joint k's block (its rows are set) and lends it to the type's free axis. */
static void factor_block(joint_solver *js, uint32_t k)
{
    joint_block_factor(&js->blocks[k], &js->rows[k]);
    js->steps[k].block = &js->blocks[k];
    js->steps[k].block_rows = &js->rows[k];
    js->steps[k].coupled = false;
}

/* Each joint alone: its frames, rows and masses at the current poses, and the block of a joint
   the passes solve as one (in a tree too when it has rows besides, which are solved against
   it: exact for a joint alone in its tree). The type solves the equality rows unless the tree solve
   or a block takes them (direct). Until the trees are found at the first substep, they are guessed
   as in the last step (find_trees mends the guess). */
static void stage_prepare(void *context, int start, int end, int worker)
{
    (void)worker;
    joint_solver *js = context;
    float inverse_h = 1.0f / js->h;
    softness rigid = rigid_softness(js);
    for (int p = js->stage_first + start; p < js->stage_first + end; ++p) {
        uint32_t k = js->order[p];
        joint *j = &js->world->joints.data[js->active[k]];
        joint_step *s = &js->steps[k];
        frame_step(js, j, s);
        s->h = js->h;
        s->inverse_h = inverse_h;
        s->rigid_soft = rigid;
        s->positional = false;
        bool in_tree = js->tree_built ? js->in_tree[k] : j->was_in_tree;
        bool block = solves_blocks(js, j) && !in_tree;
        s->direct = in_tree || block;
        s->block = NULL;
        const joint_ops *ops = joint_ops_of(j->type);
        ops->prepare(j, s);
        tree_joint *rows = &js->rows[k];
        rows->pair = &s->pair;
        set_softness(js, (int)k, rigid);
        rows->moves_a = s->pair.a.inverse_mass > 0.0f;
        rows->moves_b = s->pair.b.inverse_mass > 0.0f;
        /* the rows are the tree solve's and the blocks': none when neither runs; once the trees
           are known, only theirs and the blocks' */
        if (!js->world->def.solver.joint_trees && !block)
            rows->count = 0;
        else if (!js->tree_built || in_tree || block)
            rows->count = ops->equality_rows(j, s, rows->rows);
        /* a joint alone in its tree: its free axis against its own rows is exact (a pendulum
           with a limit: in Baumgarte mode, solved alone, its box 2 m out reached 760 m/s); in a
           larger tree its own rows are not what the tree solve does (a guess until the trees
           are found) */
        bool lone = js->tree_built ? js->alone[k] : in_tree;
        bool factored = block || (solves_blocks(js, j) && lone && has_free_rows(j));
        if (factored && rows->count > 0)
            factor_block(js, k);
    }
}

/* The group's trees [start, end), each alone. */
static void stage_tree_factor(void *context, int start, int end, int worker)
{
    (void)worker;
    joint_solver *js = context;
    for (int i = js->stage_first + start; i < js->stage_first + end; ++i)
        joint_tree_factor(&js->tree, js->rows, js->group_trees[i], js->group_trees[i] + 1);
}

static void stage_tree_solve(void *context, int start, int end, int worker)
{
    (void)worker;
    joint_solver *js = context;
    for (int i = js->stage_first + start; i < js->stage_first + end; ++i)
        joint_tree_solve(&js->tree, js->rows, js->group_trees[i], js->group_trees[i] + 1);
}

/* The trees at the step's poses (joint_tree.h), from every active joint's rows, and each
   group's trees. Without scratch memory no joint is in a tree. */
static void find_trees(joint_solver *js, const int *group_of)
{
    if (js->count == 0)
        return;
    js->stage_first = 0; /* every position */
    team_stage_run(js->team, TEAM_CONSTRAINTS, stage_prepare, js, js->count, JOINT_BLOCK);
    js->tree_built = true;
    if (js->world->def.solver.joint_trees)
        joint_tree_build(&js->tree, &js->world->scratch, js->world->bodies.count, js->rows,
                         (const uint32_t(*)[2])js->bodies, js->count, js->touching,
                         js->in_tree); /* else no joint is in a tree (joints_begin) */
    if (js->world->def.solver.joint_trees)
        joint_tree_mark_alone(&js->tree, js->alone);
    for (int k = 0; k < js->count; ++k) { /* the rows outside trees are soft */
        set_softness(js, k, js->steps[k].rigid_soft);
        joint *j = &js->world->joints.data[js->active[k]];
        if (j->was_in_tree && !js->in_tree[k]) { /* guessed wrong: it needs its masses */
            js->steps[k].direct = solves_blocks(js, j);
            if (js->steps[k].direct && js->rows[k].count > 0 && !js->steps[k].block)
                factor_block(js, k);
            else if (!js->steps[k].direct)
                joint_ops_of(j->type)->prepare(j, &js->steps[k]);
        }
        if (js->in_tree[k] && !js->alone[k]) /* guessed alone: its tree is larger */
            js->steps[k].block = NULL;
        j->was_in_tree = js->in_tree[k];
        js->tree_iterates |= js->in_tree[k] && has_free_rows(j);
    }
    int trees = js->tree.tree_count;
    js->group_trees =
        trees > 0 ? arena_push(&js->world->scratch, sizeof(int) * (size_t)trees, "trees by group")
                  : NULL;
    for (int g = 0; g < js->group_count; ++g)
        js->groups[g].tree_first = js->groups[g].tree_end = 0;
    if (js->group_trees == NULL) { /* no trees, or no memory for their list */
        if (trees > 0)
            joint_tree_free(&js->tree, &js->world->scratch);
        memset(js->in_tree, 0, (size_t)js->count);
        memset(js->alone, 0, (size_t)js->count);
        return;
    }
    for (int i = 0; i < trees; ++i) /* the counts first, in tree_end */
        js->groups[group_of_joint(js, group_of, joint_tree_some_joint(&js->tree, i))].tree_end++;
    for (int g = 0, first = 0; g < js->group_count; ++g) {
        int n = js->groups[g].tree_end;
        js->groups[g].tree_first = js->groups[g].tree_end = first;
        first += n;
    }
    for (int i = 0; i < trees; ++i) {
        joint_group *g =
            &js->groups[group_of_joint(js, group_of, joint_tree_some_joint(&js->tree, i))];
        js->group_trees[g->tree_end++] = i;
    }
}

void joints_use_group(joint_solver *js, int group)
{
    js->group = js->count > 0 ? &js->groups[group < js->group_count ? group : 0] : NULL;
}

void joints_prepare(joint_solver *js, bool at_step_start)
{
    const joint_group *g = js->group;
    if (g == NULL)
        return;
    if (!at_step_start) {
        js->stage_first = g->color_first[0];
        team_stage_run(js->team, TEAM_CONSTRAINTS, stage_prepare, js,
                       g->color_first[GRAPH_BUCKETS] - g->color_first[0], JOINT_BLOCK);
    }
    js->stage_first = g->tree_first;
    team_stage_run(js->team, TEAM_CONSTRAINTS, stage_tree_factor, js, g->tree_end - g->tree_first,
                   1);
    js->tree_solved = false;
}

static void stage_warm_start(void *context, int start, int end, int worker)
{
    (void)worker;
    joint_solver *js = context;
    for (int p = js->stage_first + start; p < js->stage_first + end; ++p) {
        uint32_t k = js->order[p];
        joint *j = &js->world->joints.data[js->active[k]];
        joint_ops_of(j->type)->warm_start(j, &js->steps[k]);
    }
}

void joints_warm_start(joint_solver *js)
{
    for_each_joint_color(js, stage_warm_start);
}

/* Each joint by its type, then, in the rigid modes, its equality rows as one block unless the
   tree solve takes them: the rows seen most are met last. */
static void stage_solve(void *context, int start, int end, int worker)
{
    (void)worker;
    joint_solver *js = context;
    for (int p = js->stage_first + start; p < js->stage_first + end; ++p) {
        uint32_t k = js->order[p];
        joint *j = &js->world->joints.data[js->active[k]];
        joint_step *s = &js->steps[k];
        joint_ops_of(j->type)->solve(j, s);
        if (s->block && !js->in_tree[k]) /* in a tree, a block only serves the free axis */
            joint_block_solve(s->block, &js->rows[k], joint_equality_soft(s));
    }
}

void joints_solve(joint_solver *js, bool relax)
{
    const joint_group *g = js->group;
    if (g == NULL)
        return;
    for (int p = g->color_first[0]; p < g->color_first[GRAPH_BUCKETS]; ++p) {
        uint32_t k = js->order[p];
        const joint *j = &js->world->joints.data[js->active[k]];
        js->steps[k].direct = js->in_tree[k] || solves_blocks(js, j);
        js->steps[k].relaxing = relax;
    }
    for_each_joint_color(js, stage_solve);
    if (g->tree_end > g->tree_first && (js->tree_iterates || !js->tree_solved)) {
        js->stage_first = g->tree_first;
        team_stage_run(js->team, TEAM_CONSTRAINTS, stage_tree_solve, js,
                       g->tree_end - g->tree_first, 1);
    }
    js->tree_solved = true;
}

/* A body moved by a position correction, and its motion since the step start with it (the
   contacts measure their separation through it). */
static void shift_body(joint_solver *js, uint32_t index, const body_velocity *v, body_motion *moved)
{
    integrate_shift_pose(&js->world->bodies.data[index], v->linear, v->angular, js->h);
    v4 h = v4_splat(js->h);
    moved[index].linear += v4_from(v->linear) * h;
    moved[index].angular += v4_from(v->angular) * h;
}

/* One joint's position correction at the bodies' current poses: its rows measured and
   linearised there, solved from rest with no impulse kept (on a copy of the joint), and the
   velocities that gives applied to the poses over the substep. Motors and springs act on
   velocities only and take no part (joint friction, solved first, finds nothing moving). */
static void correct_joint(joint_solver *js, uint32_t k, body_motion *moved)
{
    const joint *kept = &js->world->joints.data[js->active[k]];
    joint j;
    joint_copy_without_state(&j, kept);
    /* split impulse is a rigid mode: two parts are one block */
    bool as_block = solves_blocks(js, kept);
    joint_step s = {.h = js->h, .inverse_h = 1.0f / js->h, .positional = true, .direct = as_block};
    frame_step(js, &j, &s);
    body_velocity v_a = {.inverse_mass = s.pair.a.inverse_mass};
    body_velocity v_b = {.inverse_mass = s.pair.b.inverse_mass};
    s.pair.a.velocity = &v_a;
    s.pair.b.velocity = &v_b;
    s.rigid_soft = (softness){JOINT_POSITION_FACTOR * s.inverse_h, 1.0f, 0.0f};
    const joint_ops *ops = joint_ops_of(j.type);
    ops->prepare(&j, &s);
    tree_joint rows = {.pair = &s.pair};
    rows.count = as_block ? ops->equality_rows(&j, &s, rows.rows) : 0;
    joint_block block;
    if (rows.count > 0) {
        joint_block_factor(&block, &rows);
        s.block = &block;
        s.block_rows = &rows;
    }
    ops->solve(&j, &s);
    if (rows.count > 0)
        joint_block_solve(&block, &rows, s.rigid_soft);
    if (v_a.inverse_mass > 0.0f)
        shift_body(js, kept->body_a, &v_a, moved);
    if (v_b.inverse_mass > 0.0f)
        shift_body(js, kept->body_b, &v_b, moved);
}

static void stage_correct_positions(void *context, int start, int end, int worker)
{
    (void)worker;
    joint_solver *js = context;
    for (int p = js->stage_first + start; p < js->stage_first + end; ++p)
        correct_joint(js, js->order[p], js->moved);
}

void joints_correct_positions(joint_solver *js, body_motion *moved)
{
    js->moved = moved;
    for_each_joint_color(js, stage_correct_positions);
}

/* Over break_force in force, or in torque for the joints that hold rotation. */
static bool over_break_force(const joint *j)
{
    float limit = j->settings.break_force;
    if (limit <= 0.0f)
        return false;
    return glms_vec3_norm(j->reaction_force) > limit || glms_vec3_norm(j->reaction_torque) > limit;
}

void joints_end(joint_solver *js)
{
    float inverse_h = 1.0f / js->h;
    for (int k = 0; k < js->count; ++k) {
        joint *j = &js->world->joints.data[js->active[k]];
        vec3s linear, angular;
        joint_ops_of(j->type)->reaction(j, &linear, &angular);
        j->reaction_force = glms_vec3_scale(linear, inverse_h);
        j->reaction_torque = glms_vec3_scale(angular, inverse_h);
        if (over_break_force(j) && !j->broken) {
            j->broken = true;
            js->world->joints_broken++;
        }
    }
    if (js->group_trees)
        arena_pop(&js->world->scratch, js->group_trees);
    joint_tree_free(&js->tree, &js->world->scratch);
    void *pushed[] = {js->groups, js->order, js->alone, js->in_tree, js->bodies,
                      js->blocks, js->rows,  js->steps, js->active};
    for (size_t i = 0; i < sizeof pushed / sizeof pushed[0]; ++i)
        if (pushed[i])
            arena_pop(&js->world->scratch, pushed[i]);
    js->group_trees = NULL;
    js->groups = NULL;
    js->group = NULL;
    js->order = NULL;
    js->in_tree = NULL;
    js->alone = NULL;
    js->bodies = NULL;
    js->rows = NULL;
    js->blocks = NULL;
    js->steps = NULL;
    js->active = NULL;
    js->count = 0;
}
