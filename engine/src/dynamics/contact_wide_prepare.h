/* The wide prepare (part of contact_wide_kernel.h, which includes it after its batch types): a
   batch's manifolds made into solver constraints once per step, lane by lane, straight into the
   batch. Each lane does the operations the one-manifold form does (cglm's vec3 and mat3
   functions, written out), in the same order: the rows' anchors, angular parts and effective
   masses, the friction rows at the patch centre, the warm-start impulses and the approach speeds
   that restitution answers. Inertia is held fixed over the step, as is usual for sequential
   impulses. */

/* A body of each lane as the rows read it at the step start. */
typedef struct setup_body {
    wide_vec center, linear, angular;
    wide_vec inertia[3];     /* the world inverse inertia's columns */
    lane inverse_mass;       /* of the velocity state: 0 for a body the step does not move */
    lane locked_translation; /* the velocity state's code of the locked axes (integrate.h) */
} setup_body;

static inline void lane_put_vec(wide_vec *w, int l, vec3s v)
{
    w->x[l] = v.x;
    w->y[l] = v.y;
    w->z[l] = v.z;
}

static inline wide_vec wide_sub(const wide_vec *a, const wide_vec *b)
{
    return (wide_vec){a->x - b->x, a->y - b->y, a->z - b->z};
}

static inline wide_vec wide_cross(const wide_vec *a, const wide_vec *b)
{
    return (wide_vec){a->y * b->z - a->z * b->y, a->z * b->x - a->x * b->z,
                      a->x * b->y - a->y * b->x};
}

static inline wide_vec wide_scale(const wide_vec *a, lane s)
{
    return (wide_vec){a->x * s, a->y * s, a->z * s};
}

static inline wide_vec wide_select(lane_mask m, const wide_vec *a, const wide_vec *b)
{
    return (wide_vec){lane_select(m, a->x, b->x), lane_select(m, a->y, b->y),
                      lane_select(m, a->z, b->z)};
}

/* 1 / k where k > 0, else 0. */
static inline lane inverse_where_positive(lane k)
{
    lane zero = lane_splat(0.0f);
    return lane_select(k > zero, lane_splat(1.0f) / k, zero);
}

static void setup_gather_body(setup_body *s, int l, const body *b, const body_velocity *v)
{
    lane_put_vec(&s->center, l, b->center);
    lane_put_vec(&s->linear, l, v->linear);
    lane_put_vec(&s->angular, l, v->angular);
    for (int c = 0; c < 3; ++c)
        lane_put_vec(&s->inertia[c], l, b->inverse_inertia.col[c]);
    s->inverse_mass[l] = v->inverse_mass;
    s->locked_translation[l] = v->locked_translation;
}

/* The inverse inertia times axis; zero for a body the step does not move (static, kinematic,
   asleep: inverse mass 0 in its velocity state). */
static inline wide_vec angular_response(const setup_body *b, const wide_vec *axis)
{
    const wide_vec *m = b->inertia;
    wide_vec turned = {m[0].x * axis->x + m[1].x * axis->y + m[2].x * axis->z,
                       m[0].y * axis->x + m[1].y * axis->y + m[2].y * axis->z,
                       m[0].z * axis->x + m[1].z * axis->y + m[2].z * axis->z};
    wide_vec zero = {{0}, {0}, {0}};
    return wide_select(b->inverse_mass > lane_splat(0.0f), &turned, &zero);
}

/* d . (M^-1 d) of the body's linear part: its inverse mass, or where a lane's body has locked
   translation axes, its inverse mass times the squares of d's free components (a rail along the
   locked axes takes the rest of the push), through body_rail_share. */
