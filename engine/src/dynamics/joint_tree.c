/* The tree solve (joint_tree.h). The system for one pass is

       [ M   -J^T ] [dv     ]   [ 0                          ]
       [ -J  -G   ] [dlambda] = [ J v + bias + G lambda_acc  ]

   with M the bodies' mass matrices, J the joints' equality rows, G the rows' compliance (soft
   constraints: G = k / a2 per row, 0 when rigid). Its graph (a node per body and per joint, an
   edge where a joint acts on a body) is a forest when the joints make no loop, and eliminating
   children before parents then fills nothing in: block LDL^T in O(nodes). A joint to the
   world has one body: it is made the root of its tree, so that every joint node is eliminated
   after one of its bodies and its block stays invertible even when rigid (G = 0). */
#include "dynamics/joint_tree.h"
#include "dynamics/small_ldl.h"

#include <string.h>

enum { NODE_BODY, NODE_JOINT };

struct tree_node {
    int kind;
    int index;  /* body index, or joint (active) index */
    int parent; /* position in nodes, -1 for a root */
    int dim;    /* 6 for a body, the row count for a joint */
    int side;   /* of the edge to the parent: which side of the joint the body is (0 a, 1 b) */
    const joint_body_state *body; /* body nodes */
};

/* A node's numbers, apart from its node: the build moves and reorders only the small nodes,
   and every number is written by the factor or the solve before it is read. */
struct tree_numbers {
    double factors[36];   /* D as L D L^T: unit L below the diagonal, D on it */
    double to_parent[36]; /* D^-1 H(node, parent): dim x parent dim */
    double x[6];
};

/* ---- the blocks of H ---- */

/* J of the joint's rows for one side: rows x 6. */
static void side_jacobian(const tree_joint *tj, int side, double *out)
{
    for (int r = 0; r < tj->count; ++r)
        for (int k = 0; k < 6; ++k)
            out[r * 6 + k] = tj->rows[r].jacobian[side * 6 + k];
}

/* H(node, parent) = -J_side (joint under a body) or -J_side^T (body under a joint). */
static void coupling(const tree_node *node, const tree_node *parent, const tree_joint *joints,
                     double *out)
{
    double j[36];
    if (node->kind == NODE_JOINT) {
        side_jacobian(&joints[node->index], node->side, j);
        for (int i = 0; i < node->dim * 6; ++i)
            out[i] = -j[i];
        return;
    }
    side_jacobian(&joints[parent->index], node->side, j);
    for (int r = 0; r < parent->dim; ++r)
        for (int k = 0; k < 6; ++k)
            out[k * parent->dim + r] = -j[r * 6 + k];
}

/* M of a body: mass on the diagonal, the world inertia (inverted from the solver's inverse). */
static void mass_block(const joint_body_state *b, double *out)
{
    memset(out, 0, sizeof(double) * 36);
    for (int i = 0; i < 3; ++i)
        out[i * 6 + i] = 1.0 / (double)b->inverse_mass;
    double inverse_inertia[9], inertia[9];
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
            inverse_inertia[r * 3 + c] = (double)b->inverse_inertia.raw[c][r];
    ldl_invert(inverse_inertia, 3, inertia);
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
            out[(3 + r) * 6 + 3 + c] = inertia[r * 3 + c];
}

/* The row's own J M^-1 J^T: its effective mass's inverse, for the compliance. */
static double row_stiffness(const joint_row *row, const joint_pair *pair)
{
    double k = 0.0;
    const joint_body_state *sides[2] = {&pair->a, &pair->b};
    for (int s = 0; s < 2; ++s) {
        const float *j = &row->jacobian[s * 6];
        vec3s angular = {{j[3], j[4], j[5]}};
        vec3s response = glms_mat3_mulv(sides[s]->inverse_inertia, angular);
        k += (double)sides[s]->inverse_mass * (double)(j[0] * j[0] + j[1] * j[1] + j[2] * j[2]) +
             (double)glms_vec3_dot(angular, response);
    }
    return k;
}

