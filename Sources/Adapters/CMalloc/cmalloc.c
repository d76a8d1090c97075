#include <malloc.h>

#include "cmalloc.h"

int cmalloc_single_arena(void) { return mallopt(M_ARENA_MAX, 1); }
