// Bullet's side of bench_joints: a jb_scene built in btDiscreteDynamicsWorld (btDbvtBroadphase,
// btSequentialImpulseConstraintSolver) with btPoint2PointConstraint, btHingeConstraint and
// btConeTwistConstraint, and the joints' gaps measured from the bodies' transforms.
#include "bench_joints_bullet.h"

#include <btBulletDynamicsCommon.h>

#include <cmath>
#include <limits>
#include <vector>

struct jb_bullet {
    btDefaultCollisionConfiguration *config = nullptr;
    btCollisionDispatcher *dispatcher = nullptr;
    btDbvtBroadphase *broadphase = nullptr;
    btSequentialImpulseConstraintSolver *solver = nullptr;
    btDiscreteDynamicsWorld *world = nullptr;
    std::vector<btCollisionShape *> shapes; // one per distinct size (Cairn shares them too)
    std::vector<jb_body> shape_of;          // the size each of shapes was made for
    std::vector<btRigidBody *> bodies;      // scene order
    std::vector<btTypedConstraint *> joints;
};

static btTransform to_bt(const float pos[3], const float rot[4])
{
    return btTransform(btQuaternion(rot[0], rot[1], rot[2], rot[3]),
                       btVector3(pos[0], pos[1], pos[2]));
}

static btVector3 vec(const float v[3])
{
    return btVector3(v[0], v[1], v[2]);
}

static btRigidBody *make_body(const jb_body &d, btCollisionShape *shape, bool allow_sleep)
{
    btVector3 inertia(d.inertia[0], d.inertia[1], d.inertia[2]);
    // No motion state: the body's own world transform is read (nothing interpolated).
    btRigidBody::btRigidBodyConstructionInfo info(d.mass, nullptr, shape, inertia);
    info.m_startWorldTransform = to_bt(d.pos, d.rot);
    btRigidBody *body = new btRigidBody(info);
    if (d.mass > 0) {
        body->setLinearVelocity(vec(d.vel));
        if (!allow_sleep)
            body->setActivationState(DISABLE_DEACTIVATION);
    }
    return body;
}

// A world frame at the anchor whose first column is `x` (any two columns completing it).
static btTransform frame_x(const btVector3 &anchor, const btVector3 &x)
{
    btVector3 ux = x.normalized(), uy, uz;
    btPlaneSpace1(ux, uy, uz);
    btMatrix3x3 basis(ux.x(), uy.x(), uz.x(), ux.y(), uy.y(), uz.y(), ux.z(), uy.z(), uz.z());
    return btTransform(basis, anchor);
}

// The same with `z` as the third column (a hinge turns about its frame's z).
static btTransform frame_z(const btVector3 &anchor, const btVector3 &z)
{
    btVector3 uz = z.normalized(), ux, uy;
    btPlaneSpace1(uz, ux, uy);
    btMatrix3x3 basis(ux.x(), uy.x(), uz.x(), ux.y(), uy.y(), uz.y(), ux.z(), uy.z(), uz.z());
    return btTransform(basis, anchor);
}

static btTypedConstraint *make_joint(jb_bullet *b, const jb_joint &j)
{
    btRigidBody &rb = *b->bodies[(size_t)j.b];
    btRigidBody &ra = j.a >= 0 ? *b->bodies[(size_t)j.a] : btTypedConstraint::getFixedBody();
    btVector3 anchor = vec(j.anchor);
    switch (j.type) {
    case JB_BALL:
        if (j.a < 0) // hung from the world: Bullet's one-body form, the world pivot is anchor
            return new btPoint2PointConstraint(rb, rb.getWorldTransform().inverse() * anchor);
        return new btPoint2PointConstraint(ra, rb, ra.getWorldTransform().inverse() * anchor,
                                           rb.getWorldTransform().inverse() * anchor);
    case JB_HINGE: {
        // getHingeAngle() is minus B's turn about the frames' z (reference frame B), so z is
        // the reversed axis: the angle then is B's turn about the axis, as in the scene's limits.
        btTransform w = frame_z(anchor, -vec(j.axis));
        btHingeConstraint *h = new btHingeConstraint(ra, rb, ra.getWorldTransform().inverse() * w,
                                                     rb.getWorldTransform().inverse() * w, false);
        h->setLimit(j.lower, j.upper);
        return h;
    }
    case JB_SWING_TWIST: {
        // The cone's and the twist's axis is the frames' x; both swing spans are the cone.
        btTransform w = frame_x(anchor, vec(j.axis));
        btConeTwistConstraint *c = new btConeTwistConstraint(
            ra, rb, ra.getWorldTransform().inverse() * w, rb.getWorldTransform().inverse() * w);
        c->setLimit(j.cone, j.cone, j.twist);
        return c;
    }
    }
    return nullptr;
}

static btCollisionShape *shape_for(jb_bullet *b, const jb_body &d)
{
    for (size_t i = 0; i < b->shapes.size(); i++) {
        const jb_body &o = b->shape_of[i];
        if (o.shape == d.shape && o.size[0] == d.size[0] && o.size[1] == d.size[1] &&
            o.size[2] == d.size[2])
            return b->shapes[i];
    }
    btCollisionShape *shape;
    if (d.shape == JB_CAPSULE)
        shape = new btCapsuleShape(d.size[1], 2 * d.size[0]); // radius, cylinder height
    else
        shape = new btBoxShape(vec(d.size));
    b->shapes.push_back(shape);
    b->shape_of.push_back(d);
    return shape;
}

