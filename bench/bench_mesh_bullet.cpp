// Bullet's side of bench_mesh: btDiscreteDynamicsWorld with a static btBvhTriangleMeshShape
// terrain (btTriangleIndexVertexArray over the caller's arrays) and btBoxShape, btSphereShape,
// btCapsuleShape and btConvexHullShape bodies; a counting allocator for the BVH's bytes; ray casts
// through btCollisionWorld::rayTest.
#include "bench_mesh_bullet.h"

#include <btBulletDynamicsCommon.h>

#include <atomic>
#include <cstdlib>
#include <ctime>
#include <vector>

// ---- memory: every Bullet allocation carries its size in a 16-byte header ----

static std::atomic<size_t> live_bytes{0};
static const size_t HEADER = 16;

static void *counting_alloc(size_t size)
{
    unsigned char *block = static_cast<unsigned char *>(std::malloc(size + HEADER));
    if (!block)
        return nullptr;
    *reinterpret_cast<size_t *>(block) = size;
    live_bytes += size;
    return block + HEADER;
}

static void counting_free(void *memory)
{
    if (!memory)
        return;
    unsigned char *block = static_cast<unsigned char *>(memory) - HEADER;
    live_bytes -= *reinterpret_cast<size_t *>(block);
    std::free(block);
}

static double thread_cpu_ns()
{
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e9 + double(ts.tv_nsec);
}

// The caller's arrays as Bullet's striding mesh (no copy), and the quantized BVH over them.
static btTriangleIndexVertexArray *mesh_arrays(const mesh_bullet_mesh *mesh)
{
    return new btTriangleIndexVertexArray(
        mesh->triangle_count, const_cast<int *>(mesh->indices), 3 * int(sizeof(int)),
        mesh->vertex_count, const_cast<btScalar *>(mesh->vertices), 3 * int(sizeof(btScalar)));
}

static btRigidBody *make_body(btCollisionShape *shape, float mass, const btVector3 &inertia,
                              const btVector3 &position)
{
    btTransform xf;
    xf.setIdentity();
    xf.setOrigin(position);
    // No motion state: the body's own world transform is read (nothing interpolated).
    btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, shape, inertia);
    info.m_startWorldTransform = xf;
    return new btRigidBody(info);
}

struct mesh_bullet {
    btDefaultCollisionConfiguration *config = nullptr;
    btCollisionDispatcher *dispatcher = nullptr;
    btDbvtBroadphase *broadphase = nullptr;
    btSequentialImpulseConstraintSolver *solver = nullptr;
    btDiscreteDynamicsWorld *world = nullptr;
    btTriangleIndexVertexArray *arrays = nullptr;
    btBvhTriangleMeshShape *terrain_shape = nullptr;
    btRigidBody *terrain = nullptr;
    btCollisionShape *shapes[4] = {nullptr, nullptr, nullptr, nullptr};
    std::vector<btRigidBody *> bodies;
};

static void make_shapes(mesh_bullet *b, const mesh_bullet_shapes *s)
{
    b->shapes[MESH_BULLET_BOX] =
        new btBoxShape(btVector3(s->box_half[0], s->box_half[1], s->box_half[2]));
    b->shapes[MESH_BULLET_SPHERE] = new btSphereShape(s->sphere_radius);
    // btCapsuleShape takes the whole segment's length between the cap centres.
    b->shapes[MESH_BULLET_CAPSULE] =
        new btCapsuleShape(s->capsule_radius, 2.0f * s->capsule_half_height);
    b->shapes[MESH_BULLET_HULL] =
        new btConvexHullShape(s->hull_points, s->hull_count, 3 * int(sizeof(float)));
}

