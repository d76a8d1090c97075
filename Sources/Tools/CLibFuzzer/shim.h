// libFuzzer's driver (compiler-rt), linked by -sanitize=fuzzer: wearbridge-fuzz's own entry point
// hands it the arguments, since SwiftPM names an executable's main itself.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));
