#include <cairn/cairn.h>
#include <stdio.h>

static cairn_body_id add(cairn_world *world, cairn_body_type type, cairn_shape *shape,
                         vec3s position, float restitution)
{
    cairn_body_def def = cairn_body_default_def();
    def.type = type;
    def.shape = shape;
    def.transform.position = position;
    def.restitution = restitution;
    cairn_body_id id = cairn_body_create(world, &def);
    cairn_shape_release(shape);
    return id;
}

int main(void)
{
    cairn_world_def world_def = cairn_world_default_def();
    cairn_world *world = cairn_world_create(&world_def);
    cairn_body_id ball =
        add(world, CAIRN_DYNAMIC, cairn_shape_sphere(0.5f), (vec3s){{0, 5.5f, 0}}, 0.5f);
    add(world, CAIRN_STATIC, cairn_shape_box((vec3s){{10, 1, 10}}, 0.0f), (vec3s){{0, -1, 0}}, 0);
    cairn_body_id box =
        add(world, CAIRN_DYNAMIC, cairn_shape_box((vec3s){{0.5f, 0.5f, 0.5f}}, 0.05f),
            (vec3s){{5, 0.5f, 0}}, 0);

    int begins = 0, ends = 0;
    for (int step = 0; step < 140; ++step) { /* 2.33 s: the ball lands twice */
        cairn_world_step(world, 1.0f / 60.0f);
        cairn_contact_events events = cairn_world_contact_events(world);
        begins += events.begin_count;
        ends += events.end_count;
        for (int i = 0; i < events.hit_count; ++i) {
            const cairn_contact_hit_event *hit = &events.hits[i];
            printf("hit at %.2f s: %.1f m/s, A is the ball: %s, normal y %.1f\n", (step + 1) / 60.0,
                   hit->approach_speed, hit->body_a.index == ball.index ? "yes" : "no",
                   hit->normal.y);
        }
    }
    printf("begins %d, ends %d\n", begins, ends);

    /* destroying a touching body reports the end of its contacts right away */
    cairn_body_destroy(world, box);
    cairn_contact_events events = cairn_world_contact_events(world);
    printf("ends after destroy: %d, the box id valid: %s\n", events.end_count,
           cairn_body_is_valid(world, events.ends[0].body_b) ? "yes" : "no");
    cairn_world_destroy(world);
}
