/* Snapshots of the simulation state (cairn_world_snapshot / cairn_world_restore): everything the
   next step reads, so that restoring and stepping gives the state hash of the world that was
   saved. The format is versioned and little-endian (the writer's byte order is recorded and a
   different one is refused); it holds no pointers, and a checksum guards the bytes.

   Layout: a header (magic, version, byte order, the sizes of the records, the counts); the
   world's settings and flags; per body slot its state and broadphase box; the walked and the
   parked contacts, each a record of what it uses (snapshot_contacts.c); the joint id pool and every
   joint slot; the characters; the end events owed to the next step (a world restored since its
   last step owes those of the contacts its restore ended); an FNV-1a checksum of all that
   precedes it.

   The world restored into must have the same bodies (ids and types) as the one saved: bodies
   hold shapes, which a snapshot does not carry. Joints are restored in full (a joint broken
   since comes back). */
#include "dynamics/character_state.h"
#include "collision/query.h"
#include "dynamics/joint.h"
#include "dynamics/snapshot_contacts.h"
#include "dynamics/snapshot_cursor.h"
#include "dynamics/world_state.h"

#include "core/alloc.h"
#include "core/error.h"
#include "core/fnv.h"
#include "core/validate.h"
#include "geometry/shape.h"

#include <stddef.h>
#include <string.h>

/* The settings a snapshot keeps: all but the threads (worker count and task callbacks belong to
   the program that runs the world, not to its state). */
#define SAVED_DEF_BYTES offsetof(cairn_world_def, worker_count)

#define SNAPSHOT_MAGIC   "CAIRNSNP"
#define SNAPSHOT_VERSION 14u
#define BYTE_ORDER_MARK  0x01020304u

/* What a snapshot keeps of a body: its state, not its shape. The type and mass properties are
   state, as the game may change them (cairn_body_set_type, cairn_body_set_mass_properties). */
typedef struct body_record {
    uint32_t generation;
    uint8_t type, enabled, awake, allow_sleep;
    uint8_t locked_rotation, locked_translation, unused[2]; /* in what was the transform's
                                                               alignment padding */
    cairn_transform transform;
    float inverse_mass;
    vec3s local_center;
    mat3s inertia_local, inverse_inertia_local;
    vec3s linear_velocity, angular_velocity, force, torque;
    float sleep_time, gravity_scale, friction, restitution, rolling_resistance;
    float linear_damping, angular_damping;
    uint32_t layer, mask;
    int32_t joint_edges;
    uint32_t has_proxy;
    uint32_t shape_signature; /* shape_signature folded: a restore needs the same shape */
    cairn_aabb fat;           /* the broadphase's box, which decides when pairs start and end */
} body_record;

typedef struct snapshot_header {
    char magic[8];
    uint32_t version, byte_order;
    uint32_t record_sizes[5]; /* def, body record, manifold point, GJK cache, joint */
    uint32_t body_slots, contacts, parked, joint_slots, joint_free, characters;
    uint32_t kind; /* SNAPSHOT_FULL or SNAPSHOT_AWAKE */
    uint32_t owed_ends, owed_sensor_ends;
} snapshot_header;

/* A full snapshot holds every body and contact. An awake-only one holds the awake bodies and the
   walked contacts; a sleeping body is a fingerprint (generation, wakes, record hash) that the
   restore checks against the world, whose sleeping part it keeps. */
enum { SNAPSHOT_FULL, SNAPSHOT_AWAKE };

/* The body slot tags: dead, a record, or (awake-only snapshots) a sleeper's fingerprint. */
enum { SLOT_DEAD, SLOT_RECORD, SLOT_SLEEPER };

typedef struct sleeper {
    uint32_t generation, wakes;
    uint64_t record_hash;
} sleeper;

typedef struct world_flags {
    float last_substep;
    uint8_t park_pending, unpark_pending, refilter_pending, unused;
} world_flags;

static uint64_t checksum(const unsigned char *bytes, size_t n)
{
    return fnv1a(FNV_OFFSET, bytes, n);
}

static snapshot_header make_header(const cairn_world *w, uint32_t kind)
{
    snapshot_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, SNAPSHOT_MAGIC, 8);
    h.version = SNAPSHOT_VERSION;
    h.byte_order = BYTE_ORDER_MARK;
    h.record_sizes[0] = SAVED_DEF_BYTES;
    h.record_sizes[1] = sizeof(body_record);
    h.record_sizes[2] = sizeof(manifold_point);
    h.record_sizes[3] = sizeof(gjk_cache_data);
    h.record_sizes[4] = sizeof(joint);
    h.body_slots = (uint32_t)w->bodies.count;
    h.contacts = (uint32_t)w->contacts.count;
    h.parked = (uint32_t)w->parked.count;
    h.joint_slots = (uint32_t)w->joints.count;
    h.joint_free = (uint32_t)w->joint_ids.free_indices.count;
    h.characters = (uint32_t)characters_count(w);
    h.kind = kind;
    h.owed_ends = (uint32_t)w->events.owed_ends.count;
    h.owed_sensor_ends = (uint32_t)w->events.owed_sensor_ends.count;
    return h;
}

