// espeak-ng's library: speech rendered to PCM in-process (synchronous mode, samples by callback).
#include <espeak-ng/espeak_ng.h>
#include <espeak-ng/speak_lib.h>
