/* stat-based modification polling. */
#define _POSIX_C_SOURCE 200809L
#include "file_watch.h"

#include <stdio.h>
#include <sys/stat.h>

static void read_time(const char *path, long long *seconds, long long *nanoseconds)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        *seconds = *nanoseconds = -1;
        return;
    }
    *seconds = (long long)st.st_mtim.tv_sec;
    *nanoseconds = (long long)st.st_mtim.tv_nsec;
}

void file_watch_start(file_watch *w, const char *path)
{
    *w = (file_watch){.active = path != NULL};
    if (path) {
        snprintf(w->path, sizeof w->path, "%s", path);
        read_time(path, &w->seconds, &w->nanoseconds);
    }
}

bool file_watch_changed(file_watch *w)
{
    if (!w->active) {
        return false;
    }
    long long s, ns;
    read_time(w->path, &s, &ns);
    if (s == w->seconds && ns == w->nanoseconds) {
        return false;
    }
    w->seconds = s;
    w->nanoseconds = ns;
    return true;
}