/* ---- writing ---- */

static uint32_t folded_signature(const cairn_shape *shape)
{
    uint64_t s = shape_signature(shape);
    return (uint32_t)(s ^ (s >> 32));
}

static body_record record_of(const cairn_world *w, const body *b)
{
    body_record r;
    memset(&r, 0, sizeof r);
    r.generation = b->generation;
    r.type = (uint8_t)b->type;
    r.enabled = b->enabled;
    r.awake = b->awake;
    r.allow_sleep = b->allow_sleep;
    r.locked_rotation = b->locked_rotation;
    r.locked_translation = b->locked_translation;
    /* Field by field: the transform's padding (before its 16-byte aligned rotation) would copy
       undefined bytes in, and two snapshots of one state must be the same bytes. */
    r.transform.position = b->transform.position;
    r.transform.rotation = b->transform.rotation;
    r.inverse_mass = b->inverse_mass;
    r.local_center = b->local_center;
    r.inertia_local = b->inertia_local;
    r.inverse_inertia_local = b->inverse_inertia_local;
    r.linear_velocity = b->linear_velocity;
    r.angular_velocity = b->angular_velocity;
    r.force = b->force;
    r.torque = b->torque;
    r.sleep_time = b->sleep_time;
    r.gravity_scale = b->gravity_scale;
    r.friction = b->friction;
    r.restitution = b->restitution;
    r.rolling_resistance = b->rolling_resistance;
    r.linear_damping = b->linear_damping;
    r.angular_damping = b->angular_damping;
    r.layer = b->layer;
    r.mask = b->mask;
    r.joint_edges = b->joint_edges;
    r.has_proxy = b->proxy >= 0;
    r.shape_signature = folded_signature(b->shape);
    if (b->proxy >= 0)
        r.fat = broadphase_fat_aabb(&w->broadphase, b->proxy);
    return r;
}

/* The characters' records in list order (a scratch copy: there are few). */
static void put_characters(cursor *c, const cairn_world *w, uint32_t count)
{
    size_t bytes = sizeof(character_record) * count;
    if (count == 0 || c->data == NULL) {
        c->at += bytes;
        return;
    }
    character_record *all = mem_alloc(bytes);
    if (all == NULL) {
        c->failed = true;
        return;
    }
    characters_save(w, all);
    put(c, all, bytes);
    mem_free(all, bytes);
}

/* The settings with zeros for the padding after the solver's three bools, for the same reason as
   the body transforms: undefined bytes would make one state's snapshots differ. */
static void put_def(cursor *c, const cairn_world_def *def)
{
    enum {
        BOOLS_END = offsetof(cairn_world_def, solver) +
                    offsetof(cairn_solver_settings, joint_trees) + sizeof(bool),
        NEXT = offsetof(cairn_world_def, solver) +
               offsetof(cairn_solver_settings, sleep_linear_velocity)
    };
    _Static_assert(NEXT > BOOLS_END && NEXT - BOOLS_END < 8, "the padding moved: look again");
    static const unsigned char zeros[NEXT - BOOLS_END];
    put(c, def, BOOLS_END);
    put(c, zeros, sizeof zeros);
    put(c, (const unsigned char *)def + NEXT, SAVED_DEF_BYTES - NEXT);
}

static sleeper sleeper_of(const cairn_world *w, const body *b)
{
    body_record r = record_of(w, b);
    return (sleeper){b->generation, b->wakes, checksum((const unsigned char *)&r, sizeof r)};
}

static void put_bodies(cursor *c, const cairn_world *w, uint32_t kind)
{
    for (int i = 0; i < w->bodies.count; ++i) {
        const body *b = &w->bodies.data[i];
        uint8_t tag = !b->alive                             ? SLOT_DEAD
                      : kind == SNAPSHOT_AWAKE && !b->awake ? SLOT_SLEEPER
                                                            : SLOT_RECORD;
        put(c, &tag, 1);
        if (tag == SLOT_RECORD) {
            body_record r = record_of(w, b);
            put(c, &r, sizeof r);
        } else if (tag == SLOT_SLEEPER) {
            sleeper z = sleeper_of(w, b);
            put(c, &z, sizeof z);
        }
    }
}

static void put_world(cursor *c, const cairn_world *w, uint32_t kind)
{
    snapshot_header h = make_header(w, kind);
    put(c, &h, sizeof h);
    put_def(c, &w->def);
    world_flags flags = {w->last_substep, w->park_pending, w->unpark_pending, w->refilter_pending,
                         0};
    put(c, &flags, sizeof flags);
    put_bodies(c, w, kind);
    snapshot_put_contacts(c, &w->contacts);
    if (kind == SNAPSHOT_FULL)
        snapshot_put_contacts(c, &w->parked); /* awake-only: the world keeps its own */
    put(c, w->joint_ids.free_indices.data, sizeof(uint32_t) * h.joint_free);
    for (int i = 0; i < w->joints.count; ++i) {
        joint copy = w->joints.data[i];
        copy.settings.user_data = NULL; /* the game's pointer stays the game's */
        put(c, &copy, sizeof copy);
    }
    put_characters(c, w, h.characters);
    put(c, w->events.owed_ends.data, sizeof(cairn_contact_end_event) * h.owed_ends);
    put(c, w->events.owed_sensor_ends.data, sizeof(cairn_sensor_event) * h.owed_sensor_ends);
}