/* -G of a joint: the compliance of soft rows (a2 = mass_scale / impulse_scale). */
static void joint_block(const tree_joint *tj, double *out)
{
    int n = tj->count;
    memset(out, 0, sizeof(double) * (size_t)(n * n));
    if (tj->soft.impulse_scale == 0.0f)
        return;
    double ratio = (double)tj->soft.impulse_scale / (double)tj->soft.mass_scale;
    for (int r = 0; r < n; ++r)
        out[r * n + r] = -ratio * row_stiffness(&tj->rows[r], tj->pair);
}

/* The nodes of the trees [first, end). */
static void tree_nodes(const joint_tree *t, int first, int end, int *from, int *to)
{
    *from = first > 0 ? t->tree_end[first - 1] : 0;
    *to = end > 0 ? t->tree_end[end - 1] : 0;
}

/* Factors a node (numbers nn) and takes its share off its parent (numbers pn); dim and pdim
   are the node's and the parent's sizes. */
ALWAYS_INLINE void eliminate_n(const tree_node *n, tree_numbers *nn, const tree_node *p,
                               tree_numbers *pn, const tree_joint *joints, int dim, int pdim)
{
    ldl_factor_n(nn->factors, dim);
    double h[36];
    coupling(n, p, joints, h);
    /* to_parent = D^-1 H (dim x pdim), two columns at a time; the parent's D -= H^T D^-1 H */
    memcpy(nn->to_parent, h, sizeof(double) * (size_t)(dim * pdim));
    ldl_solve_n(nn->factors, dim, nn->to_parent, pdim);
    for (int r = 0; r < pdim; ++r)
        for (int c = 0; c <= r; ++c) {
            double sum = 0.0;
            for (int k = 0; k < dim; ++k)
                sum += h[k * pdim + r] * nn->to_parent[k * pdim + c];
            pn->factors[r * pdim + c] -= sum; /* the lower triangle is all LDL^T reads */
        }
}

static void eliminate(const joint_tree *t, int i, const tree_joint *joints)
{
    const tree_node *n = &t->nodes[i], *p = &t->nodes[n->parent];
    tree_numbers *nn = &t->numbers[i], *pn = &t->numbers[n->parent];
    if (n->dim == 6 && p->dim == 3)
        eliminate_n(n, nn, p, pn, joints, 6, 3);
    else if (n->dim == 3 && p->dim == 6)
        eliminate_n(n, nn, p, pn, joints, 3, 6);
    else
        eliminate_n(n, nn, p, pn, joints, n->dim, p->dim);
}

void joint_tree_factor(joint_tree *t, const tree_joint *joints, int first, int end)
{
    int from, to;
    tree_nodes(t, first, end, &from, &to);
    /* D starts as H(node, node); each child, once factored, takes its share off its parent */
    for (int i = from; i < to; ++i) {
        const tree_node *n = &t->nodes[i];
        if (n->kind == NODE_BODY)
            mass_block(n->body, t->numbers[i].factors);
        else
            joint_block(&joints[n->index], t->numbers[i].factors);
    }
    for (int i = from; i < to; ++i) {
        const tree_node *n = &t->nodes[i];
        if (n->parent < 0)
            ldl_factor(t->numbers[i].factors, n->dim);
        else
            eliminate(t, i, joints);
    }
}

/* J v + bias + G lambda for each row of a joint. */
static void joint_residual(const tree_joint *tj, softness soft, double *out)
{
    float v[12];
    joint_pair_velocities(tj->pair, v);
    double ratio =
        soft.impulse_scale == 0.0f ? 0.0 : (double)soft.impulse_scale / (double)soft.mass_scale;
    for (int r = 0; r < tj->count; ++r) {
        const joint_row *row = &tj->rows[r];
        out[r] = joint_row_rate(row, v) + (double)soft.bias_rate * (double)row->error;
        if (ratio != 0.0) /* rigid rows (every calm tree's) have no compliance term */
            out[r] += ratio * row_stiffness(row, tj->pair) * (double)*row->impulse;
    }
}

