/* Event handling: left drag orbits (or drags a grabbed body), middle or shift+left drag pans, the
   wheel zooms, WASD flies; keys map to app actions (see input.h). */
#include "input.h"

#define FLY_SPEED 0.6f /* per second, as a fraction of the orbit distance (so it scales) */

static void handle_motion(const SDL_MouseMotionEvent *m, camera *cam, int viewport_height,
                          const input_state *state, input_frame *frame)
{
    bool left = (m->state & SDL_BUTTON_LMASK) != 0;
    bool middle = (m->state & SDL_BUTTON_MMASK) != 0;
    bool shift = (SDL_GetModState() & KMOD_SHIFT) != 0;
    if (left && state->grabbing) {
        frame->actions |= INPUT_DRAG;
        frame->mouse_x = m->x;
        frame->mouse_y = m->y;
    } else if (middle || (left && shift)) {
        camera_pan(cam, (float)m->xrel, (float)m->yrel, viewport_height);
    } else if (left) {
        camera_orbit(cam, (float)m->xrel, (float)m->yrel);
    }
}

static void handle_button(const SDL_MouseButtonEvent *b, input_frame *frame)
{
    SDL_Keymod mods = SDL_GetModState();
    frame->mouse_x = b->x;
    frame->mouse_y = b->y;
    if (b->type == SDL_MOUSEBUTTONUP) {
        frame->actions |= b->button == SDL_BUTTON_LEFT ? INPUT_RELEASE : 0u;
    } else if (b->button == SDL_BUTTON_RIGHT) {
        frame->actions |= INPUT_SHOOT_BOX | INPUT_AIM;
    } else if (b->button == SDL_BUTTON_LEFT && (mods & KMOD_CTRL)) {
        frame->actions |= INPUT_PICK_PARTNER;
    } else if (b->button == SDL_BUTTON_LEFT && !(mods & KMOD_SHIFT)) {
        frame->actions |= INPUT_PICK;
    }
}

static tune_action tune_key(SDL_Keycode key, bool shift)
{
    switch (key) {
    case SDLK_i:
        return shift ? TUNE_ITERATIONS_DOWN : TUNE_ITERATIONS_UP;
    case SDLK_u:
        return shift ? TUNE_SUBSTEPS_DOWN : TUNE_SUBSTEPS_UP;
    case SDLK_c:
        return TUNE_CORRECTION;
    case SDLK_h:
        return TUNE_WARM_STARTING;
    case SDLK_x:
        return TUNE_SIMPLEX_CACHING;
    default:
        return TUNE_NONE;
    }
}

static unsigned key_action(SDL_Keycode key, bool shift, bool ctrl)
{
    switch (key) {
    case SDLK_ESCAPE:
        return INPUT_QUIT;
    case SDLK_p:
        return INPUT_PAUSE;
    case SDLK_r:
        return INPUT_RESET;
    case SDLK_SPACE:
        return INPUT_SHOOT;
    case SDLK_b:
        return INPUT_SHOOT_BOX;
    case SDLK_LEFTBRACKET:
        return INPUT_SLOWER;
    case SDLK_RIGHTBRACKET:
        return INPUT_FASTER;
    case SDLK_n:
        return shift ? INPUT_PREV_SCENE : INPUT_NEXT_SCENE;
    case SDLK_TAB:
        return INPUT_SCENE_LIST;
    case SDLK_s:
        return ctrl ? INPUT_SCREENSHOT : 0u;
    case SDLK_F1:
        return INPUT_HELP;
    case SDLK_g:
        return INPUT_GRAPH;
    case SDLK_F5:
        return INPUT_SAVE_STATE;
    case SDLK_k:
        return INPUT_CHARACTER;
    case SDLK_t:
        return shift ? INPUT_FEWER_THREADS : INPUT_MORE_THREADS;
    case SDLK_F9:
        return INPUT_LOAD_STATE;
    default:
        return 0u;
    }
}

uint32_t input_layer_of_key(char key)
{
    if (key == 'j' || key == 'J')
        return CAIRN_DEBUG_DRAW_JOINTS;
    if (key == 'v' || key == 'V')
        return CAIRN_DEBUG_DRAW_MESH_BVH;
    if (key == 'l' || key == 'L')
        return CAIRN_DEBUG_DRAW_MESH_EDGES;
    if (key == '9')
        return LAYER_PAIR;
    return key >= '1' && key <= '8' ? 1u << (key - '1') : 0u;
}

static void handle_key(const SDL_KeyboardEvent *key, input_frame *frame)
{
    SDL_Keycode k = key->keysym.sym;
    bool shift = (key->keysym.mod & KMOD_SHIFT) != 0, ctrl = (key->keysym.mod & KMOD_CTRL) != 0;
    if (k == SDLK_o) {
        frame->actions |= INPUT_STEP; /* held down: keeps stepping at the key repeat rate */
        return;
    }
    if (k == SDLK_BACKSPACE) {
        frame->actions |= INPUT_STEP_BACK; /* held down: keeps stepping back */
        return;
    }
    if (key->repeat) {
        return;
    }
    if (k >= SDLK_1 && k <= SDLK_9) {
        frame->layer_toggles ^= input_layer_of_key((char)('1' + k - SDLK_1));
    } else if (k == SDLK_j || k == SDLK_v || k == SDLK_l) {
        frame->layer_toggles ^= input_layer_of_key((char)k); /* SDL letter keys are ASCII */
    } else if (k == SDLK_0) {
        frame->layers_off = true;
    }
    frame->actions |= key_action(k, shift, ctrl);
    tune_action t = tune_key(k, shift);
    int capacity = (int)(sizeof frame->tune / sizeof frame->tune[0]);
    if (t != TUNE_NONE && frame->tune_count < capacity) {
        frame->tune[frame->tune_count++] = t;
    }
}

void input_handle(const SDL_Event *event, camera *cam, int viewport_height,
                  const input_state *state, input_frame *frame)
{
    switch (event->type) {
    case SDL_QUIT:
        frame->actions |= INPUT_QUIT;
        break;
    case SDL_KEYDOWN:
        handle_key(&event->key, frame);
        break;
    case SDL_MOUSEMOTION:
        handle_motion(&event->motion, cam, viewport_height, state, frame);
        break;
    case SDL_MOUSEBUTTONDOWN:
    case SDL_MOUSEBUTTONUP:
        handle_button(&event->button, frame);
        break;
    case SDL_MOUSEWHEEL:
        camera_zoom(cam, event->wheel.preciseY);
        break;
    default:
        break;
    }
}

void input_fly(camera *cam, double seconds)
{
    const Uint8 *keys = SDL_GetKeyboardState(NULL);
    SDL_Keymod mods = SDL_GetModState();
    if (mods & KMOD_CTRL) {
        return; /* Ctrl+S is the screenshot, not a step back */
    }
    float forward = (float)(keys[SDL_SCANCODE_W] - keys[SDL_SCANCODE_S]);
    float right = (float)(keys[SDL_SCANCODE_D] - keys[SDL_SCANCODE_A]);
    float up = (float)(keys[SDL_SCANCODE_E] - keys[SDL_SCANCODE_Q]);
    float speed = FLY_SPEED * cam->distance * (float)seconds * ((mods & KMOD_SHIFT) ? 3.0f : 1.0f);
    if (forward != 0.0f || right != 0.0f || up != 0.0f) {
        camera_fly(cam, forward * speed, right * speed, up * speed);
    }
}