static size_t snapshot_size(const cairn_world *world, uint32_t kind, const char *fn)
{
    if (world == NULL) {
        error_set("%s: world is NULL", fn);
        return 0;
    }
    cursor c = {0};
    put_world(&c, world, kind);
    return c.at + sizeof(uint64_t);
}

static bool snapshot_write(const cairn_world *world, void *buffer, size_t size, uint32_t kind,
                           const char *fn)
{
    if (world == NULL)
        return error_set("%s: world is NULL", fn);
    if (buffer == NULL)
        return error_set("%s: buffer is NULL", fn);
    size_t needed = snapshot_size(world, kind, fn);
    if (size < needed)
        return error_set("%s: buffer of %zu bytes, %zu needed", fn, size, needed);
    cursor c = {.data = buffer, .size = size};
    put_world(&c, world, kind);
    if (c.failed)
        return error_set("%s: out of memory", fn);
    uint64_t sum = checksum(buffer, c.at);
    put(&c, &sum, sizeof sum);
    return true;
}

size_t cairn_world_snapshot_size(const cairn_world *world)
{
    return snapshot_size(world, SNAPSHOT_FULL, "cairn_world_snapshot_size");
}

bool cairn_world_snapshot(const cairn_world *world, void *buffer, size_t size)
{
    return snapshot_write(world, buffer, size, SNAPSHOT_FULL, "cairn_world_snapshot");
}

size_t cairn_world_snapshot_awake_size(const cairn_world *world)
{
    return snapshot_size(world, SNAPSHOT_AWAKE, "cairn_world_snapshot_awake_size");
}

bool cairn_world_snapshot_awake(const cairn_world *world, void *buffer, size_t size)
{
    return snapshot_write(world, buffer, size, SNAPSHOT_AWAKE, "cairn_world_snapshot_awake");
}

/* ---- reading ---- */

/* The parsed snapshot, checked against the world before anything changes. */
typedef struct parsed {
    snapshot_header header;
    cairn_world_def def;
    world_flags flags;
    size_t bodies_at, contacts_at, characters_at, owed_at; /* offsets of the sections */
    size_t joints_at;                                      /* the joint free list, then slots */
    uint32_t extras;                                       /* contacts with extra manifolds */
    uint32_t triangle_caches; /* contacts with triangle cache entries */
    uint8_t *tags;            /* awake-only snapshots: each body slot's tag (SLOT_*); else NULL */
    size_t tag_bytes;
} parsed;

static void parsed_free(parsed *p)
{
    if (p->tags)
        mem_free(p->tags, p->tag_bytes);
    p->tags = NULL;
}

/* A contact the world keeps through an awake-only restore: both bodies slept at the save. */
static bool kept_parked(const uint8_t *tags, const contact *k)
{
    return tags && tags[k->body_a] == SLOT_SLEEPER && tags[k->body_b] == SLOT_SLEEPER;
}

/* What a game should do instead of creating and destroying bodies that a restore may undo. */
#define KEEP_BODIES                                                                                \
    "a snapshot restores the bodies that existed at its save: make the bodies a rollback may "     \
    "undo (projectiles, debris) in advance and disable them, instead of creating and destroying"

static bool check_header(const cairn_world *w, const snapshot_header *h)
{
    const char *fn = "cairn_world_restore";
    if (memcmp(h->magic, SNAPSHOT_MAGIC, 8) != 0)
        return error_set("%s: not a Cairn snapshot (bad magic)", fn);
    if (h->byte_order != BYTE_ORDER_MARK)
        return error_set("%s: the snapshot was written with another byte order", fn);
    if (h->version != SNAPSHOT_VERSION)
        return error_set("%s: snapshot version %u, this library reads %u", fn, h->version,
                         SNAPSHOT_VERSION);
    snapshot_header mine = make_header(w, h->kind);
    if (h->kind != SNAPSHOT_FULL && h->kind != SNAPSHOT_AWAKE)
        return error_set("%s: unknown snapshot kind %u", fn, h->kind);
    if (memcmp(h->record_sizes, mine.record_sizes, sizeof mine.record_sizes) != 0)
        return error_set("%s: the snapshot comes from a build with other record layouts", fn);
    if (h->body_slots != mine.body_slots)
        return error_set("%s: the snapshot has %u body slots, the world %u: not its world (or "
                         "bodies were created since the save; %s)",
                         fn, h->body_slots, mine.body_slots, KEEP_BODIES);
    if (h->characters != mine.characters)
        return error_set("%s: the snapshot has %u characters, the world %u: not its world", fn,
                         h->characters, mine.characters);
    if (h->joint_free > h->joint_slots)
        return error_set("%s: corrupt joint pool (%u free of %u)", fn, h->joint_free,
                         h->joint_slots);
    return true;
}