/* The forward sweep at a node: its share of the right-hand side goes to its parent. */
ALWAYS_INLINE void pass_up_n(const tree_numbers *n, tree_numbers *p, int dim, int pdim)
{
    for (int c = 0; c < pdim; ++c)
        for (int k = 0; k < dim; ++k)
            p->x[c] -= n->to_parent[k * pdim + c] * n->x[k];
}

static void pass_up(const tree_numbers *n, tree_numbers *p, int dim, int pdim)
{
    if (dim == 6 && pdim == 3)
        pass_up_n(n, p, 6, 3);
    else if (dim == 3 && pdim == 6)
        pass_up_n(n, p, 3, 6);
    else
        pass_up_n(n, p, dim, pdim);
}

/* The backward sweep at a node (parent NULL at a root): its unknowns from its parent's. */
ALWAYS_INLINE void solve_down_n(tree_numbers *n, const tree_numbers *p, int dim, int pdim)
{
    double y[6];
    memcpy(y, n->x, sizeof(double) * (size_t)dim);
    ldl_solve_n(n->factors, dim, y, 1);
    if (p) {
        for (int r = 0; r < dim; ++r)
            for (int c = 0; c < pdim; ++c)
                y[r] -= n->to_parent[r * pdim + c] * p->x[c];
    }
    memcpy(n->x, y, sizeof(double) * (size_t)dim);
}

static void solve_down(tree_numbers *n, const tree_numbers *p, int dim, int pdim)
{
    if (dim == 6 && pdim == 3)
        solve_down_n(n, p, 6, 3);
    else if (dim == 3 && pdim == 6)
        solve_down_n(n, p, 3, 6);
    else
        solve_down_n(n, p, dim, pdim);
}

void joint_tree_solve(const joint_tree *t, tree_joint *joints, int first, int end)
{
    const tree_node *nodes = t->nodes;
    tree_numbers *numbers = t->numbers;
    int from, to;
    tree_nodes(t, first, end, &from, &to);
    for (int i = from; i < to; ++i) {
        const tree_node *n = &nodes[i];
        if (n->kind == NODE_BODY)
            memset(numbers[i].x, 0, sizeof numbers[i].x);
        else
            joint_residual(&joints[n->index], joints[n->index].soft, numbers[i].x);
    }
    /* forward: children first, each passes its share up */
    for (int i = from; i < to; ++i) {
        int p = nodes[i].parent;
        if (p >= 0)
            pass_up(&numbers[i], &numbers[p], nodes[i].dim, nodes[p].dim);
    }
    /* backward: parents first */
    for (int i = to - 1; i >= from; --i) {
        int p = nodes[i].parent;
        solve_down(&numbers[i], p >= 0 ? &numbers[p] : NULL, nodes[i].dim,
                   p >= 0 ? nodes[p].dim : 0);
    }
    for (int i = from; i < to; ++i) {
        const tree_node *n = &nodes[i];
        const double *x = numbers[i].x;
        if (n->kind == NODE_JOINT) {
            tree_joint *tj = &joints[n->index];
            for (int r = 0; r < tj->count; ++r)
                *tj->rows[r].impulse += (float)x[r];
            continue;
        }
        body_velocity *v = n->body->velocity;
        v->linear = glms_vec3_add(v->linear, (vec3s){{(float)x[0], (float)x[1], (float)x[2]}});
        v->angular = glms_vec3_add(v->angular, (vec3s){{(float)x[3], (float)x[4], (float)x[5]}});
    }
}

/* ---- choosing the trees ---- */

