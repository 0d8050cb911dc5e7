/* The thread tests without Criterion, for ThreadSanitizer (Criterion cannot start under it):
   every scene of thread_scenes.h for a few steps on 1, 2 and 4 workers, which must agree. Exits
   1 on a difference; ThreadSanitizer itself fails the run on a data race. */
#include "threads/thread_scenes.h"

#include <inttypes.h>

int main(void)
{
    int failures = 0;
    for (int i = 0; i < THREAD_SCENE_COUNT; ++i) {
        const thread_scene *scene = &thread_scenes[i];
        int steps = scene->action ? scene->steps : 20; /* the woken stacks need all theirs */
        uint64_t one = 0, other = 0;
        if (!thread_scene_hash(scene, steps, 1, &one))
            return 1;
        const int counts[] = {2, 4};
        for (int k = 0; k < 2; ++k) {
            if (!thread_scene_hash(scene, steps, counts[k], &other))
                return 1;
            bool same = one == other;
            failures += !same;
            printf("%s, %d steps, %d workers: %016" PRIx64 " %s\n", scene->name, steps, counts[k],
                   other, same ? "as on one" : "DIFFERS from one");
        }
    }
    return failures == 0 ? 0 : 1;
}