/* A sleeper of an awake-only snapshot must still sleep in the world, unchanged. */
static bool check_sleeper(const cairn_world *w, cursor *c, int i)
{
    sleeper z;
    if (!take(c, &z, sizeof z))
        return false;
    const body *b = &w->bodies.data[i];
    sleeper now = sleeper_of(w, b);
    if (b->awake || z.generation != now.generation || z.wakes != now.wakes ||
        z.record_hash != now.record_hash)
        return error_set("cairn_world_restore: body %d slept at the save and has woken or "
                         "changed since: an awake-only snapshot keeps the world's sleeping "
                         "bodies (restore a full snapshot)",
                         i);
    return true;
}

/* A record's type and mass fit each other and the body's shape; its locked axes are axes. */
static bool valid_mass(const body *b, const body_record *r)
{
    if (r->type > CAIRN_DYNAMIC || (r->type == CAIRN_DYNAMIC && shape_is_triangles(b->shape)))
        return false;
    bool dynamic = r->type == CAIRN_DYNAMIC;
    bool finite = is_finite_float(r->inverse_mass) && is_finite_vec3(r->local_center);
    for (int c = 0; c < 3; ++c)
        finite = finite && is_finite_vec3(r->inertia_local.col[c]) &&
                 is_finite_vec3(r->inverse_inertia_local.col[c]);
    return finite && (dynamic ? r->inverse_mass > 0.0f : r->inverse_mass == 0.0f) &&
           r->locked_rotation <= CAIRN_LOCK_ROTATION_ALL &&
           r->locked_translation <= CAIRN_LOCK_TRANSLATION_ALL;
}

/* Every body slot must be the world's: alive or dead alike, same generation. */
static bool check_bodies(const cairn_world *w, cursor *c, parsed *p)
{
    for (int i = 0; i < w->bodies.count; ++i) {
        uint8_t tag;
        if (!take(c, &tag, 1))
            return false;
        if (tag > SLOT_SLEEPER || (tag == SLOT_SLEEPER && !p->tags))
            return error_set("cairn_world_restore: body slot %d has a bad tag (%u)", i, tag);
        const body *b = &w->bodies.data[i];
        bool alive = tag != SLOT_DEAD;
        if (alive != b->alive)
            return error_set("cairn_world_restore: body slot %d is %s in the snapshot and %s in "
                             "the world: not its world (or a body was created or destroyed "
                             "since the save; %s)",
                             i, alive ? "alive" : "dead", b->alive ? "alive" : "dead", KEEP_BODIES);
        if (p->tags)
            p->tags[i] = tag;
        if (tag == SLOT_SLEEPER && !check_sleeper(w, c, i))
            return false;
        if (tag != SLOT_RECORD)
            continue;
        body_record r;
        if (!take(c, &r, sizeof r))
            return false;
        if (r.generation != b->generation)
            return error_set("cairn_world_restore: body %d differs (generation) from the world's: "
                             "not its world (or it was destroyed and made again since the save; "
                             "%s)",
                             i, KEEP_BODIES);
        if (r.shape_signature != folded_signature(b->shape))
            return error_set("cairn_world_restore: body %d has another shape than at the save (a "
                             "snapshot carries no shapes: give it back its shape of then, e.g. "
                             "after cairn_body_set_shape, before restoring)",
                             i);
        if (!valid_mass(b, &r))
            return error_set("cairn_world_restore: body %d has a corrupt type, mass or locked axes",
                             i);
        if (!is_finite_vec3(r.transform.position) || !is_unit_quat(r.transform.rotation))
            return error_set("cairn_world_restore: body %d has a corrupt transform", i);
        if (!body_rolling_resistance_valid(r.rolling_resistance))
            return error_set("cairn_world_restore: body %d has a corrupt rolling resistance", i);
    }
    return true;
}

/* Awake-only: the world's parked contacts between sleepers are the saved ones. */
static bool check_kept_parked(const cairn_world *w, const parsed *p)
{
    uint32_t kept = 0;
    for (int i = 0; i < w->parked.count; ++i)
        kept += kept_parked(p->tags, &w->parked.data[i]);
    if (kept != p->header.parked)
        return error_set("cairn_world_restore: the sleeping bodies have %u parked contacts, %u "
                         "at the save (restore a full snapshot)",
                         kept, p->header.parked);
    return true;
}

static bool skip_contacts(cursor *c, uint32_t count, int body_slots, parsed *p)
{
    for (uint32_t i = 0; i < count; ++i) {
        contact k;
        contact_blocks blocks;
        if (!snapshot_take_contact(c, i, body_slots, &k, &blocks))
            return false;
        p->extras += blocks.has_extra;
        p->triangle_caches += blocks.has_triangles;
    }
    return true;
}

static bool check_joints(const cairn_world *w, const parsed *p, const void *buffer,
                         size_t joints_at);

/* The i-th character record (the section is not aligned). */
static character_record character_record_at(const parsed *p, const void *buffer, uint32_t i)
{
    character_record r;
    memcpy(&r, (const unsigned char *)buffer + p->characters_at + sizeof r * i, sizeof r);
    return r;
}