static int find_root(int *parent, int i)
{
    while (parent[i] != i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    return i;
}

/* A body with a locked rotation or translation axis has no finite inertia or mass along it, so
   no mass block (M, the inverse of its inverse inertia and mass): its joints stay with
   Gauss-Seidel, which needs only M^-1. A free body's world inverse inertia is positive definite,
   its diagonal positive. */
static bool has_mass_block(const joint_body_state *side)
{
    const mat3s *a = &side->inverse_inertia;
    return a->raw[0][0] > 0.0f && a->raw[1][1] > 0.0f && a->raw[2][2] > 0.0f &&
           side->locked_translation == 0;
}

static bool tree_can_take(const tree_joint *tj)
{
    return (!tj->moves_a || has_mass_block(&tj->pair->a)) &&
           (!tj->moves_b || has_mass_block(&tj->pair->b));
}

/* Union-find over the moving bodies: a joint joins a tree unless it closes a loop or brings a
   second grounded joint (one with a side that does not move) into it. */
static void choose_tree_joints(const tree_joint *joints, const uint32_t (*bodies)[2], int count,
                               int *parent, bool *grounded, bool *in_tree)
{
    for (int k = 0; k < count; ++k) {
        const tree_joint *tj = &joints[k];
        in_tree[k] = false;
        if (tj->count == 0 || (!tj->moves_a && !tj->moves_b) || !tree_can_take(tj))
            continue;
        if (tj->moves_a && tj->moves_b) {
            int ra = find_root(parent, (int)bodies[k][0]),
                rb = find_root(parent, (int)bodies[k][1]);
            if (ra == rb || (grounded[ra] && grounded[rb]))
                continue;
            parent[rb] = ra;
            grounded[ra] |= grounded[rb];
        } else {
            int r = find_root(parent, (int)bodies[k][tj->moves_a ? 0 : 1]);
            if (grounded[r])
                continue;
            grounded[r] = true;
        }
        in_tree[k] = true;
    }
}

typedef struct tree_build {
    tree_node *nodes;
    int count;
    int32_t *body_node; /* by body index, -1 */
    int32_t *first;     /* CSR of body node -> tree joints */
    int32_t *linked;
    bool *placed_joint; /* by joint */
} tree_build;

static int add_node(tree_build *b, int kind, int index, int parent, int dim, int side)
{
    tree_node *n = &b->nodes[b->count];
    memset(n, 0, sizeof *n);
    n->kind = kind;
    n->index = index;
    n->parent = parent;
    n->dim = dim;
    n->side = side;
    return b->count++;
}

/* Breadth first from a root: body nodes take the joints around them as children, joint nodes
   the body on their other side. Nodes come out parents first. */
static void grow(tree_build *b, const tree_joint *joints, const uint32_t (*bodies)[2], int head)
{
    for (; head < b->count; ++head) {
        tree_node n = b->nodes[head];
        if (n.kind == NODE_JOINT) {
            const tree_joint *tj = &joints[n.index];
            for (int side = 0; side < 2; ++side) {
                bool moves = side == 0 ? tj->moves_a : tj->moves_b;
                uint32_t at = bodies[n.index][side];
                if (!moves || b->body_node[at] >= 0)
                    continue;
                b->body_node[at] = add_node(b, NODE_BODY, (int)at, head, 6, side);
                b->nodes[b->body_node[at]].body = side == 0 ? &tj->pair->a : &tj->pair->b;
            }
            continue;
        }
        for (int32_t e = b->first[n.index]; e < b->first[n.index + 1]; ++e) {
            int k = b->linked[e];
            if (b->placed_joint[k])
                continue;
            b->placed_joint[k] = true;
            int side = bodies[k][0] == (uint32_t)n.index ? 0 : 1;
            add_node(b, NODE_JOINT, k, head, joints[k].count, side);
        }
    }
}

/* Reverses the order (children first) and renumbers the parents. */
static void children_first(tree_node *nodes, int count)
{
    for (int i = 0; i < count / 2; ++i) {
        tree_node t = nodes[i];
        nodes[i] = nodes[count - 1 - i];
        nodes[count - 1 - i] = t;
    }
    for (int i = 0; i < count; ++i)
        if (nodes[i].parent >= 0)
            nodes[i].parent = count - 1 - nodes[i].parent;
}

/* Leaves out of the trees every group a contact touches or a joint outside the trees reaches:
   those are solved by Gauss-Seidel (joint_tree.h). */
static void drop_busy_groups(const tree_joint *joints, const uint32_t (*bodies)[2], int count,
                             int body_count, const bool *touching, int *parent, bool *busy,
                             bool *in_tree)
{
    for (int i = 0; i < body_count; ++i)
        busy[i] = false;
    for (int i = 0; i < body_count; ++i)
        if (touching == NULL || touching[i])
            busy[find_root(parent, i)] = true;
    for (int k = 0; k < count; ++k)
        for (int side = 0; side < 2 && !in_tree[k]; ++side)
            if (side == 0 ? joints[k].moves_a : joints[k].moves_b)
                busy[find_root(parent, (int)bodies[k][side])] = true;
    for (int k = 0; k < count; ++k)
        if (in_tree[k])
            in_tree[k] = !busy[find_root(parent, (int)bodies[k][joints[k].moves_a ? 0 : 1])];
}

bool joint_tree_build(joint_tree *t, arena *scratch, int body_count, const tree_joint *joints,
                      const uint32_t (*bodies)[2], int count, const bool *touching, bool *in_tree)
{
    memset(t, 0, sizeof *t);
    size_t n = (size_t)body_count, k = (size_t)count;
    void *memory =
        arena_push(scratch, sizeof(int32_t) * (3 * n + 1 + 2 * k) + sizeof(bool) * (n + k) + 16,
                   "joint tree scratch");
    /* the numbers, the nodes, then the trees' ends (tree_numbers and tree_node are multiples of
       8 bytes) */
    size_t most = 3 * k + 1;
    tree_numbers *numbers =
        arena_push(scratch, (sizeof(tree_numbers) + sizeof(tree_node) + sizeof(int)) * most,
                   "joint tree nodes");
    tree_node *nodes = numbers ? (tree_node *)(numbers + most) : NULL;
    if (memory == NULL || numbers == NULL) {
        if (numbers)
            arena_pop(scratch, numbers);
        if (memory)
            arena_pop(scratch, memory);
        memset(in_tree, 0, k);
        return false;
    }
    int32_t *union_parent = memory, *first = union_parent + n, *body_node = first + n + 1;
    int32_t *linked = body_node + n;
    bool *grounded = (bool *)(linked + 2 * k), *placed = grounded + n;
    for (int i = 0; i < body_count; ++i) {
        union_parent[i] = i;
        grounded[i] = false;
        body_node[i] = -1;
    }
    choose_tree_joints(joints, bodies, count, union_parent, grounded, in_tree);
    drop_busy_groups(joints, bodies, count, body_count, touching, union_parent, grounded, in_tree);
    /* adjacency of moving bodies to their tree joints */
    memset(first, 0, sizeof(int32_t) * (n + 1));
    for (int j = 0; j < count; ++j)
        for (int side = 0; side < 2 && in_tree[j]; ++side)
            if (side == 0 ? joints[j].moves_a : joints[j].moves_b)
                first[bodies[j][side] + 1]++;
    for (int i = 0; i < body_count; ++i)
        first[i + 1] += first[i];
    int32_t *cursor = union_parent; /* the union-find is done with */
    memcpy(cursor, first, sizeof(int32_t) * n);
    for (int j = 0; j < count; ++j) {
        placed[j] = !in_tree[j];
        for (int side = 0; side < 2 && in_tree[j]; ++side)
            if (side == 0 ? joints[j].moves_a : joints[j].moves_b)
                linked[cursor[bodies[j][side]]++] = j;
    }
    tree_build b = {nodes, 0, body_node, first, linked, placed};
    /* grounded joints root their trees; trees without one start at a body */
    for (int j = 0; j < count; ++j)
        if (!placed[j] && !(joints[j].moves_a && joints[j].moves_b)) {
            placed[j] = true;
            grow(&b, joints, bodies,
                 add_node(&b, NODE_JOINT, j, -1, joints[j].count, joints[j].moves_a ? 0 : 1));
        }
    for (int j = 0; j < count; ++j)
        if (!placed[j]) {
            uint32_t root = bodies[j][0];
            body_node[root] = add_node(&b, NODE_BODY, (int)root, -1, 6, 0);
            b.nodes[body_node[root]].body = &joints[j].pair->a;
            grow(&b, joints, bodies, body_node[root]);
        }
    children_first(nodes, b.count);
    t->nodes = nodes;
    t->numbers = numbers;
    t->node_count = b.count;
    t->tree_end = (int *)(nodes + most);
    for (int i = 0; i < b.count; ++i)
        if (nodes[i].parent < 0) /* a root closes its tree */
            t->tree_end[t->tree_count++] = i + 1;
    t->scratch = memory;
    return true;
}

int joint_tree_some_joint(const joint_tree *t, int i)
{
    int n = i > 0 ? t->tree_end[i - 1] : 0;
    while (t->nodes[n].kind != NODE_JOINT)
        ++n;
    return t->nodes[n].index;
}

void joint_tree_mark_alone(const joint_tree *t, bool *alone)
{
    for (int i = 0, first = 0; i < t->tree_count; first = t->tree_end[i++]) {
        int joints = 0, last = -1;
        for (int n = first; n < t->tree_end[i]; ++n)
            if (t->nodes[n].kind == NODE_JOINT) {
                ++joints;
                last = t->nodes[n].index;
            }
        if (joints == 1)
            alone[last] = true;
    }
}

void joint_tree_free(joint_tree *t, arena *scratch)
{
    if (t->numbers)
        arena_pop(scratch, t->numbers);
    if (t->scratch)
        arena_pop(scratch, t->scratch);
    memset(t, 0, sizeof *t);
}

/* ---- rows of the parts ---- */

static joint_row make_joint_row(vec3s linear, vec3s angular_a, vec3s angular_b, float error,
                                float *impulse)
{
    return (joint_row){{-linear.x, -linear.y, -linear.z, -angular_a.x, -angular_a.y, -angular_a.z,
                        linear.x, linear.y, linear.z, angular_b.x, angular_b.y, angular_b.z},
                       error,
                       impulse};
}

int joint_rows_point(point_part *p, joint_row *out)
{
    float *impulse[3] = {&p->impulse.x, &p->impulse.y, &p->impulse.z};
    float error[3] = {p->error.x, p->error.y, p->error.z};
    for (int k = 0; k < 3; ++k) {
        vec3s e = glms_vec3_zero();
        e.raw[k] = 1.0f;
        out[k] = make_joint_row(e, glms_vec3_cross(p->r_a, e), glms_vec3_cross(p->r_b, e), error[k],
                                impulse[k]);
    }
    return 3;
}

int joint_rows_angle(angle_part *p, joint_row *out)
{
    for (int k = 0; k < p->count; ++k)
        out[k] =
            make_joint_row(glms_vec3_zero(), p->axes[k], p->axes[k], p->error[k], &p->impulse[k]);
    return p->count;
}

int joint_rows_line(line_part *p, joint_row *out)
{
    for (int k = 0; k < 2; ++k)
        out[k] = joint_row_axis(&p->rows[k], p->error[k], &p->impulse[k]);
    return 2;
}

joint_row joint_row_axis(const axis_row *row, float error, float *impulse)
{
    return make_joint_row(row->linear, row->angular_a, row->angular_b, error, impulse);
}