static inline lane linear_response(const setup_body *b, const wide_vec *d)
{
    lane_mask locked[3];
    lock_axes(b->locked_translation, locked);
    lane zero = lane_splat(0.0f);
    lane free_x = lane_select(locked[0], zero, d->x * d->x);
    lane free_y = lane_select(locked[1], zero, d->y * d->y);
    lane free_z = lane_select(locked[2], zero, d->z * d->z);
    /* body_rail_share, lane by lane */
    lane share = lane_max(free_x + free_y + free_z, lane_splat(BODY_RAIL_MIN_SHARE));
    return lane_select(b->locked_translation == zero, b->inverse_mass, b->inverse_mass * share);
}

/* The row along d at anchors r_a, r_b and its effective mass; locked: a locked batch's. */
static inline lane make_row(wide_row *row, const setup_body *a, const setup_body *b,
                            const wide_vec *r_a, const wide_vec *r_b, const wide_vec *d,
                            bool locked)
{
    row->ra_x = wide_cross(r_a, d);
    row->rb_x = wide_cross(r_b, d);
    row->ia_ra_x = angular_response(a, &row->ra_x);
    row->ib_rb_x = angular_response(b, &row->rb_x);
    lane linear =
        locked ? linear_response(a, d) + linear_response(b, d) : a->inverse_mass + b->inverse_mass;
    lane k = linear + wide_dot(&row->ra_x, &row->ia_ra_x) + wide_dot(&row->rb_x, &row->ib_rb_x);
    return inverse_where_positive(k);
}

/* d . (v_b - v_a) + (r_b x d) . w_b - (r_a x d) . w_a at the step start, summed x + y + z. */
static inline lane start_velocity(const setup_body *a, const setup_body *b, const wide_row *row,
                                  const wide_vec *d)
{
    lane x = d->x * (b->linear.x - a->linear.x) + row->rb_x.x * b->angular.x -
             row->ra_x.x * a->angular.x;
    lane y = d->y * (b->linear.y - a->linear.y) + row->rb_x.y * b->angular.y -
             row->ra_x.y * a->angular.y;
    lane z = d->z * (b->linear.z - a->linear.z) + row->rb_x.z * b->angular.z -
             row->ra_x.z * a->angular.z;
    return x + y + z;
}

/* v / |v|, or zero where |v| = 0. */
static inline wide_vec wide_normalize(const wide_vec *v)
{
    lane norm = lane_sqrt(wide_dot(v, v));
    wide_vec unit = wide_scale(v, lane_splat(1.0f) / norm);
    wide_vec zero = {{0}, {0}, {0}};
    return wide_select(norm == lane_splat(0.0f), &zero, &unit);
}

/* Tangent basis perpendicular to n (deterministic): t1 = n x (x or y axis), normalised. */
static inline void setup_tangents(const wide_vec *n, wide_vec t[2])
{
    lane_mask use_x = lane_select(n->x < lane_splat(0.0f), -n->x, n->x) < lane_splat(0.57f);
    wide_vec axis = {lane_select(use_x, lane_splat(1.0f), lane_splat(0.0f)),
                     lane_select(use_x, lane_splat(0.0f), lane_splat(1.0f)), lane_splat(0.0f)};
    wide_vec side = wide_cross(n, &axis);
    t[0] = wide_normalize(&side);
    t[1] = wide_cross(n, &t[0]);
}

/* What a lane reads of its manifold, besides the bodies. */
typedef struct setup_lanes {
    setup_body a, b;
    wide_vec normal, surface_velocity, friction_impulse;
    wide_vec anchor_a[MANIFOLD_MAX_POINTS], anchor_b[MANIFOLD_MAX_POINTS];
    lane separation[MANIFOLD_MAX_POINTS], normal_impulse[MANIFOLD_MAX_POINTS];
    lane twist_impulse;
    lane rolling_resistance;
    wide_vec rolling_impulse;
} setup_lanes;

