/* The scene catalogue: the *.yaml files of the scene directory in name order, for next /
   previous and the scene list overlay. */
#ifndef CAIRN_DEMO_SCENE_LIST_H
#define CAIRN_DEMO_SCENE_LIST_H

#include <stdbool.h>
#include <stddef.h>

#define SCENE_LIST_MAX 128

typedef struct scene_list {
    char dir[512];
    char names[SCENE_LIST_MAX][128]; /* file names, sorted */
    int count;
} scene_list;

/* Reads dir (missing or empty: count 0). */
void scene_list_read(scene_list *list, const char *dir);
/* Index of the file that path names (compared by file name), -1 when not listed. */
int scene_list_find(const scene_list *list, const char *path);
/* The path of entry (index wrapped into range) into out. False when the list is empty. */
bool scene_list_path(const scene_list *list, int index, char *out, size_t capacity);
/* The list as text, one name a line, the current one marked. */
void scene_list_format(const scene_list *list, int current, char *out, size_t capacity);

#endif
