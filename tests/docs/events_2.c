#include <cairn/cairn.h>
#include <stdio.h>

static cairn_body_id add(cairn_world *world, cairn_body_type type, cairn_shape *shape,
                         vec3s position, bool is_sensor)
{
    cairn_body_def def = cairn_body_default_def();
    def.type = type;
    def.shape = shape;
    def.transform.position = position;
    def.is_sensor = is_sensor;
    cairn_body_id id = cairn_body_create(world, &def);
    cairn_shape_release(shape);
    return id;
}

int main(void)
{
    cairn_world_def world_def = cairn_world_default_def();
    cairn_world *world = cairn_world_create(&world_def);
    add(world, CAIRN_STATIC, cairn_shape_box((vec3s){{10, 1, 10}}, 0.0f), (vec3s){{0, -1, 0}},
        false);
    /* sensors: a slab from y = 4 to 6, and a column from the floor to y = 5 overlapping it */
    cairn_body_id slab = add(world, CAIRN_STATIC, cairn_shape_box((vec3s){{1, 1, 1}}, 0.0f),
                             (vec3s){{0, 5, 0}}, true);
    add(world, CAIRN_STATIC, cairn_shape_box((vec3s){{1, 2.5f, 1}}, 0.0f), (vec3s){{0, 2.5f, 0}},
        true);
    cairn_body_id ball =
        add(world, CAIRN_DYNAMIC, cairn_shape_sphere(0.5f), (vec3s){{0, 10, 0}}, false);

    for (int step = 1; step <= 120; ++step) {
        cairn_world_step(world, 1.0f / 60.0f);
        cairn_sensor_events events = cairn_world_sensor_events(world);
        for (int i = 0; i < events.begin_count; ++i)
            printf("%.2f s: the ball enters the %s\n", step / 60.0,
                   events.begins[i].sensor.index == slab.index ? "slab" : "column");
        for (int i = 0; i < events.end_count; ++i)
            printf("%.2f s: the ball leaves the %s\n", step / 60.0,
                   events.ends[i].sensor.index == slab.index ? "slab" : "column");
    }
    /* sensors never push: the ball fell through both onto the floor; rays pass through them */
    cairn_ray_hit hit;
    cairn_world_raycast(world, (vec3s){{0, 20, 0}}, (vec3s){{0, -30, 0}}, &hit);
    printf("ball at y = %.2f, the ray hits the ball: %s\n",
           cairn_body_transform(world, ball).position.y,
           hit.body.index == ball.index ? "yes" : "no");

    /* destroying the ball ends its overlap with the column at once */
    cairn_body_destroy(world, ball);
    cairn_sensor_events events = cairn_world_sensor_events(world);
    printf("ends after destroy: %d\n", events.end_count);
    cairn_world_destroy(world);
}
