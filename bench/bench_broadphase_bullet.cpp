// Bullet's broadphases behind a C interface for bench_broadphase.c: btAxisSweep3 /
// bt32BitAxisSweep3 and btDbvtBroadphase, fed the same fat AABBs as Cairn's.
#include <BulletCollision/BroadphaseCollision/btAxisSweep3.h>
#include <BulletCollision/BroadphaseCollision/btDbvtBroadphase.h>
#include <BulletCollision/CollisionDispatch/btCollisionDispatcher.h>
#include <BulletCollision/CollisionDispatch/btDefaultCollisionConfiguration.h>

#include <vector>

struct bt_bench {
    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher{&config};
    btBroadphaseInterface *broadphase = nullptr;
    std::vector<btBroadphaseProxy *> proxies;
};

extern "C" {

// kind 0: axis sweep (16-bit below 16k proxies, 32-bit above), kind 1: dynamic AABB trees.
bt_bench *bt_bench_create(int kind, int max_proxies, const float lo[3], const float hi[3])
{
    bt_bench *b = new bt_bench;
    btVector3 wmin(lo[0], lo[1], lo[2]), wmax(hi[0], hi[1], hi[2]);
    if (kind == 1)
        b->broadphase = new btDbvtBroadphase();
    else if (max_proxies < 16000)
        b->broadphase =
            new btAxisSweep3(wmin, wmax, (unsigned short)(max_proxies + 2), nullptr, true);
    else
        b->broadphase =
            new bt32BitAxisSweep3(wmin, wmax, (unsigned)(max_proxies + 2), nullptr, true);
    b->proxies.reserve((size_t)max_proxies);
    return b;
}

int bt_bench_add(bt_bench *b, const float lo[3], const float hi[3], int is_static)
{
    int group = is_static ? btBroadphaseProxy::StaticFilter : btBroadphaseProxy::DefaultFilter;
    int mask = is_static ? (btBroadphaseProxy::AllFilter ^ btBroadphaseProxy::StaticFilter)
                         : btBroadphaseProxy::AllFilter;
    int id = (int)b->proxies.size();
    btBroadphaseProxy *p = b->broadphase->createProxy(
        btVector3(lo[0], lo[1], lo[2]), btVector3(hi[0], hi[1], hi[2]), BOX_SHAPE_PROXYTYPE,
        (void *)(size_t)(id + 1), group, mask, &b->dispatcher);
    b->proxies.push_back(p);
    return id;
}

void bt_bench_move(bt_bench *b, int id, const float lo[3], const float hi[3])
{
    b->broadphase->setAabb(b->proxies[(size_t)id], btVector3(lo[0], lo[1], lo[2]),
                           btVector3(hi[0], hi[1], hi[2]), &b->dispatcher);
}

int bt_bench_update(bt_bench *b)
{
    b->broadphase->calculateOverlappingPairs(&b->dispatcher);
    return b->broadphase->getOverlappingPairCache()->getNumOverlappingPairs();
}

void bt_bench_destroy(bt_bench *b)
{
    for (btBroadphaseProxy *p : b->proxies)
        b->broadphase->destroyProxy(p, &b->dispatcher);
    delete b->broadphase;
    delete b;
}
}
