/* Noticing that a file was saved: its modification time polled with stat (portable; no
   inotify), cheap enough to do a few times a second. */
#ifndef CAIRN_DEMO_FILE_WATCH_H
#define CAIRN_DEMO_FILE_WATCH_H

#include <stdbool.h>

typedef struct file_watch {
    char path[1024];
    long long seconds, nanoseconds; /* last seen modification time; -1 when missing */
    bool active;
} file_watch;

/* Starts watching path (NULL: an inactive watch that never fires). */
void file_watch_start(file_watch *w, const char *path);
/* True once per change of the modification time (or of the file's existence). */
bool file_watch_changed(file_watch *w);

#endif
