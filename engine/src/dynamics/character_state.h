/* A character's state for snapshots (character.c): what it is between two moves. */
#ifndef CAIRN_DYNAMICS_CHARACTER_STATE_H
#define CAIRN_DYNAMICS_CHARACTER_STATE_H

#include <cairn/character.h>

typedef struct character_record {
    vec3s position, velocity;
    cairn_character_ground ground;
    float half_height, radius; /* its capsule's size (cairn_character_set_size) */
} character_record;

/* A character's capsules of one size: the capsule itself; a slimmer one for vertical casts
   (steps, the ground: the full one meets the wall it stands against at the start of a cast down
   and never sees the floor), whose bottom is slim_lift higher; and the capsule grown by the skin,
   to find what touches it (de-penetration: a cast that starts in exact contact finds no way
   out). */
typedef struct character_shapes {
    cairn_shape *capsule, *slim, *skin;
    float slim_lift;
} character_shapes;

/* False when memory runs out (out then holds no shapes). */
bool character_shapes_make(float half_height, float radius, character_shapes *out);
void character_shapes_release(character_shapes *shapes);
/* Whether a capsule size is one cairn_character_create takes; false with an error naming
   `function` otherwise. */
bool character_size_valid(const char *function, float half_height, float radius);

/* The world's characters, in the order of its list (newest first). */
int characters_count(const cairn_world *world);
void characters_save(const cairn_world *world, character_record *out);
/* The world's characters in the order of its list: the first (NULL when none) and the next
   (NULL after the last), walked along the records of a snapshot. */
cairn_character *characters_first(const cairn_world *world);
cairn_character *characters_next(const cairn_character *c);
/* Whether the character has the record's size already. */
bool characters_same_size(const cairn_character *c, const character_record *in);
/* The character takes the record; shapes (made for the record's size, or empty when
   characters_same_size) replaces its capsules, its old ones released. */
void characters_load_one(cairn_character *c, const character_record *in, character_shapes *shapes);

#endif