extern "C" {

jb_bullet *jb_bullet_create(const jb_scene *scene, float gravity_y, int iterations,
                            bool allow_sleep)
{
    jb_bullet *b = new jb_bullet;
    b->config = new btDefaultCollisionConfiguration();
    b->dispatcher = new btCollisionDispatcher(b->config);
    b->broadphase = new btDbvtBroadphase();
    b->solver = new btSequentialImpulseConstraintSolver();
    b->world = new btDiscreteDynamicsWorld(b->dispatcher, b->broadphase, b->solver, b->config);
    b->world->setGravity(btVector3(0, gravity_y, 0));
    b->world->getSolverInfo().m_numIterations = iterations;
    for (int i = 0; i < scene->body_count; i++) {
        const jb_body &d = scene->bodies[i];
        btRigidBody *body = make_body(d, shape_for(b, d), allow_sleep);
        b->world->addRigidBody(body);
        b->bodies.push_back(body);
    }
    for (int i = 0; i < scene->joint_count; i++) {
        btTypedConstraint *c = make_joint(b, scene->joints[i]);
        b->world->addConstraint(c, true); // the two bodies do not collide
        b->joints.push_back(c);
    }
    return b;
}

jb_bullet_settings jb_bullet_get_settings(const jb_bullet *b)
{
    const btContactSolverInfo &si = b->world->getSolverInfo();
    jb_bullet_settings s = {};
    s.iterations = si.m_numIterations;
    s.split_impulse = si.m_splitImpulse;
    s.erp = si.m_erp;
    s.erp2 = si.m_erp2;
    s.cfm = si.m_globalCfm;
    s.warmstarting_factor = si.m_warmstartingFactor;
    s.solver_mode = si.m_solverMode;
    s.box_margin = -1;
    s.cone_damping = -1;
    for (const btCollisionShape *shape : b->shapes)
        if (shape->getShapeType() == BOX_SHAPE_PROXYTYPE && s.box_margin < 0)
            s.box_margin = shape->getMargin();
    for (size_t i = 0; i < b->bodies.size(); i++) {
        if (b->bodies[i]->getInvMass() > 0) {
            s.friction = b->bodies[i]->getFriction();
            s.linear_damping = b->bodies[i]->getLinearDamping();
            s.angular_damping = b->bodies[i]->getAngularDamping();
            s.linear_sleep = b->bodies[i]->getLinearSleepingThreshold();
            s.angular_sleep = b->bodies[i]->getAngularSleepingThreshold();
        }
    }
    for (const btTypedConstraint *c : b->joints)
        if (c->getConstraintType() == CONETWIST_CONSTRAINT_TYPE) {
            s.cone_damping = static_cast<const btConeTwistConstraint *>(c)->getDamping();
            break;
        }
    s.version = btGetVersion();
    return s;
}

void jb_bullet_step(jb_bullet *b, float dt)
{
    b->world->stepSimulation(dt, 0);
}

// The two world pivots of a joint, each carried by its own body.
static double joint_gap(const btTypedConstraint *c)
{
    const btTransform &ta = c->getRigidBodyA().getCenterOfMassTransform();
    const btTransform &tb = c->getRigidBodyB().getCenterOfMassTransform();
    btVector3 pa, pb;
    switch (c->getConstraintType()) {
    case POINT2POINT_CONSTRAINT_TYPE: {
        const btPoint2PointConstraint *p = static_cast<const btPoint2PointConstraint *>(c);
        pa = ta * p->getPivotInA();
        pb = tb * p->getPivotInB();
        break;
    }
    case HINGE_CONSTRAINT_TYPE: {
        const btHingeConstraint *h = static_cast<const btHingeConstraint *>(c);
        pa = ta * h->getAFrame().getOrigin();
        pb = tb * h->getBFrame().getOrigin();
        break;
    }
    case CONETWIST_CONSTRAINT_TYPE: {
        const btConeTwistConstraint *k = static_cast<const btConeTwistConstraint *>(c);
        pa = ta * k->getAFrame().getOrigin();
        pb = tb * k->getBFrame().getOrigin();
        break;
    }
    default:
        return 0;
    }
    double d = (pb - pa).length();
    return std::isfinite(d) ? d : std::numeric_limits<double>::infinity();
}

double jb_bullet_max_gap(const jb_bullet *b, int *worst)
{
    double gap = 0;
    *worst = -1;
    for (size_t i = 0; i < b->joints.size(); i++) {
        double d = joint_gap(b->joints[i]);
        if (d > gap || *worst < 0) {
            gap = d;
            *worst = (int)i;
        }
    }
    return gap;
}

void jb_bullet_position(const jb_bullet *b, int body, float out[3])
{
    const btVector3 &p = b->bodies[(size_t)body]->getWorldTransform().getOrigin();
    out[0] = p.x();
    out[1] = p.y();
    out[2] = p.z();
}

int jb_bullet_awake_count(const jb_bullet *b)
{
    int awake = 0;
    for (const btRigidBody *body : b->bodies)
        awake += body->getInvMass() > 0 && body->isActive();
    return awake;
}

void jb_bullet_contacts(const jb_bullet *b, int *manifolds, int *points)
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

void jb_bullet_destroy(jb_bullet *b)
{
    for (btTypedConstraint *c : b->joints) {
        b->world->removeConstraint(c);
        delete c;
    }
    for (btRigidBody *body : b->bodies) {
        b->world->removeRigidBody(body);
        delete body;
    }
    for (btCollisionShape *shape : b->shapes)
        delete shape;
    delete b->world;
    delete b->solver;
    delete b->broadphase;
    delete b->dispatcher;
    delete b->config;
    delete b;
}
}
