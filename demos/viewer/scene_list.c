/* Scene catalogue from a directory listing (POSIX opendir). */
#include "scene_list.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_yaml(const char *name)
{
    size_t n = strlen(name);
    return n > 5 && strcmp(name + n - 5, ".yaml") == 0 && name[0] != '.';
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(a, b);
}

void scene_list_read(scene_list *list, const char *dir)
{
    list->count = 0;
    snprintf(list->dir, sizeof list->dir, "%s", dir);
    DIR *d = opendir(dir);
    if (!d) {
        return;
    }
    struct dirent *entry;
    while ((entry = readdir(d)) != NULL && list->count < SCENE_LIST_MAX) {
        size_t n = strlen(entry->d_name);
        if (is_yaml(entry->d_name) && n < sizeof list->names[0]) {
            memcpy(list->names[list->count++], entry->d_name, n + 1);
        }
    }
    closedir(d);
    qsort(list->names, (size_t)list->count, sizeof list->names[0], compare_names);
}

int scene_list_find(const scene_list *list, const char *path)
{
    const char *slash = path ? strrchr(path, '/') : NULL;
    const char *name = slash ? slash + 1 : path;
    for (int i = 0; name && i < list->count; ++i) {
        if (strcmp(list->names[i], name) == 0) {
            return i;
        }
    }
    return -1;
}

bool scene_list_path(const scene_list *list, int index, char *out, size_t capacity)
{
    if (list->count == 0) {
        return false;
    }
    int i = ((index % list->count) + list->count) % list->count;
    snprintf(out, capacity, "%s/%s", list->dir, list->names[i]);
    return true;
}

void scene_list_format(const scene_list *list, int current, char *out, size_t capacity)
{
    size_t used = (size_t)snprintf(out, capacity, "Scenes (N next, Shift+N previous)\n");
    for (int i = 0; i < list->count && used < capacity; ++i) {
        used += (size_t)snprintf(out + used, capacity - used, "%s %s\n", i == current ? ">" : " ",
                                 list->names[i]);
    }
}
