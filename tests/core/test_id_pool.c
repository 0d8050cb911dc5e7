/* id_pool: random alloc/free against a model of generations and a LIFO free list, stale ids,
   the null id, and generation wrap-around. */
#include "core/alloc.h"
#include "core/id_pool.h"

#include <criterion/criterion.h>

enum { OPS = 10000, MAX_SLOTS = OPS };

static uint64_t next_random(uint64_t *state)
{
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 2685821657736338717u;
}

/* The model: what the documented rules (generation 1 first, bump on free, LIFO reuse) predict. */
typedef struct model {
    uint32_t generation[MAX_SLOTS];
    bool alive[MAX_SLOTS];
    uint32_t free_stack[MAX_SLOTS];
    int free_count, slot_count, live_count;
} model;

typedef struct issued {
    uint32_t index, generation;
} issued;

static model m;
static issued history[OPS];

static issued model_alloc(void)
{
    uint32_t index = m.free_count > 0 ? m.free_stack[--m.free_count] : (uint32_t)m.slot_count++;
    if (m.generation[index] == 0)
        m.generation[index] = 1;
    m.alive[index] = true;
    m.live_count++;
    return (issued){index, m.generation[index]};
}

static void model_free(uint32_t index)
{
    m.alive[index] = false;
    m.generation[index] = m.generation[index] == UINT32_MAX ? 1 : m.generation[index] + 1;
    m.free_stack[m.free_count++] = index;
    m.live_count--;
}

static bool model_valid(issued id)
{
    return (int)id.index < m.slot_count && m.alive[id.index] &&
           m.generation[id.index] == id.generation;
}

Test(id_pool, random_sequence_matches_the_model)
{
    size_t start_bytes = cairn_allocated_bytes();
    id_pool pool;
    cr_assert(id_pool_init(&pool, 0));
    int issued_count = 0;
    uint64_t rng = 0xdeadbeefcafef00du;
    for (int op = 0; op < OPS; op++) {
        uint64_t r = next_random(&rng);
        if (r % 100 < 55 || issued_count == 0) {
            issued id;
            cr_assert(id_pool_alloc(&pool, &id.index, &id.generation));
            issued expected = model_alloc();
            cr_assert_eq(id.index, expected.index);
            cr_assert_eq(id.generation, expected.generation);
            history[issued_count++] = id;
        } else {
            /* Any id ever issued, live or stale: free must agree with the model either way. */
            issued id = history[(r >> 20) % (uint64_t)issued_count];
            bool expected = model_valid(id);
            cr_assert_eq(id_pool_free(&pool, id.index, id.generation), expected);
            if (expected)
                model_free(id.index);
        }
        cr_assert_eq(id_pool_count(&pool), m.live_count);
        cr_assert_eq(id_pool_index_bound(&pool), m.slot_count);
    }
    for (int i = 0; i < issued_count; i++)
        cr_assert_eq(id_pool_is_valid(&pool, history[i].index, history[i].generation),
                     model_valid(history[i]), "id %d", i);
    cr_assert_not(id_pool_is_valid(&pool, 0, 0));
    id_pool_destroy(&pool);
    cr_assert_eq(cairn_allocated_bytes(), start_bytes);
}

Test(id_pool, stale_ids_are_invalid_and_double_free_fails)
{
    id_pool pool;
    cr_assert(id_pool_init(&pool, 4));
    uint32_t index, generation;
    cr_assert(id_pool_alloc(&pool, &index, &generation));
    cr_assert(id_pool_is_valid(&pool, index, generation));
    cr_assert(id_pool_free(&pool, index, generation));
    cr_assert_not(id_pool_is_valid(&pool, index, generation), "stale right after free");
    cr_assert_not(id_pool_free(&pool, index, generation), "double free");
    /* The generation the slot will hand out next is not valid before it is handed out. */
    cr_assert_not(id_pool_is_valid(&pool, index, id_generation_next(generation)));
    cr_assert_not(id_pool_free(&pool, index, id_generation_next(generation)));
    cr_assert_neq(cairn_last_error()[0], '\0');

    uint32_t index2, generation2;
    cr_assert(id_pool_alloc(&pool, &index2, &generation2));
    cr_assert_eq(index2, index, "LIFO: the freed slot comes back first");
    cr_assert_neq(generation2, generation);
    cr_assert_not(id_pool_is_valid(&pool, index, generation), "still stale after reuse");
    cr_assert_not(id_pool_free(&pool, index, generation));
    cr_assert(id_pool_is_valid(&pool, index2, generation2), "a stale free left the new id alone");
    cr_assert_eq(id_pool_count(&pool), 1);
    id_pool_destroy(&pool);
}

