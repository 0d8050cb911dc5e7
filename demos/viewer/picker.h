/* Selecting bodies with the mouse ray (cairn_world_raycast) and dragging one through a soft
   joint: a ball joint with a spring, held to the world at the point under the cursor (public
   API only). */
#ifndef CAIRN_DEMO_PICKER_H
#define CAIRN_DEMO_PICKER_H

#include <cairn/cairn.h>

typedef struct picker {
    cairn_body_id selected; /* null when none */
    cairn_body_id partner;  /* second body of the pair whose GJK query is drawn; may be null */
    bool dragging;
    vec3s local_anchor;       /* the grabbed point in the body's frame */
    float depth;              /* metres from the eye to the grabbed point */
    vec3s target;             /* where the spring pulls the anchor, world */
    cairn_joint_id joint;     /* the drag's joint while dragging */
    const cairn_world *world; /* the world the joint lives in */
} picker;

/* Casts from origin along the unit direction; selects the body hit (nothing hit: clears the
   selection). grab: also starts dragging it (dynamic bodies only). Returns whether a body was hit.
 */
bool picker_select(picker *p, cairn_world *world, vec3s origin, vec3s direction, bool grab);
/* Picks the pair partner; false when the ray hits nothing or the selected body itself. */
bool picker_select_partner(picker *p, const cairn_world *world, vec3s origin, vec3s direction);
/* The cursor moved: the spring's target follows the ray at the grab depth. */
void picker_move(picker *p, vec3s origin, vec3s direction);
void picker_release(picker *p, cairn_world *world);
/* Moves the drag joint's world anchor to the target (call before each cairn_world_step). */
void picker_before_step(picker *p, cairn_world *world, float dt);
/* The anchor in world space, for drawing; false when not dragging. */
bool picker_anchor(const picker *p, const cairn_world *world, vec3s *out);
/* Drops ids that no longer name a body (after a reset or a scene change). */
void picker_validate(picker *p, const cairn_world *world);

#endif
