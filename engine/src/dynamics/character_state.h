/* A character's state for snapshots (character.c): what it is between two moves. */
#ifndef CAIRN_DYNAMICS_CHARACTER_STATE_H
#define CAIRN_DYNAMICS_CHARACTER_STATE_H

#include <cairn/character.h>

typedef struct character_record {
    vec3s position, velocity;
    cairn_character_ground ground;
} character_record;

/* The world's characters, in the order of its list (newest first). */
int characters_count(const cairn_world *world);
void characters_save(const cairn_world *world, character_record *out);
/* The i-th character of the list takes the record. */
void characters_load_one(cairn_world *world, int i, const character_record *in);

#endif