Test(id_pool, the_null_id_is_never_valid)
{
    id_pool pool;
    cr_assert(id_pool_init(&pool, 0));
    cr_assert_not(id_pool_is_valid(&pool, 0, 0));
    for (int i = 0; i < 100; i++) {
        uint32_t index, generation;
        cr_assert(id_pool_alloc(&pool, &index, &generation));
        cr_assert_neq(generation, 0);
        cr_assert_not(id_pool_is_valid(&pool, 0, 0));
        cr_assert_not(id_pool_is_valid(&pool, index, 0));
    }
    cr_assert_not(id_pool_free(&pool, 0, 0));
    cr_assert_not(id_pool_free(&pool, UINT32_MAX, 1), "out-of-range index");
    cr_assert_not(id_pool_is_valid(&pool, 100, 1), "never handed out");
    cr_assert_eq(id_pool_count(&pool), 100);
    id_pool_destroy(&pool);
}

Test(id_pool, ids_of_70k_reuses_of_one_slot_are_all_stale)
{
    enum { REUSES = 70000 };
    static issued old[REUSES];
    id_pool pool;
    cr_assert(id_pool_init(&pool, 1));
    for (int i = 0; i < REUSES; i++) {
        cr_assert(id_pool_alloc(&pool, &old[i].index, &old[i].generation));
        cr_assert_eq(old[i].index, 0, "a single live id always reuses slot 0");
        cr_assert(id_pool_free(&pool, old[i].index, old[i].generation));
    }
    uint32_t index, generation;
    cr_assert(id_pool_alloc(&pool, &index, &generation));
    for (int i = 0; i < REUSES; i++) {
        cr_assert_not(id_pool_is_valid(&pool, old[i].index, old[i].generation), "reuse %d", i);
        cr_assert_neq(old[i].generation, generation);
    }
    cr_assert(id_pool_is_valid(&pool, index, generation));
    id_pool_destroy(&pool);
}

Test(id_pool, generation_wrap_skips_zero)
{
    cr_assert_eq(id_generation_next(1), 2);
    cr_assert_eq(id_generation_next(UINT32_MAX), 1);

    id_pool pool;
    cr_assert(id_pool_init(&pool, 1));
    uint32_t index, generation;
    cr_assert(id_pool_alloc(&pool, &index, &generation));
    cr_assert(id_pool_free(&pool, index, generation));
    /* Fast-forward the free slot to just before the wrap instead of 4 billion reuses. */
    pool.slots.data[index].generation = UINT32_MAX - 1;

    issued seen[4];
    for (int i = 0; i < 4; i++) {
        cr_assert(id_pool_alloc(&pool, &seen[i].index, &seen[i].generation));
        cr_assert_neq(seen[i].generation, 0);
        cr_assert_not(id_pool_is_valid(&pool, index, 0));
        cr_assert(id_pool_free(&pool, seen[i].index, seen[i].generation));
    }
    cr_assert_eq(seen[0].generation, UINT32_MAX - 1);
    cr_assert_eq(seen[1].generation, UINT32_MAX);
    cr_assert_eq(seen[2].generation, 1, "0 is skipped on wrap");
    cr_assert_eq(seen[3].generation, 2);
    for (int i = 0; i < 4; i++)
        cr_assert_not(id_pool_is_valid(&pool, seen[i].index, seen[i].generation));
    cr_assert_not(id_pool_is_valid(&pool, 0, 0));
    id_pool_destroy(&pool);
}
