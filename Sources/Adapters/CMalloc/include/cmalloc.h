#ifndef CMALLOC_H
#define CMALLOC_H

/// glibc's malloc limited to one arena for all threads (mallopt M_ARENA_MAX, which Swift's Glibc
/// module does not declare). Returns mallopt's result: 1 on success.
int cmalloc_single_arena(void);

#endif
