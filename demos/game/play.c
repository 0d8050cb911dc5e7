/* The windowed game: one round at a time drawn by the viewer's renderer, a fixed 60 Hz step
   fed by real time, mouse aiming, and keys for speed, restart and the next level. */
#include "play.h"

#include "aim.h"
#include "game.h"
#include "overlay.h"
#include "renderer.h"
#include "screenshot.h"
#include "shader.h"
#include "window.h"

#include <epoxy/gl.h>
#include <stdio.h>

#define WINDOW_WIDTH  1280
#define WINDOW_HEIGHT 720
#define MAX_FRAME_S   0.25 /* s of real time simulated per frame at most (after a stall) */
#define SPEED_STEP    1.0f /* m/s per key press or wheel step */

typedef struct play {
    window win;
    renderer *renderer;
    overlay *hud; /* the text panel; NULL when its shaders fail: the game still plays */
    camera cam;
    game round;
    int level;
    float speed; /* m/s */
    float mouse_x, mouse_y;
    double lag; /* s of real time not yet simulated */
    bool quit;
} play;

static camera start_camera(void)
{
    camera cam = camera_default();
    cam.target = (vec3s){{0.0f, LEVEL_PLATFORM_TOP + 0.5f, 0.0f}};
    cam.yaw = 0.0f; /* from +Z, behind the launcher */
    cam.pitch = 0.25f;
    cam.distance = 16.0f;
    return cam;
}

/* Replaces the round with a fresh one of p->level; false (message on stderr) on failure. */
static bool start_round(play *p)
{
    renderer_forget_shapes(p->renderer); /* the old world's shapes are about to be freed */
    game_stop(&p->round);
    p->lag = 0.0;
    if (!game_start(&p->round, p->level)) {
        fprintf(stderr, "cairn-game: %s\n", p->round.message);
        return false;
    }
    p->speed = p->round.layout.default_speed;
    return true;
}

static void shoot(play *p)
{
    if (game_over(&p->round)) {
        return; /* the round is frozen: a ball would hang in the air */
    }
    int width, height;
    window_drawable_size(&p->win, &width, &height);
    int window_w, window_h;
    SDL_GetWindowSize(p->win.sdl, &window_w, &window_h);
    /* Mouse positions are in window units; the drawable may be larger on high-DPI screens. */
    float sx = window_w > 0 ? (float)width / (float)window_w : 1.0f;
    float sy = window_h > 0 ? (float)height / (float)window_h : 1.0f;
    vec3s aim = aim_point(p->round.world, &p->cam, p->mouse_x * sx, p->mouse_y * sy, width, height);
    if (!game_shoot(&p->round, aim, p->speed)) {
        fprintf(stderr, "cairn-game: %s\n", p->round.message);
    }
}

static void change_speed(play *p, float delta)
{
    p->speed = glm_clamp(p->speed + delta, LEVEL_MIN_SPEED, LEVEL_MAX_SPEED);
}

/* Keys; false when a new round cannot be built. */
static bool handle_key(play *p, const SDL_KeyboardEvent *key)
{
    switch (key->keysym.sym) {
    case SDLK_ESCAPE:
        p->quit = true;
        return true;
    case SDLK_SPACE:
        if (!key->repeat) {
            shoot(p);
        }
        return true;
    case SDLK_UP:
        change_speed(p, SPEED_STEP);
        return true;
    case SDLK_DOWN:
        change_speed(p, -SPEED_STEP);
        return true;
    case SDLK_r:
        return key->repeat || start_round(p);
    case SDLK_n:
        if (key->repeat) {
            return true;
        }
        p->level = p->level % level_count() + 1;
        return start_round(p);
    default:
        return true;
    }
}