/* A character's capsule is made again from its recorded size: only sizes create takes. */
static bool check_characters(const parsed *p, const void *buffer)
{
    for (uint32_t i = 0; i < p->header.characters; ++i) {
        character_record r = character_record_at(p, buffer, i);
        if (!character_size_valid("cairn_world_restore: a character", r.half_height, r.radius))
            return false;
    }
    return true;
}

static bool parse(const cairn_world *w, const void *buffer, size_t size, parsed *p)
{
    const char *fn = "cairn_world_restore";
    if (size < sizeof(snapshot_header) + sizeof(uint64_t))
        return error_set("%s: %zu bytes is too short for a snapshot", fn, size);
    uint64_t stored;
    memcpy(&stored, (const unsigned char *)buffer + size - sizeof stored, sizeof stored);
    cursor c = {.source = buffer, .size = size - sizeof stored};
    if (!take(&c, &p->header, sizeof p->header) || !check_header(w, &p->header))
        return false;
    if (checksum(buffer, size - sizeof stored) != stored)
        return error_set("%s: checksum mismatch: the snapshot is truncated or corrupt", fn);
    p->def = w->def; /* the threads stay the world's own */
    if (!take(&c, &p->def, SAVED_DEF_BYTES) || !take(&c, &p->flags, sizeof p->flags))
        return error_set("%s: truncated snapshot", fn);
    if (!cairn_world_def_validate(&p->def))
        return error_set("%s: the snapshot's settings are invalid", fn);
    if (p->header.kind == SNAPSHOT_AWAKE) { /* the caller frees it (parsed_free) */
        p->tag_bytes = (size_t)w->bodies.count + 1;
        p->tags = mem_alloc(p->tag_bytes);
        if (p->tags == NULL)
            return error_set("%s: out of memory", fn);
    }
    p->bodies_at = c.at;
    if (!check_bodies(w, &c, p))
        return c.short_read ? error_set("%s: truncated snapshot", fn) : false;
    if (p->tags && !check_kept_parked(w, p))
        return false;
    p->contacts_at = c.at;
    int slots = w->bodies.count;
    p->extras = 0;
    p->triangle_caches = 0;
    if (!skip_contacts(&c, p->header.contacts, slots, p) ||
        (!p->tags && !skip_contacts(&c, p->header.parked, slots, p)))
        return c.short_read ? error_set("%s: truncated snapshot", fn) : false;
    p->joints_at = c.at;
    size_t owed = sizeof(cairn_contact_end_event) * p->header.owed_ends +
                  sizeof(cairn_sensor_event) * p->header.owed_sensor_ends;
    size_t rest = sizeof(uint32_t) * p->header.joint_free + sizeof(joint) * p->header.joint_slots +
                  sizeof(character_record) * p->header.characters + owed;
    if (c.at + rest != c.size)
        return error_set("%s: the snapshot's length does not match its counts", fn);
    p->owed_at = c.size - owed;
    p->characters_at = p->owed_at - sizeof(character_record) * p->header.characters;
    return check_characters(p, buffer) && check_joints(w, p, buffer, c.at);
}

/* The joints of a checksummed snapshot can still be wrong (written by other code, or fuzzed):
   every joint must name live bodies of this world, and every body's list of joint edges must
   run through live joints of that body and end. */
typedef struct joint_view {
    const unsigned char *joints; /* the joint slots in the buffer */
    uint32_t slots;
} joint_view;

static joint joint_at(const joint_view *v, uint32_t index)
{
    joint j;
    memcpy(&j, v->joints + sizeof(joint) * index, sizeof j);
    return j;
}

static bool valid_side(const cairn_world *w, uint32_t index, bool world_allowed)
{
    return (world_allowed && index == JOINT_WORLD) ||
           (index < (uint32_t)w->bodies.count && w->bodies.data[index].alive);
}

static bool edges_in_range(const joint *j, uint32_t slots)
{
    bool ok = true;
    for (int side = 0; side < 2; ++side)
        ok &= j->next[side] >= -1 && j->next[side] < (int32_t)(2 * slots) && j->prev[side] >= -1 &&
              j->prev[side] < (int32_t)(2 * slots);
    return ok;
}

static bool check_joint_slots(const cairn_world *w, const joint_view *v)
{
    for (uint32_t i = 0; i < v->slots; ++i) {
        joint j = joint_at(v, i);
        if (!j.alive)
            continue;
        if ((unsigned)j.type > (unsigned)CAIRN_JOINT_WHEEL || !valid_side(w, j.body_b, false) ||
            !valid_side(w, j.body_a, true) || j.body_a == j.body_b || !edges_in_range(&j, v->slots))
            return error_set("cairn_world_restore: joint %u is corrupt", i);
    }
    return true;
}

/* Walks each body's edge list: live joints of that body, at most one visit per edge. */
/* The next live body's record in the (already checked) body section; false after the last. */
/* The next live body's record: from the snapshot, or for a sleeper (checked unchanged) the
   world's own. */
static bool next_record(cursor *c, const cairn_world *w, int *index, body_record *r)
{
    while (++*index < w->bodies.count) {
        uint8_t tag = SLOT_DEAD;
        take(c, &tag, 1);
        if (tag == SLOT_RECORD) {
            take(c, r, sizeof *r);
            return true;
        }
        if (tag == SLOT_SLEEPER) {
            c->at += sizeof(sleeper);
            *r = record_of(w, &w->bodies.data[*index]);
            return true;
        }
    }
    return false;
}