static void setup_gather(setup_lanes *in, wide_batch *batch, const manifold_ref *refs, int count,
                         const contact_setup *setup)
{
    if (count < CAIRN_LANES) /* empty lanes read zeros; a full batch writes every lane read */
        memset(in, 0, sizeof *in);
    cairn_world *w = setup->world;
    for (int l = 0; l < count; ++l) {
        const contact *c = refs[l].contact;
        const manifold *m = refs[l].manifold;
        batch->body_a[l] = (int32_t)c->body_a;
        batch->body_b[l] = (int32_t)c->body_b;
        setup_gather_body(&in->a, l, &w->bodies.data[c->body_a], &setup->velocities[c->body_a]);
        setup_gather_body(&in->b, l, &w->bodies.data[c->body_b], &setup->velocities[c->body_b]);
        lane_put_vec(&in->normal, l, m->normal);
        lane_put_vec(&in->surface_velocity, l, c->surface_velocity);
        lane_put_vec(&in->friction_impulse, l, m->friction_impulse);
        in->twist_impulse[l] = m->twist_impulse;
        cairn_surface_material material = contact_manifold_material(w, c, m);
        batch->friction[l] = material.friction;
        batch->restitution[l] = material.restitution;
        if (setup->rolling_rows) {
            in->rolling_resistance[l] = material.rolling_resistance;
            lane_put_vec(&in->rolling_impulse, l, m->rolling_impulse);
        }
        for (int p = 0; p < m->point_count; ++p) {
            lane_put_vec(&in->anchor_a[p], l, m->points[p].anchor_a);
            lane_put_vec(&in->anchor_b[p], l, m->points[p].anchor_b);
            in->separation[p][l] = m->points[p].separation;
            in->normal_impulse[p][l] = m->points[p].normal_impulse;
        }
    }
}

static void setup_points(wide_batch *batch, const setup_lanes *in, lane warm)
{
    for (int p = 0; p < batch->point_count; ++p) {
        wide_point *pt = &batch->points[p];
        wide_vec r_a = wide_sub(&in->anchor_a[p], &in->a.center);
        wide_vec r_b = wide_sub(&in->anchor_b[p], &in->b.center);
        pt->base_separation = in->separation[p];
        pt->mass = make_row(&pt->normal, &in->a, &in->b, &r_a, &r_b, &batch->normal, batch->locked);
        pt->relative_velocity = start_velocity(&in->a, &in->b, &pt->normal, &batch->normal);
        pt->pseudo_impulse = lane_splat(0.0f);
        pt->normal_impulse = in->normal_impulse[p] * warm;
        pt->max_normal = lane_splat(0.0f);
    }
}

/* The centre of the points: the mean of the anchors on A. */
static wide_vec patch_centre(const wide_batch *batch, const setup_lanes *in)
{
    int points = batch->point_count;
    wide_vec centre = {{0}, {0}, {0}};
    for (int p = 0; p < points; ++p)
        centre = (wide_vec){centre.x + in->anchor_a[p].x, centre.y + in->anchor_a[p].y,
                            centre.z + in->anchor_a[p].z};
    return wide_scale(&centre, lane_splat(1.0f / (float)points));
}

/* Friction rows at the patch centre; last step's friction impulse re-projected onto this step's
   tangents (the normal may have turned). */
static void setup_friction(wide_batch *batch, const setup_lanes *in, const wide_vec *centre,
                           lane warm)
{
    int points = batch->point_count;
    lane spread = lane_splat(0.0f);
    for (int p = 0; p < points; ++p) {
        wide_vec gap = wide_sub(&in->anchor_a[p], centre);
        spread += lane_sqrt(wide_dot(&gap, &gap));
    }
    batch->twist_radius = lane_splat(2.0f / 3.0f) * spread / lane_splat((float)points);
    wide_vec r_a = wide_sub(centre, &in->a.center), r_b = wide_sub(centre, &in->b.center);
    for (int k = 0; k < 2; ++k) {
        batch->friction_mass[k] = make_row(&batch->tangent_row[k], &in->a, &in->b, &r_a, &r_b,
                                           &batch->tangent[k], batch->locked);
        batch->friction_impulse[k] = wide_dot(&in->friction_impulse, &batch->tangent[k]) * warm;
        batch->surface[k] = wide_dot(&in->surface_velocity, &batch->tangent[k]);
    }
    /* the twist row: angular velocity about the normal, J = (0, -n, 0, n) */
    batch->twist_ia = angular_response(&in->a, &batch->normal);
    batch->twist_ib = angular_response(&in->b, &batch->normal);
    batch->friction_mass[2] = inverse_where_positive(wide_dot(&batch->normal, &batch->twist_ia) +
                                                     wide_dot(&batch->normal, &batch->twist_ib));
    batch->friction_impulse[2] = in->twist_impulse * warm;
}

