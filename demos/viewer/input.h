/* Mouse and keyboard: camera control directly, everything else as actions for the app. */
#ifndef CAIRN_DEMO_INPUT_H
#define CAIRN_DEMO_INPUT_H

#include "camera.h"
#include "tuning.h"

#include <SDL.h>
#include <stdbool.h>

/* Bits of input_frame.actions. */
enum {
    INPUT_QUIT = 1u << 0,           /* Esc or closing the window */
    INPUT_PAUSE = 1u << 1,          /* P: toggle pause */
    INPUT_STEP = 1u << 2,           /* O: one step while paused (repeats while held) */
    INPUT_RESET = 1u << 3,          /* R: reload the scene from its file */
    INPUT_SHOOT = 1u << 4,          /* Space: fire a sphere from the camera */
    INPUT_SHOOT_BOX = 1u << 5,      /* B: a box from the camera; right click: along the cursor */
    INPUT_SLOWER = 1u << 6,         /* [ */
    INPUT_FASTER = 1u << 7,         /* ] */
    INPUT_NEXT_SCENE = 1u << 8,     /* N */
    INPUT_PREV_SCENE = 1u << 9,     /* Shift+N */
    INPUT_SCENE_LIST = 1u << 10,    /* Tab: toggle the scene list */
    INPUT_SCREENSHOT = 1u << 11,    /* Ctrl+S */
    INPUT_HELP = 1u << 12,          /* F1 */
    INPUT_PICK = 1u << 13,          /* left press: select and grab at the cursor */
    INPUT_PICK_PARTNER = 1u << 14,  /* Ctrl+left press: second body of the GJK pair view */
    INPUT_RELEASE = 1u << 15,       /* left release */
    INPUT_DRAG = 1u << 16,          /* cursor moved while grabbing */
    INPUT_GRAPH = 1u << 17,         /* G: toggle the stats graph and tuning panel */
    INPUT_AIM = 1u << 18,           /* with INPUT_SHOOT_BOX: along the cursor, not the view */
    INPUT_SAVE_STATE = 1u << 19,    /* F5: keep a snapshot */
    INPUT_LOAD_STATE = 1u << 20,    /* F9: back to it */
    INPUT_STEP_BACK = 1u << 21,     /* Backspace: one step back (repeats while held) */
    INPUT_CHARACTER = 1u << 22,     /* K: character mode on or off */
    INPUT_MORE_THREADS = 1u << 23,  /* T: one more worker */
    INPUT_FEWER_THREADS = 1u << 24, /* Shift+T: one fewer */
};

/* What one frame of events asks for. */
typedef struct input_frame {
    unsigned actions;
    uint32_t layer_toggles; /* bits of debug layers whose key was pressed (see input.c) */
    bool layers_off;        /* 0: every layer off */
    tune_action tune[8];    /* in key order; several keys may arrive in one frame */
    int tune_count;
    int mouse_x, mouse_y; /* cursor of the last pick, drag or aimed shot */
} input_frame;

/* Whether a left drag moves a grabbed body (set by the app after a successful grab) instead of
   orbiting. */
typedef struct input_state {
    bool grabbing;
} input_state;

/* Applies one event to the camera and adds what it asks for to *frame. */
void input_handle(const SDL_Event *event, camera *cam, int viewport_height,
                  const input_state *state, input_frame *frame);
/* WASD fly (Q down, E up; Shift faster) from the keys held now, for `seconds` of motion. */
void input_fly(camera *cam, double seconds);

/* Debug layer bits: the engine's flags (keys 1-8, J joints, V mesh BVH, L mesh edges), and
   viewer-only layers in the top bits, clear of the engine's. */
#define LAYER_PAIR (1u << 31) /* 9: the GJK view of the selected pair */

/* The layer a key toggles (1-9, J, V, L), 0 for other keys. */
uint32_t input_layer_of_key(char key);

#endif
