/* The windowed game: one round at a time drawn by the viewer's renderer, a fixed 60 Hz step
   fed by real time, mouse aiming (or walking, play_walk.c), and keys for speed, restart and the
   next level. */
#include "play.h"

#include "aim.h"
#include "game.h"
#include "overlay.h"
#include "play_walk.h"
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
    overlay *hud;       /* the text panel; NULL when its shaders fail: the game still plays */
    debug_lines *lines; /* the character's outline; NULL when its shaders fail */
    camera cam;
    game round;
    play_walk walk;     /* the walking level's recording and replay */
    walk_script script; /* --walk: plays instead of the keys, one step per frame */
    bool scripted;
    bool auto_replay; /* --replay */
    int level;
    float speed; /* m/s */
    float mouse_x, mouse_y;
    double lag;   /* s of real time not yet simulated */
    bool walking; /* the round is a walking one */
    bool quit;
} play;

/* From +Z: behind the launcher, or behind the walking character (W walks towards -Z). */
static camera start_camera(const game *round)
{
    camera cam = camera_default();
    cam.target = (vec3s){{0.0f, LEVEL_PLATFORM_TOP + 0.5f, 0.0f}};
    cam.yaw = 0.0f;
    cam.pitch = round->character ? 0.45f : 0.25f;
    cam.distance = round->character ? 9.0f : 16.0f;
    return cam;
}

/* Replaces the round with a fresh one of p->level; false (message on stderr) on failure. */
static bool start_round(play *p)
{
    play_walk_end(&p->walk, p->renderer);
    renderer_forget_shapes(p->renderer); /* the old world's shapes are about to be freed */
    game_stop(&p->round);
    p->lag = 0.0;
    if (!game_start(&p->round, p->level)) {
        fprintf(stderr, "cairn-game: %s\n", p->round.message);
        return false;
    }
    if (p->round.character) {
        play_walk_begin(&p->walk, &p->round, p->scripted ? &p->script : NULL, p->auto_replay);
    }
    bool walking_before = p->walking;
    p->walking = p->round.character != NULL;
    if (p->walking != walking_before) {
        p->cam = start_camera(&p->round);
    }
    p->speed = p->round.layout.default_speed;
    return true;
}

static void shoot(play *p)
{
    if (p->walking || game_over(&p->round)) {
        return; /* nothing to shoot, or the round is frozen: a ball would hang in the air */
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
    if (p->walking && !key->repeat &&
        play_walk_key(&p->walk, &p->round, p->renderer, key->keysym.sym)) {
        return true;
    }
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

/* Real time in fixed steps; a scripted round one step per frame, so that it plays the same
   whatever the frame rate. */
static void simulate(play *p, double elapsed)
{
    p->lag += elapsed < MAX_FRAME_S ? elapsed : MAX_FRAME_S;
    if (p->scripted) {
        p->lag = GAME_DT;
    }
    while (p->lag >= GAME_DT) {
        p->lag -= GAME_DT;
        if (p->walking) {
            play_walk_step(&p->walk, &p->round, &p->cam, p->renderer);
        } else if (!game_over(&p->round)) {
            game_step(&p->round);
        }
    }
}

static void shooting_text(const play *p, char *text, size_t capacity)
{
    const game *g = &p->round;
    int n = snprintf(text, capacity,
                     "level %d/%d %s   score %d/%d   shots left %d/%d   speed %.0f m/s   %.0f s\n",
                     p->level, level_count(), g->layout.name, g->score, g->layout.block_count,
                     game_shots_left(g), g->layout.shots, (double)p->speed, (double)game_time(g));
    if (game_over(g)) {
        snprintf(text + n, capacity - (size_t)n,
                 "ROUND OVER: %d of %d blocks on the ground.  R again   N next level   Esc quit",
                 g->score, g->layout.block_count);
    } else {
        snprintf(text + n, capacity - (size_t)n,
                 "aim with the mouse, left click or Space shoots   Up/Down or Shift+wheel speed\n"
                 "right drag orbits   wheel zooms   R restart   N next level   Esc quit");
    }
}

static void draw_hud(play *p, int width, int height)
{
    if (!p->hud) {
        return;
    }
    const game *g = &p->round;
    char text[512];
    if (p->walking) {
        int n =
            snprintf(text, sizeof text, "level %d/%d %s   score %d/%d   %.0f s\n", p->level,
                     level_count(), g->layout.name, g->score, g->layout.goal, (double)game_time(g));
        play_walk_text(&p->walk, g, text + n, sizeof text - (size_t)n);
    } else {
        shooting_text(p, text, sizeof text);
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
    p->lines = p->renderer ? debug_lines_create(shader_dir) : NULL;
    p->cam = start_camera(&p->round);
    return p->renderer != NULL;
}

static void close_view(play *p)
{
    play_walk_end(&p->walk, p->renderer);
    game_stop(&p->round); /* before the renderer: it may still hold the world's shapes */
    if (p->lines) {
        debug_lines_destroy(p->lines);
    }
    overlay_destroy(p->hud);
    renderer_destroy(p->renderer);
    if (p->win.sdl) {
        window_close(&p->win);
    }
}

/* The round on screen (a walking round's replay while it plays), followed by the camera. */
static void draw_world(play *p, int width, int height)
{
    if (!p->walking) {
        renderer_draw(p->renderer, p->round.world, &p->cam, width, height);
        return;
    }
    play_walk_follow(&p->walk, &p->round, &p->cam);
    const game *shown = play_walk_shown(&p->walk, &p->round);
    renderer_draw(p->renderer, shown->world, &p->cam, width, height);
    play_walk_draw(&p->walk, &p->round, p->lines, p->renderer);
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
        draw_world(p, width, height);
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
    play p = {.level = opt->level, .scripted = opt->walk != NULL, .auto_replay = opt->replay};
    char error[512];
    if (opt->walk && !walk_script_load(opt->walk, &p.script, error, sizeof error)) {
        fprintf(stderr, "cairn-game: %s\n", error);
        return 2;
    }
    bool ok = open_view(&p) && start_round(&p) && frame_loop(&p, opt);
    close_view(&p);
    walk_script_free(&p.script);
    return ok ? 0 : 1;
}
