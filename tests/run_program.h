/* Runs a program of this build with arguments and captures its exit code, standard output and
   standard error, for the end-to-end tests of the command-line tools (cairn-run, cairn-game).
   Static inline so a test file may use any subset; include after defining _POSIX_C_SOURCE. */
#ifndef CAIRN_TESTS_RUN_PROGRAM_H
#define CAIRN_TESTS_RUN_PROGRAM_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct run_result {
    int code;
    char out[8192];
    char err[4096];
} run_result;

static inline void run_read_file(const char *path, char *buffer, size_t capacity)
{
    FILE *f = fopen(path, "r");
    size_t n = f != NULL ? fread(buffer, 1, capacity - 1, f) : 0;
    buffer[n] = '\0';
    if (f != NULL)
        fclose(f);
}

/* `program args` through the shell; the result stays valid until the next call. */
static inline run_result *run_program(const char *program, const char *args)
{
    static run_result result;
    char out_path[128], err_path[128], command[2048];
    snprintf(out_path, sizeof out_path, "/tmp/cairn_test_%d.out", (int)getpid());
    snprintf(err_path, sizeof err_path, "/tmp/cairn_test_%d.err", (int)getpid());
    snprintf(command, sizeof command, "'%s' %s >%s 2>%s", program, args, out_path, err_path);
    int status = system(command);
    cr_assert(WIFEXITED(status), "%s did not exit", command);
    result.code = WEXITSTATUS(status);
    run_read_file(out_path, result.out, sizeof result.out);
    run_read_file(err_path, result.err, sizeof result.err);
    remove(out_path);
    remove(err_path);
    return &result;
}

/* The value after "key: " on its own line of the standard output, or NULL. */
static inline const char *run_summary(const run_result *r, const char *key)
{
    static char value[32]; /* summary values are short: counts, rates, hashes */
    char pattern[64];
    snprintf(pattern, sizeof pattern, "%s: ", key);
    for (const char *line = r->out; line && *line;
         line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        if (strncmp(line, pattern, strlen(pattern)) == 0) {
            const char *start = line + strlen(pattern);
            snprintf(value, sizeof value, "%.*s", (int)strcspn(start, "\n"), start);
            return value;
        }
    }
    return NULL;
}

#endif
