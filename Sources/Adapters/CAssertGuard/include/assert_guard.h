#ifndef WEARBRIDGE_ASSERT_GUARD_H
#define WEARBRIDGE_ASSERT_GUARD_H

#include <stddef.h>

/// Runs `body(context)`. An `assert()` that fails inside it, on this thread, does not abort the
/// process: control comes back here, what the frames in between held is leaked, and the
/// assertion's text is written to `message`. Returns 0 when `body` returned, 1 when it asserted.
///
/// For a third-party parser whose own invariant checks are reachable from bad input (toml++,
/// inside TOMLKit): bad input must be an error, not an abort. Nothing but that parser's code may
/// run inside `body`: whatever it holds (locks, reference counts) is abandoned when it asserts.
int wb_run_guarded(void (*_Nonnull body)(void *_Nullable), void *_Nullable context, char *_Nonnull message,
                   size_t capacity);

#endif