static bool check_joint_lists(const cairn_world *w, const parsed *p, const joint_view *v,
                              const void *buffer)
{
    cursor c = {.source = buffer, .size = (size_t)-1, .at = p->bodies_at};
    body_record r;
    for (int i = -1; next_record(&c, w, &i, &r);) {
        int32_t key = r.joint_edges;
        for (uint32_t steps = 0; key >= 0; ++steps) {
            if (steps >= 2 * v->slots || (uint32_t)key >= 2 * v->slots)
                return error_set("cairn_world_restore: body %d's joint list is corrupt", i);
            joint j = joint_at(v, (uint32_t)key >> 1);
            uint32_t owner = (key & 1) ? j.body_b : j.body_a;
            if (!j.alive || owner != (uint32_t)i)
                return error_set("cairn_world_restore: body %d's joint list is corrupt", i);
            key = j.next[key & 1];
        }
    }
    return true;
}

static bool check_joints(const cairn_world *w, const parsed *p, const void *buffer,
                         size_t joints_at)
{
    const unsigned char *bytes = buffer;
    joint_view v = {bytes + joints_at + sizeof(uint32_t) * p->header.joint_free,
                    p->header.joint_slots};
    for (uint32_t k = 0; k < p->header.joint_free; ++k) {
        uint32_t index;
        memcpy(&index, bytes + joints_at + sizeof index * k, sizeof index);
        if (index >= v.slots || joint_at(&v, index).alive)
            return error_set("cairn_world_restore: the joint free list is corrupt");
    }
    return check_joint_slots(w, &v) && check_joint_lists(w, p, &v, buffer);
}

/* ---- applying (after every check passed and all memory is in hand) ---- */

/* The new contact arrays and joint storage, allocated before anything changes. */
/* What a restore needs beyond the world's own memory, gathered before anything changes: the
   contacts are read into the world's arrays (reserved to size first, which changes no content,
   and warm in cache when a game rolls back the same world again), their blocks (extra manifolds,
   triangle caches) drawn from pools of the world's current ones topped up with new ones. */
typedef struct block_pool {
    void **blocks;
    int count, capacity;
    size_t size; /* of one block */
} block_pool;

typedef struct restore_memory {
    block_pool extras, triangles;
    joint_array joints;
    id_pool joint_ids;
    /* per character: capsules of its recorded size where that differs from its own, else
       empty */
    character_shapes *characters;
    uint32_t character_count;
} restore_memory;

static void free_character_shapes(restore_memory *m)
{
    for (uint32_t i = 0; i < m->character_count; ++i)
        character_shapes_release(&m->characters[i]);
    mem_free(m->characters, sizeof *m->characters * m->character_count);
    m->characters = NULL;
    m->character_count = 0;
}

/* Capsules for the characters whose recorded size is not their own (crouched since the save). */
static bool make_character_shapes(const cairn_world *w, const parsed *p, const void *buffer,
                                  restore_memory *m)
{
    uint32_t count = p->header.characters;
    if (count == 0)
        return true;
    m->characters = mem_calloc(count, sizeof *m->characters);
    if (m->characters == NULL)
        return false;
    m->character_count = count;
    const cairn_character *ch = characters_first(w);
    for (uint32_t i = 0; i < count && ch != NULL; ++i, ch = characters_next(ch)) {
        character_record r = character_record_at(p, buffer, i);
        if (!characters_same_size(ch, &r) &&
            !character_shapes_make(r.half_height, r.radius, &m->characters[i])) {
            free_character_shapes(m);
            return false;
        }
    }
    return true;
}

/* One kind of contact block: the pointer to it in a contact. */
typedef void *(*block_of)(const contact *c);

static void *extra_of(const contact *c)
{
    return c->extra;
}

static void *triangles_of(const contact *c)
{
    return c->triangles;
}

/* The blocks of the contacts the restore replaces (not those it keeps: kept_parked); counted
   only when pool is NULL. */
static int gather_blocks(const contact_array *contacts, const uint8_t *tags, block_of get,
                         block_pool *pool)
{
    int count = 0;
    for (int i = 0; i < contacts->count; ++i) {
        void *block = get(&contacts->data[i]);
        if (block == NULL || kept_parked(tags, &contacts->data[i]))
            continue;
        ++count;
        if (pool)
            pool->blocks[pool->count++] = block;
    }
    return count;
}

/* Frees what the pool still holds and the pool itself. */
static void empty_pool(block_pool *pool)
{
    while (pool->count > 0)
        mem_free(pool->blocks[--pool->count], pool->size);
    if (pool->blocks)
        mem_free(pool->blocks, sizeof *pool->blocks * (size_t)pool->capacity);
    pool->blocks = NULL;
}

/* The pool holds the world's blocks of one kind and enough new ones for the snapshot's; false
   (and nothing allocated) when memory runs out. The world's blocks stay the world's until
   apply. */