static bool handle_event(play *p, const SDL_Event *e)
{
    switch (e->type) {
    case SDL_QUIT:
        p->quit = true;
        return true;
    case SDL_KEYDOWN:
        return handle_key(p, &e->key);
    case SDL_MOUSEMOTION:
        p->mouse_x = (float)e->motion.x;
        p->mouse_y = (float)e->motion.y;
        if (e->motion.state & SDL_BUTTON_RMASK) {
            camera_orbit(&p->cam, (float)e->motion.xrel, (float)e->motion.yrel);
        }
        return true;
    case SDL_MOUSEBUTTONDOWN:
        if (e->button.button == SDL_BUTTON_LEFT) {
            p->mouse_x = (float)e->button.x;
            p->mouse_y = (float)e->button.y;
            shoot(p);
        }
        return true;
    case SDL_MOUSEWHEEL:
        if (SDL_GetModState() & KMOD_SHIFT) {
            change_speed(p, SPEED_STEP * (float)e->wheel.y);
        } else {
            camera_zoom(&p->cam, e->wheel.preciseY);
        }
        return true;
    default:
        return true;
    }
}

static void simulate(play *p, double elapsed)
{
    p->lag += elapsed < MAX_FRAME_S ? elapsed : MAX_FRAME_S;
    while (p->lag >= GAME_DT) {
        p->lag -= GAME_DT;
        if (!game_over(&p->round)) {
            game_step(&p->round);
        }
    }
}

static void draw_hud(play *p, int width, int height)
{
    if (!p->hud) {
        return;
    }
    const game *g = &p->round;
    char text[512];
    int n = snprintf(text, sizeof text,
                     "level %d/%d %s   score %d/%d   shots left %d/%d   speed %.0f m/s   %.0f s\n",
                     p->level, level_count(), g->layout.name, g->score, g->layout.block_count,
                     game_shots_left(g), g->layout.shots, (double)p->speed, (double)game_time(g));
    if (game_over(g)) {
        snprintf(text + n, sizeof text - (size_t)n,
                 "ROUND OVER: %d of %d blocks on the ground.  R again   N next level   Esc quit",
                 g->score, g->layout.block_count);
    } else {
        snprintf(text + n, sizeof text - (size_t)n,
                 "aim with the mouse, left click or Space shoots   Up/Down or Shift+wheel speed\n"
                 "right drag orbits   wheel zooms   R restart   N next level   Esc quit");
    }
    overlay_begin(p->hud, width, height);
    overlay_text(p->hud, OVERLAY_TOP_LEFT, 0, text);
    overlay_end(p->hud);
}

static bool open_view(play *p)
{
    if (!window_open(&p->win, "cairn-game", WINDOW_WIDTH, WINDOW_HEIGHT, true)) {
        return false;
    }
    char shader_dir[1024];
    shader_dir_find(shader_dir, sizeof shader_dir);
    p->renderer = renderer_create(shader_dir);
    p->hud = p->renderer ? overlay_create(shader_dir) : NULL;
    p->cam = start_camera();
    return p->renderer != NULL;
}

static void close_view(play *p)
{
    game_stop(&p->round); /* before the renderer: it may still hold the world's shapes */
    overlay_destroy(p->hud);
    renderer_destroy(p->renderer);
    if (p->win.sdl) {
        window_close(&p->win);
    }
}

static bool frame_loop(play *p, const play_options *opt)
{
    Uint64 last = SDL_GetPerformanceCounter();
    for (int frame = 1; !p->quit; ++frame) {
        SDL_Event e;
        while (SDL_PollEvent(&e)) {
            if (!handle_event(p, &e)) {
                return false;
            }
        }
        Uint64 now = SDL_GetPerformanceCounter();
        simulate(p, (double)(now - last) / (double)SDL_GetPerformanceFrequency());
        last = now;
        int width, height;
        window_drawable_size(&p->win, &width, &height);
        renderer_draw(p->renderer, p->round.world, &p->cam, width, height);
        draw_hud(p, width, height);
        bool last_frame = opt->frames > 0 && frame >= opt->frames;
        /* Read before the swap: afterwards the back buffer's contents are undefined. */
        if (last_frame && opt->screenshot &&
            !screenshot_write_png(opt->screenshot, width, height)) {
            return false;
        }
        SDL_GL_SwapWindow(p->win.sdl);
        p->quit = p->quit || last_frame;
    }
    return true;
}

int play_run(const play_options *opt)
{
    play p = {.level = opt->level};
    bool ok = open_view(&p) && start_round(&p) && frame_loop(&p, opt);
    close_view(&p);
    return ok ? 0 : 1;
}
