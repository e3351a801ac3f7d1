#ifndef MALLOC_COUNTER_H
#define MALLOC_COUNTER_H

#include <stdint.h>

/// Starts counting allocation calls (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign,
/// valloc) made by any thread of the process, from zero.
void malloc_counter_start(void);

/// Stops counting and returns the number of allocation calls made since `malloc_counter_start`.
uint64_t malloc_counter_stop(void);

#endif
