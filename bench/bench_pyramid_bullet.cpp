// Bullet's side of bench_pyramid: btDiscreteDynamicsWorld with btDbvtBroadphase,
// btCollisionDispatcher / btDefaultCollisionConfiguration and btSequentialImpulseConstraintSolver,
// the same floor and pyramid of boxes as Cairn's, deactivation disabled.
#include "bench_pyramid_bullet.h"

#include <btBulletDynamicsCommon.h>

#include <vector>

struct pyr_bullet {
    btDefaultCollisionConfiguration *config = nullptr;
    btCollisionDispatcher *dispatcher = nullptr;
    btDbvtBroadphase *broadphase = nullptr;
    btSequentialImpulseConstraintSolver *solver = nullptr;
    btDiscreteDynamicsWorld *world = nullptr;
    btBoxShape *floor_shape = nullptr, *box_shape = nullptr;
    btRigidBody *floor = nullptr;
    std::vector<btRigidBody *> boxes;
    float box_mass = 0;
};

static btRigidBody *make_body(btCollisionShape *shape, float mass, const btVector3 &position)
{
    btVector3 inertia(0, 0, 0);
    if (mass > 0)
        shape->calculateLocalInertia(mass, inertia);
    btTransform xf;
    xf.setIdentity();
    xf.setOrigin(position);
    // No motion state: the body's own world transform is read (nothing interpolated).
    btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, shape, inertia);
    info.m_startWorldTransform = xf;
    return new btRigidBody(info);
}

extern "C" {

pyr_bullet *pyr_bullet_create(const float floor_half[3], const float floor_pos[3], float box_half,
                              float density, const float *positions, int count, float gravity_y,
                              int iterations)
{
    pyr_bullet *b = new pyr_bullet;
    b->config = new btDefaultCollisionConfiguration();
    b->dispatcher = new btCollisionDispatcher(b->config);
    b->broadphase = new btDbvtBroadphase();
    b->solver = new btSequentialImpulseConstraintSolver();
    b->world = new btDiscreteDynamicsWorld(b->dispatcher, b->broadphase, b->solver, b->config);
    b->world->setGravity(btVector3(0, gravity_y, 0));
    b->world->getSolverInfo().m_numIterations = iterations;

    b->floor_shape = new btBoxShape(btVector3(floor_half[0], floor_half[1], floor_half[2]));
    b->floor = make_body(b->floor_shape, 0, btVector3(floor_pos[0], floor_pos[1], floor_pos[2]));
    b->world->addRigidBody(b->floor);

    b->box_shape = new btBoxShape(btVector3(box_half, box_half, box_half));
    float side = 2 * box_half;
    b->box_mass = side * side * side * density;
    b->boxes.reserve((size_t)count);
    for (int i = 0; i < count; i++) {
        const float *p = positions + 3 * i;
        btRigidBody *body = make_body(b->box_shape, b->box_mass, btVector3(p[0], p[1], p[2]));
        body->setActivationState(DISABLE_DEACTIVATION);
        b->world->addRigidBody(body);
        b->boxes.push_back(body);
    }
    return b;
}

pyr_bullet_settings pyr_bullet_get_settings(const pyr_bullet *b)
{
    const btContactSolverInfo &si = b->world->getSolverInfo();
    pyr_bullet_settings s;
    s.iterations = si.m_numIterations;
    s.split_impulse = si.m_splitImpulse;
    s.split_threshold = si.m_splitImpulsePenetrationThreshold;
    s.erp = si.m_erp;
    s.erp2 = si.m_erp2;
    s.warmstarting_factor = si.m_warmstartingFactor;
    s.solver_mode = si.m_solverMode;
    s.margin = b->box_shape->getMargin();
    const btRigidBody *first = b->boxes.empty() ? b->floor : b->boxes[0];
    s.friction = first->getFriction();
    s.box_mass = b->box_mass;
    s.linear_damping = first->getLinearDamping();
    s.angular_damping = first->getAngularDamping();
    s.version = btGetVersion();
    return s;
}

void pyr_bullet_allow_sleep(pyr_bullet *b)
{
    for (btRigidBody *body : b->boxes)
        body->forceActivationState(ACTIVE_TAG);
}

int pyr_bullet_active_count(const pyr_bullet *b)
{
    int active = 0;
    for (const btRigidBody *body : b->boxes)
        active += body->isActive();
    return active;
}

void pyr_bullet_step(pyr_bullet *b, float dt)
{
    b->world->stepSimulation(dt, 0);
}

void pyr_bullet_positions(const pyr_bullet *b, float *out)
{
    for (size_t i = 0; i < b->boxes.size(); i++) {
        const btVector3 &p = b->boxes[i]->getWorldTransform().getOrigin();
        out[3 * i + 0] = p.x();
        out[3 * i + 1] = p.y();
        out[3 * i + 2] = p.z();
    }
}

void pyr_bullet_contacts(const pyr_bullet *b, int *manifolds, int *points)
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

void pyr_bullet_destroy(pyr_bullet *b)
{
    for (btRigidBody *body : b->boxes) {
        b->world->removeRigidBody(body);
        delete body;
    }
    b->world->removeRigidBody(b->floor);
    delete b->floor;
    delete b->box_shape;
    delete b->floor_shape;
    delete b->world;
    delete b->solver;
    delete b->broadphase;
    delete b->dispatcher;
    delete b->config;
    delete b;
}
}
