// glibc's assert() calls __assert_fail; this definition in the executable takes its place for every
// caller. Outside wb_run_guarded it does what glibc's does (the same message, then abort), so
// other libraries' assertions are unchanged; inside, it returns to the guard instead.
#define _GNU_SOURCE
#include "assert_guard.h"

#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct wb_guard {
    jmp_buf jump;
    char *message;
    size_t capacity;
};

static _Thread_local struct wb_guard *current_guard;

void __assert_fail(const char *assertion, const char *file, unsigned int line, const char *function)
    __attribute__((noreturn));

void __assert_fail(const char *assertion, const char *file, unsigned int line, const char *function) {
    struct wb_guard *guard = current_guard;
    if (guard != NULL) {
        current_guard = NULL;
        const char *name = strrchr(file, '/');
        snprintf(guard->message, guard->capacity, "%s:%u: %s: assertion `%s' failed", name != NULL ? name + 1 : file,
                 line, function != NULL ? function : "?", assertion);
        longjmp(guard->jump, 1);
    }
    fprintf(stderr, "%s: %s:%u: %s%sAssertion `%s' failed.\n", program_invocation_short_name, file, line,
            function != NULL ? function : "", function != NULL ? ": " : "", assertion);
    fflush(stderr);
    abort();
}

int wb_run_guarded(void (*body)(void *), void *context, char *message, size_t capacity) {
    struct wb_guard guard = {.message = message, .capacity = capacity};
    struct wb_guard *volatile outer = current_guard;
    if (capacity > 0) {
        message[0] = '\0';
    }
    if (setjmp(guard.jump) != 0) {
        current_guard = outer;
        return 1;
    }
    current_guard = &guard;
    body(context);
    current_guard = outer;
    return 0;
}