/* How far a body's centre of mass lies from the contact plane through the patch centre: its
   lever for rolling; 0 for a body the step does not move. */
static inline lane rolling_lever(const setup_body *b, const wide_vec *patch, const wide_vec *n)
{
    wide_vec r = wide_sub(patch, &b->center);
    lane along = wide_dot(&r, n);
    lane lever = lane_select(along < lane_splat(0.0f), -along, along);
    return lane_select(b->inverse_mass > lane_splat(0.0f), lever, lane_splat(0.0f));
}

/* The rolling rows, where a lane's contact has rolling resistance: the rolling radius is the
   lever of the moving body, the shorter where both move (a ball on a crate rolls on its own
   radius); last step's rolling impulse re-projected onto this step's tangents and normal. Must
   follow setup_friction: the spin row uses the twist row's axis and mass. */
static void setup_rolling(wide_batch *batch, wide_rolling *rows, const setup_lanes *in,
                          const wide_vec *patch, lane warm)
{
    lane zero = lane_splat(0.0f);
    batch->rolling = rows && lane_any(in->rolling_resistance > zero) ? rows : NULL;
    if (!batch->rolling)
        return;
    lane lever_a = rolling_lever(&in->a, patch, &batch->normal);
    lane lever_b = rolling_lever(&in->b, patch, &batch->normal);
    lane both = lane_min(lever_a, lever_b);
    lane radius = lane_select((lever_a > zero) & (lever_b > zero), both, lever_a + lever_b);
    rows->limit = in->rolling_resistance * radius;
    for (int k = 0; k < 2; ++k) {
        rows->ia[k] = angular_response(&in->a, &batch->tangent[k]);
        rows->ib[k] = angular_response(&in->b, &batch->tangent[k]);
        rows->mass[k] = inverse_where_positive(wide_dot(&batch->tangent[k], &rows->ia[k]) +
                                               wide_dot(&batch->tangent[k], &rows->ib[k]));
        rows->impulse[k] = wide_dot(&in->rolling_impulse, &batch->tangent[k]) * warm;
    }
    rows->spin_impulse = wide_dot(&in->rolling_impulse, &batch->normal) * warm;
}

/* Batch b from count manifolds of one colour with the same number of points; its empty lanes are
   zero rows on rest_body. */
static void prepare(void *batches, int b, const manifold_ref *refs, int count,
                    const contact_setup *setup)
{
    wide_batch *batch = batch_at(batches, b);
    setup_lanes in;
    batch->count = count;
    batch->point_count = refs[0].manifold->point_count;
    for (int l = count; l < CAIRN_LANES; ++l) {
        batch->body_a[l] = batch->body_b[l] = setup->rest_body;
        batch->friction[l] = batch->restitution[l] = 0.0f;
    }
    setup_gather(&in, batch, refs, count, setup);
    lane zero = lane_splat(0.0f);
    batch->locked = lane_any((in.a.locked_translation != zero) | (in.b.locked_translation != zero));
    lane warm = lane_splat(setup->warm);
    batch->normal = in.normal;
    setup_tangents(&batch->normal, batch->tangent);
    setup_points(batch, &in, warm);
    wide_vec patch = patch_centre(batch, &in);
    setup_friction(batch, &in, &patch, warm);
    wide_rolling *rows = setup->rolling_rows ? (wide_rolling *)setup->rolling_rows + b : NULL;
    setup_rolling(batch, rows, &in, &patch, warm);
}
