#ifndef CSPAWN_H
#define CSPAWN_H

#include <spawn.h>

/// A pipe whose ends close on exec from the start (pipe2 with O_CLOEXEC): no window in which a
/// child started by another thread inherits them.
int cspawn_pipe_cloexec(int fds[2]);

/// posix_spawn's file action that closes every descriptor from `from` on in the child (glibc 2.34
/// and later; declared only with _GNU_SOURCE, which Swift's Glibc module does not define).
int cspawn_addclosefrom(posix_spawn_file_actions_t *actions, int from);

#endif
