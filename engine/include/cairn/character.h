/* A character controller: a kinematic upright capsule that a game moves with a desired velocity
   each frame, and that moves and slides along what it meets ("move and slide"), climbs steps,
   keeps off slopes steeper than it may walk, sticks to the ground walking down, rides what it
   stands on and pushes dynamic bodies with a limited force. It is not a body of the world: the
   world's bodies do not see it, it sees them through queries, and the world's other characters
   as obstacles. */
#ifndef CAIRN_CHARACTER_H
#define CAIRN_CHARACTER_H

#include <cairn/query.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cairn_character cairn_character;

typedef struct cairn_character_def {
    vec3s position;       /* the capsule's centre, world, m */
    float half_height;    /* half the segment between the cap centres, m; default 0.5 */
    float radius;         /* m; default 0.3 */
    float max_slope;      /* rad, in (0, pi/2): steeper ground is a wall; default pi/4 */
    float step_height;    /* m, >= 0: steps up to this are climbed; default 0.3 */
    float mass;           /* kg, > 0: how hard it pushes; default 80 */
    float max_push_force; /* N, >= 0: the most it pushes a body with; default 500 */
    uint32_t mask;        /* layers it collides with (cairn_body_def.layer); default all */
    /* The game's own test of the bodies it collides with, as a query filter's (query.h): false
       lets it pass through the body (what it carries, a door it may open); NULL keeps every
       body on its layers. Asked from inside cairn_character_move. */
    cairn_query_body_fn *filter;
    void *filter_context;
} cairn_character_def;

/* Where the character stands after its last move. */
typedef struct cairn_character_ground {
    bool on_ground;     /* standing on walkable ground */
    vec3s normal;       /* the ground's normal (up when not on ground) */
    cairn_body_id body; /* the body stood on (null when not on ground) */
    vec3s velocity;     /* that body's velocity at the contact point, m/s */
} cairn_character_ground;

CAIRN_API cairn_character_def cairn_character_default_def(void);
/* NULL and an error on a NULL world or a bad def (non-finite or out-of-range values). */
CAIRN_API cairn_character *cairn_character_create(cairn_world *world,
                                                  const cairn_character_def *def);
/* Destroy characters before their world (after it, a character can only be destroyed: move
   fails with an error). */
CAIRN_API void cairn_character_destroy(cairn_character *character);
/* Moves by velocity * dt (m/s, world; dt in (0, 1] s), sliding along what it meets. The
   controller does not add gravity: a game adds it to the vertical velocity while the character
   is in the air (cairn_character_velocity + gravity dt), and the slide turns it along slopes:
   on a slope too steep to stand on the character slides down at g sin(slope). False (nothing
   moves) and an error on a NULL character, non-finite velocity, |velocity| > 1e4 or a bad dt. */
CAIRN_API bool cairn_character_move(cairn_character *character, vec3s velocity, float dt);
CAIRN_API vec3s cairn_character_position(const cairn_character *character);
/* Teleports it (|position| <= 1e6 m); no collision on the way. */
CAIRN_API bool cairn_character_set_position(cairn_character *character, vec3s position);
/* Changes the capsule's size (crouching, standing up, a power-up), keeping its lowest point
   where it is, so a character on the ground stays on it. False, and nothing changes, when the
   new capsule would overlap a body it collides with or another character (no room to stand up
   under a low ceiling), with an error saying so; also on a NULL character, a destroyed world,
   or a size cairn_character_create refuses. Snapshots keep the size. */
CAIRN_API bool cairn_character_set_size(cairn_character *character, float half_height,
                                        float radius);
/* Its current half_height and radius (0 for a NULL character). */
CAIRN_API void cairn_character_size(const cairn_character *character, float *half_height,
                                    float *radius);
/* The velocity of its last move: the distance moved over dt (after sliding and riding). */
CAIRN_API vec3s cairn_character_velocity(const cairn_character *character);
CAIRN_API cairn_character_ground cairn_character_ground_state(const cairn_character *character);

#ifdef __cplusplus
}
#endif

#endif