static bool fill_pool(const cairn_world *w, const parsed *p, block_of get, int needed,
                      block_pool *pool)
{
    int have = gather_blocks(&w->contacts, NULL, get, NULL) +
               gather_blocks(&w->parked, p->tags, get, NULL);
    pool->capacity = have > needed ? have : needed;
    if (pool->capacity == 0)
        return true;
    pool->blocks = mem_alloc(sizeof *pool->blocks * (size_t)pool->capacity);
    if (pool->blocks == NULL)
        return false;
    gather_blocks(&w->contacts, NULL, get, pool);
    gather_blocks(&w->parked, p->tags, get, pool);
    while (pool->count < needed) {
        void *fresh = mem_alloc(pool->size);
        if (fresh == NULL) {
            while (pool->count > have) /* the world's own blocks stay the world's */
                mem_free(pool->blocks[--pool->count], pool->size);
            mem_free(pool->blocks, sizeof *pool->blocks * (size_t)pool->capacity);
            pool->blocks = NULL;
            return false;
        }
        pool->blocks[pool->count++] = fresh;
    }
    return true;
}

static void *pool_take(block_pool *pool)
{
    return pool->blocks[--pool->count];
}

/* Reads count contacts into out (its capacity reserved already), blocks from the pools; what
   the contacts derive from the restored bodies' shapes is derived again. */
static void read_contacts(const cairn_world *w, cursor *c, uint32_t count, contact_array *out,
                          restore_memory *m)
{
    out->count = 0;
    for (uint32_t i = 0; i < count; ++i) {
        contact *k = &out->data[out->count++];
        contact_blocks blocks;
        snapshot_take_contact(c, i, w->bodies.count, k, &blocks); /* checked by parse */
        k->surface_rolls = contact_surface_rolls(w, k);
        if (blocks.has_extra) {
            k->extra = pool_take(&m->extras);
            *k->extra = blocks.extra;
        }
        if (blocks.has_triangles) {
            k->triangles = pool_take(&m->triangles);
            *k->triangles = blocks.triangles;
        }
    }
}

/* The joint slots and their id pool (generations, the live ones, the free list in order). */
static bool read_joints(cursor *c, const snapshot_header *h, restore_memory *m)
{
    int slots = (int)h->joint_slots;
    if (!id_pool_init(&m->joint_ids, slots) || !array_reserve(&m->joints, slots + 1) ||
        !array_reserve(&m->joint_ids.slots, slots + 1) ||
        !array_reserve(&m->joint_ids.free_indices, slots + 1))
        return false;
    m->joint_ids.free_indices.count = (int)h->joint_free;
    take(c, m->joint_ids.free_indices.data, sizeof(uint32_t) * h->joint_free);
    for (int i = 0; i < slots; ++i) {
        joint *j = &m->joints.data[m->joints.count++];
        take(c, j, sizeof *j);
        m->joint_ids.slots.data[m->joint_ids.slots.count++] =
            (id_slot){j->generation ? j->generation : 1u, j->alive};
        m->joint_ids.live_count += j->alive;
    }
    return true;
}

/* Everything that can fail, before anything changes: the contact arrays' capacity, the block
   pools, the joints. */
static bool read_memory(cairn_world *w, const parsed *p, const void *buffer, restore_memory *m)
{
    memset(m, 0, sizeof *m);
    m->extras.size = sizeof(manifold_extra);
    m->triangles.size = sizeof(triangle_cache);
    if (!array_reserve(&w->contacts, (int)p->header.contacts + 1) ||
        !array_reserve(&w->parked, (int)p->header.parked + 1) ||
        !fill_pool(w, p, extra_of, (int)p->extras, &m->extras))
        return false;
    if (!fill_pool(w, p, triangles_of, (int)p->triangle_caches, &m->triangles)) {
        empty_pool(&m->extras);
        return false;
    }
    cursor c = {.source = buffer, .size = (size_t)-1, .at = p->joints_at};
    if (!read_joints(&c, &p->header, m) || !make_character_shapes(w, p, buffer, m)) {
        empty_pool(&m->extras);
        empty_pool(&m->triangles);
        array_free(&m->joints);
        id_pool_destroy(&m->joint_ids);
        return false;
    }
    return true;
}

/* A body's proxy as the snapshot has it: present when enabled, with its filter, box and static
   flag (from the type: type_changed when the body had another type before the restore). */
static bool restore_proxy(cairn_world *w, body *b, uint32_t index, const body_record *r,
                          bool type_changed)
{
    bool filter_changed = b->layer != r->layer || b->mask != r->mask;
    if (b->proxy >= 0 && (!r->has_proxy || filter_changed || type_changed)) {
        broadphase_destroy_proxy(&w->broadphase, b->proxy);
        b->proxy = -1;
    }
    b->layer = r->layer;
    b->mask = r->mask;
    if (r->has_proxy && b->proxy < 0 && !body_create_proxy(w, b, index))
        return false;
    if (r->has_proxy)
        broadphase_set_fat_aabb(&w->broadphase, b->proxy, r->fat);
    return true;
}