extern "C" {

mesh_bullet *mesh_bullet_create(const mesh_bullet_mesh *terrain, const mesh_bullet_shapes *shapes,
                                const mesh_bullet_body *bodies, int body_count,
                                const mesh_bullet_def *def)
{
    mesh_bullet *b = new mesh_bullet;
    b->config = new btDefaultCollisionConfiguration();
    b->dispatcher = new btCollisionDispatcher(b->config);
    b->broadphase = new btDbvtBroadphase();
    b->solver = new btSequentialImpulseConstraintSolver();
    b->world = new btDiscreteDynamicsWorld(b->dispatcher, b->broadphase, b->solver, b->config);
    b->world->setGravity(btVector3(0, def->gravity_y, 0));
    b->world->getSolverInfo().m_numIterations = def->iterations;

    b->arrays = mesh_arrays(terrain);
    b->terrain_shape = new btBvhTriangleMeshShape(b->arrays, true);
    b->terrain = make_body(b->terrain_shape, 0, btVector3(0, 0, 0), btVector3(0, 0, 0));
    b->terrain->setFriction(def->friction);
    b->terrain->setRestitution(def->restitution);
    b->world->addRigidBody(b->terrain);

    make_shapes(b, shapes);
    b->bodies.reserve(size_t(body_count));
    for (int i = 0; i < body_count; i++) {
        const mesh_bullet_body *d = &bodies[i];
        btRigidBody *body = make_body(b->shapes[d->kind], d->mass,
                                      btVector3(d->inertia[0], d->inertia[1], d->inertia[2]),
                                      btVector3(d->position[0], d->position[1], d->position[2]));
        body->setFriction(def->friction);
        body->setRestitution(def->restitution);
        if (!def->allow_sleep)
            body->setActivationState(DISABLE_DEACTIVATION);
        b->world->addRigidBody(body);
        b->bodies.push_back(body);
    }
    return b;
}

void mesh_bullet_step(mesh_bullet *b, float dt)
{
    b->world->stepSimulation(dt, 0);
}

void mesh_bullet_positions(const mesh_bullet *b, float *out)
{
    for (size_t i = 0; i < b->bodies.size(); i++) {
        const btVector3 &p = b->bodies[i]->getWorldTransform().getOrigin();
        out[3 * i + 0] = p.x();
        out[3 * i + 1] = p.y();
        out[3 * i + 2] = p.z();
    }
}

void mesh_bullet_contacts(const mesh_bullet *b, int *manifolds, int *points)
{
    int m = 0, n = 0;
    for (int i = 0; i < b->dispatcher->getNumManifolds(); i++) {
        int k = b->dispatcher->getManifoldByIndexInternal(i)->getNumContacts();
        m += k > 0;
        n += k;
    }
    *manifolds = m;
    *points = n;
}

float mesh_bullet_hull_margin(const mesh_bullet *b)
{
    return b->shapes[MESH_BULLET_HULL]->getMargin();
}

void mesh_bullet_destroy(mesh_bullet *b)
{
    for (btRigidBody *body : b->bodies) {
        b->world->removeRigidBody(body);
        delete body;
    }
    b->world->removeRigidBody(b->terrain);
    delete b->terrain;
    for (btCollisionShape *shape : b->shapes)
        delete shape;
    delete b->terrain_shape;
    delete b->arrays;
    delete b->world;
    delete b->solver;
    delete b->broadphase;
    delete b->dispatcher;
    delete b->config;
    delete b;
}

void mesh_bullet_count_memory(void)
{
    btAlignedAllocSetCustom(counting_alloc, counting_free);
}

size_t mesh_bullet_live_bytes(void)
{
    return live_bytes.load();
}

struct mesh_bullet_rays {
    btDefaultCollisionConfiguration *config = nullptr;
    btCollisionDispatcher *dispatcher = nullptr;
    btDbvtBroadphase *broadphase = nullptr;
    btCollisionWorld *world = nullptr;
    btTriangleIndexVertexArray *arrays = nullptr;
    btBvhTriangleMeshShape *shape = nullptr;
    btCollisionObject *object = nullptr;
};

mesh_bullet_rays *mesh_bullet_rays_create(const mesh_bullet_mesh *mesh, size_t *bytes,
                                          double *build_ns)
{
    mesh_bullet_rays *r = new mesh_bullet_rays;
    r->arrays = mesh_arrays(mesh);
    size_t before = live_bytes.load();
    double start = thread_cpu_ns();
    r->shape = new btBvhTriangleMeshShape(r->arrays, true);
    *build_ns = thread_cpu_ns() - start;
    *bytes = live_bytes.load() - before;
    r->config = new btDefaultCollisionConfiguration();
    r->dispatcher = new btCollisionDispatcher(r->config);
    r->broadphase = new btDbvtBroadphase();
    r->world = new btCollisionWorld(r->dispatcher, r->broadphase, r->config);
    r->object = new btCollisionObject();
    r->object->setCollisionShape(r->shape);
    r->world->addCollisionObject(r->object);
    r->world->updateAabbs();
    return r;
}

int mesh_bullet_rays_cast(mesh_bullet_rays *r, const float *from, const float *to, int count,
                          float *fraction)
{
    int hits = 0;
    for (int i = 0; i < count; i++) {
        btVector3 a(from[3 * i], from[3 * i + 1], from[3 * i + 2]);
        btVector3 b(to[3 * i], to[3 * i + 1], to[3 * i + 2]);
        btCollisionWorld::ClosestRayResultCallback hit(a, b);
        r->world->rayTest(a, b, hit);
        fraction[i] = hit.hasHit() ? hit.m_closestHitFraction : -1.0f;
        hits += hit.hasHit();
    }
    return hits;
}

void mesh_bullet_rays_destroy(mesh_bullet_rays *r)
{
    r->world->removeCollisionObject(r->object);
    delete r->object;
    delete r->world;
    delete r->broadphase;
    delete r->dispatcher;
    delete r->config;
    delete r->shape;
    delete r->arrays;
    delete r;
}
}
