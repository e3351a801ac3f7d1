// Counts allocation calls without LD_PRELOAD: the executable defines the allocation functions itself, and
// since the dynamic linker looks symbols up in the executable first, every library of the process (the
// Swift runtime included) calls these. Each forwards to glibc's own entry point (__libc_malloc & co.),
// so memory still comes from, and goes back through `free` to, the same glibc allocator; `free` is not
// replaced. Counting is off unless started, so the timed loops pay one relaxed load per allocation.

#define _GNU_SOURCE
#include "MallocCounter.h"

#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);

static atomic_int counting;
static atomic_uint_fast64_t calls;

static inline void count_one(void) {
    if (atomic_load_explicit(&counting, memory_order_relaxed)) {
        atomic_fetch_add_explicit(&calls, 1, memory_order_relaxed);
    }
}

void malloc_counter_start(void) {
    atomic_store(&calls, 0);
    atomic_store(&counting, 1);
}

uint64_t malloc_counter_stop(void) {
    atomic_store(&counting, 0);
    return atomic_load(&calls);
}

void *malloc(size_t size) {
    count_one();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    count_one();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    count_one();
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    count_one();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count_one();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    count_one();
    void *memory = __libc_memalign(alignment, size);
    if (memory == NULL) return ENOMEM;
    *result = memory;
    return 0;
}

void *valloc(size_t size) {
    count_one();
    return __libc_valloc(size);
}