static void restore_body(cairn_world *w, uint32_t index, const body_record *r)
{
    body *b = &w->bodies.data[index];
    body_set_awake(w, index, false);
    bool type_changed = b->type != (cairn_body_type)r->type;
    b->type = (cairn_body_type)r->type;
    b->inverse_mass = r->inverse_mass;
    b->local_center = r->local_center;
    b->inertia_local = r->inertia_local;
    b->inverse_inertia_local = r->inverse_inertia_local;
    b->locked_rotation = r->locked_rotation;
    b->locked_translation = r->locked_translation;
    b->enabled = r->enabled;
    b->allow_sleep = r->allow_sleep;
    b->transform = r->transform;
    b->linear_velocity = r->linear_velocity;
    b->angular_velocity = r->angular_velocity;
    b->force = r->force;
    b->torque = r->torque;
    b->sleep_time = r->sleep_time;
    b->gravity_scale = r->gravity_scale;
    b->friction = r->friction;
    b->restitution = r->restitution;
    b->rolling_resistance = r->rolling_resistance;
    b->linear_damping = r->linear_damping;
    b->angular_damping = r->angular_damping;
    b->joint_edges = r->joint_edges;
    body_sync(b);
    /* a proxy that cannot be made leaves the body out */
    restore_proxy(w, b, index, r, type_changed);
    body_set_awake(w, index, r->awake && b->enabled);
}

/* One record at a time, with the capsules read_memory made for those whose size changed. */
static void restore_characters(cairn_world *w, const parsed *p, const void *buffer,
                               restore_memory *m)
{
    cairn_character *ch = characters_first(w);
    for (uint32_t i = 0; i < p->header.characters && ch != NULL; ++i, ch = characters_next(ch)) {
        character_record r = character_record_at(p, buffer, i);
        characters_load_one(ch, &r, &m->characters[i]);
    }
    free_character_shapes(m);
}

/* Awake-only: the parked contacts between sleepers stay (their extras with them); the others'
   extras went to the pool. */
static void keep_sleepers_parked(contact_array *parked, const uint8_t *tags)
{
    int kept = 0;
    for (int i = 0; i < parked->count; ++i)
        if (kept_parked(tags, &parked->data[i]))
            parked->data[kept++] = parked->data[i];
    parked->count = kept;
}

static void apply(cairn_world *w, const parsed *p, const void *buffer, restore_memory *m)
{
    w->def = p->def;
    w->last_substep = p->flags.last_substep;
    w->park_pending = p->flags.park_pending;
    w->unpark_pending = p->flags.unpark_pending;
    w->refilter_pending = p->flags.refilter_pending;
    cursor c = {.source = buffer, .size = (size_t)-1, .at = p->bodies_at};
    body_record r;
    for (int i = -1; next_record(&c, w, &i, &r);)
        restore_body(w, (uint32_t)i, &r);
    /* the game's user data stays on the joints it knows */
    for (int i = 0; i < m->joints.count; ++i) {
        joint *j = &m->joints.data[i];
        bool same = i < w->joints.count && w->joints.data[i].alive && j->alive &&
                    w->joints.data[i].generation == j->generation;
        j->settings.user_data = same ? w->joints.data[i].settings.user_data : NULL;
    }
    cursor contacts = {.source = buffer, .size = (size_t)-1, .at = p->contacts_at};
    read_contacts(w, &contacts, p->header.contacts, &w->contacts, m);
    if (p->tags)
        keep_sleepers_parked(&w->parked, p->tags);
    else
        read_contacts(w, &contacts, p->header.parked, &w->parked, m);
    empty_pool(&m->extras); /* the world's blocks no contact has now */
    empty_pool(&m->triangles);
    array_free(&w->joints);
    id_pool_destroy(&w->joint_ids);
    w->joints = m->joints;
    w->joint_ids = m->joint_ids;
    w->joints_broken = 0;
    restore_characters(w, p, buffer, m);
    events_clear(w);
    memset(&w->stats, 0, sizeof w->stats);
    /* publish the pairs of the restored boxes; the next step's changes are measured from them */
    broadphase_update_pairs(&w->broadphase);
    /* pairs still pending at the save (bodies made or moved after its last step) get the
       contacts the saved world's next step would have made; those it would have ended are
       ended now, their end events owed to the next step, which the saved world's reported */
    contacts_reconcile(w);
    events_owe(w);
    events_owe_saved(w, (const unsigned char *)buffer + p->owed_at, (int)p->header.owed_ends,
                     (int)p->header.owed_sensor_ends);
}

bool cairn_world_restore(cairn_world *world, const void *buffer, size_t size)
{
    if (!world_unlocked(world, "cairn_world_restore"))
        return false;
    if (world == NULL)
        return error_set("cairn_world_restore: world is NULL");
    if (buffer == NULL)
        return error_set("cairn_world_restore: buffer is NULL");
    parsed p = {.tags = NULL};
    if (!parse(world, buffer, size, &p)) {
        parsed_free(&p);
        return false;
    }
    restore_memory m;
    if (!read_memory(world, &p, buffer, &m)) {
        parsed_free(&p);
        return error_set("cairn_world_restore: out of memory");
    }
    apply(world, &p, buffer, &m);
    parsed_free(&p);
    return true;
}
