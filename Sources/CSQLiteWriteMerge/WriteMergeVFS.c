// A VFS shim that turns SQLite's two writes per WAL frame into one.
//
// SQLite's WAL writer (walWriteOneFrame) writes a frame's 24-byte header at offset X, then its page at
// X + 24: two pwrite calls, each a system call of a few microseconds, for every page of every commit.
// For files opened as WALs, this shim holds back a write of at most HELD_CAPACITY bytes; if the next
// call on that file is a write that starts where the held bytes end, it writes both with one call.
// Any other call on the file first writes the held bytes, so nothing is reordered past a sync, a read,
// a size query or a lock: durability and crash behaviour stay exactly SQLite's. The held bytes are
// never visible to another connection either: SQLite writes a frame's page right after its header,
// while it holds the WAL write lock and before the WAL index names the frame.
//
// Every other file, and every VFS-level method, passes straight through to the wrapped VFS.

#include "CSQLiteWriteMerge.h"

#include <pthread.h>
#include <sqlite3.h>
#include <string.h>

enum { HELD_CAPACITY = 32 };

typedef struct MergeFile {
    sqlite3_file base;
    // This file's method table: the wrapper's, at the wrapped file's iVersion (at most 3), so SQLite
    // calls only the methods the wrapped file has.
    sqlite3_io_methods methods;
    // The wrapped VFS's file, allocated right after this struct.
    sqlite3_file *real;
    int isWAL;
    int heldAmount;
    sqlite3_int64 heldOffset;
    unsigned char held[HELD_CAPACITY];
    // Held bytes followed by the next write's, for the merged call; grows to the largest merge.
    unsigned char *merged;
    sqlite3_int64 mergedCapacity;
} MergeFile;

// Writes the held bytes, if any. They are dropped whatever the outcome: a failed write is reported to
// SQLite by the call that flushed, and a transaction whose write failed never commits.
static int flushHeld(MergeFile *file) {
    if (file->heldAmount == 0) return SQLITE_OK;
    int amount = file->heldAmount;
    file->heldAmount = 0;
    return file->real->pMethods->xWrite(file->real, file->held, amount, file->heldOffset);
}

static int mergeClose(sqlite3_file *base) {
    MergeFile *file = (MergeFile *)base;
    int flushed = flushHeld(file);
    int closed = file->real->pMethods->xClose(file->real);
    sqlite3_free(file->merged);
    file->merged = NULL;
    file->mergedCapacity = 0;
    return flushed != SQLITE_OK ? flushed : closed;
}

static int mergeRead(sqlite3_file *base, void *buffer, int amount, sqlite3_int64 offset) {
    MergeFile *file = (MergeFile *)base;
    int rc = flushHeld(file);
    if (rc != SQLITE_OK) return rc;
    return file->real->pMethods->xRead(file->real, buffer, amount, offset);
}

// Writes the held bytes and `amount` bytes of `data` that follow them with one call, or returns
// SQLITE_NOMEM (holding nothing back) when the buffer for that could not grow.
static int writeMerged(MergeFile *file, const void *data, int amount) {
    sqlite3_int64 total = (sqlite3_int64)file->heldAmount + amount;
    if (total > file->mergedCapacity) {
        unsigned char *grown = sqlite3_realloc64(file->merged, (sqlite3_uint64)total);
        if (grown == NULL) return SQLITE_NOMEM;
        file->merged = grown;
        file->mergedCapacity = total;
    }
    memcpy(file->merged, file->held, (size_t)file->heldAmount);
    memcpy(file->merged + file->heldAmount, data, (size_t)amount);
    sqlite3_int64 offset = file->heldOffset;
    file->heldAmount = 0;
    return file->real->pMethods->xWrite(file->real, file->merged, (int)total, offset);
}

static int mergeWrite(sqlite3_file *base, const void *data, int amount, sqlite3_int64 offset) {
    MergeFile *file = (MergeFile *)base;
    if (file->heldAmount > 0) {
        if (amount > HELD_CAPACITY && offset == file->heldOffset + file->heldAmount && amount <= 0x7fffffff - file->heldAmount) {
            int rc = writeMerged(file, data, amount);
            if (rc != SQLITE_NOMEM) return rc;
            // Out of memory for the merge: write the two pieces as SQLite asked, below.
        }
        int rc = flushHeld(file);
        if (rc != SQLITE_OK) return rc;
    }
    if (file->isWAL && amount > 0 && amount <= HELD_CAPACITY) {
        memcpy(file->held, data, (size_t)amount);
        file->heldAmount = amount;
        file->heldOffset = offset;
        return SQLITE_OK;
    }
    return file->real->pMethods->xWrite(file->real, data, amount, offset);
}

static int mergeTruncate(sqlite3_file *base, sqlite3_int64 size) {
    MergeFile *file = (MergeFile *)base;
    int rc = flushHeld(file);
    if (rc != SQLITE_OK) return rc;
    return file->real->pMethods->xTruncate(file->real, size);
}

static int mergeSync(sqlite3_file *base, int flags) {
    MergeFile *file = (MergeFile *)base;
    int rc = flushHeld(file);
    if (rc != SQLITE_OK) return rc;
    return file->real->pMethods->xSync(file->real, flags);
}

static int mergeFileSize(sqlite3_file *base, sqlite3_int64 *size) {
    MergeFile *file = (MergeFile *)base;
    int rc = flushHeld(file);
    if (rc != SQLITE_OK) return rc;
    return file->real->pMethods->xFileSize(file->real, size);
}

static int mergeLock(sqlite3_file *base, int level) {
    MergeFile *file = (MergeFile *)base;
    int rc = flushHeld(file);
    if (rc != SQLITE_OK) return rc;
    return file->real->pMethods->xLock(file->real, level);
}

static int mergeUnlock(sqlite3_file *base, int level) {
    MergeFile *file = (MergeFile *)base;
    int rc = flushHeld(file);
    if (rc != SQLITE_OK) return rc;
    return file->real->pMethods->xUnlock(file->real, level);
}

static int mergeCheckReservedLock(sqlite3_file *base, int *isReserved) {
    MergeFile *file = (MergeFile *)base;
    int rc = flushHeld(file);
    if (rc != SQLITE_OK) return rc;
    return file->real->pMethods->xCheckReservedLock(file->real, isReserved);
}

static int mergeFileControl(sqlite3_file *base, int op, void *argument) {
    MergeFile *file = (MergeFile *)base;
    int rc = flushHeld(file);
    if (rc != SQLITE_OK) return rc;
    return file->real->pMethods->xFileControl(file->real, op, argument);
}

static int mergeSectorSize(sqlite3_file *base) {
    MergeFile *file = (MergeFile *)base;
    // The method cannot report an error; a failed flush surfaces as the next write's or sync's
    // failure in practice, because SQLite never asks a WAL for its sector size between the two writes.
    (void)flushHeld(file);
    return file->real->pMethods->xSectorSize(file->real);
}

static int mergeDeviceCharacteristics(sqlite3_file *base) {
    MergeFile *file = (MergeFile *)base;
    (void)flushHeld(file); // As in mergeSectorSize: the method has no way to report a failure.
    return file->real->pMethods->xDeviceCharacteristics(file->real);
}

static int mergeShmMap(sqlite3_file *base, int region, int size, int extend, void volatile **memory) {
    MergeFile *file = (MergeFile *)base;
    int rc = flushHeld(file);
    if (rc != SQLITE_OK) return rc;
    return file->real->pMethods->xShmMap(file->real, region, size, extend, memory);
}

static int mergeShmLock(sqlite3_file *base, int offset, int count, int flags) {
    MergeFile *file = (MergeFile *)base;
    int rc = flushHeld(file);
    if (rc != SQLITE_OK) return rc;
    return file->real->pMethods->xShmLock(file->real, offset, count, flags);
}

static void mergeShmBarrier(sqlite3_file *base) {
    MergeFile *file = (MergeFile *)base;
    (void)flushHeld(file); // As in mergeSectorSize: the method has no way to report a failure.
    file->real->pMethods->xShmBarrier(file->real);
}

static int mergeShmUnmap(sqlite3_file *base, int deleteFlag) {
    MergeFile *file = (MergeFile *)base;
    int rc = flushHeld(file);
    if (rc != SQLITE_OK) return rc;
    return file->real->pMethods->xShmUnmap(file->real, deleteFlag);
}

static int mergeFetch(sqlite3_file *base, sqlite3_int64 offset, int amount, void **pages) {
    MergeFile *file = (MergeFile *)base;
    int rc = flushHeld(file);
    if (rc != SQLITE_OK) return rc;
    return file->real->pMethods->xFetch(file->real, offset, amount, pages);
}

static int mergeUnfetch(sqlite3_file *base, sqlite3_int64 offset, void *page) {
    MergeFile *file = (MergeFile *)base;
    int rc = flushHeld(file);
    if (rc != SQLITE_OK) return rc;
    return file->real->pMethods->xUnfetch(file->real, offset, page);
}

static const sqlite3_io_methods mergeMethods = {
    3,
    mergeClose,
    mergeRead,
    mergeWrite,
    mergeTruncate,
    mergeSync,
    mergeFileSize,
    mergeLock,
    mergeUnlock,
    mergeCheckReservedLock,
    mergeFileControl,
    mergeSectorSize,
    mergeDeviceCharacteristics,
    mergeShmMap,
    mergeShmLock,
    mergeShmBarrier,
    mergeShmUnmap,
    mergeFetch,
    mergeUnfetch,
};

// The wrapped VFS, kept in the wrapper's pAppData.
static sqlite3_vfs *wrapped(sqlite3_vfs *vfs) { return (sqlite3_vfs *)vfs->pAppData; }

// The wrapped file follows MergeFile, at an offset rounded up to 8 bytes so it stays aligned.
static const int mergeFileHeader = (int)((sizeof(MergeFile) + 7) & ~(size_t)7);

static int mergeOpen(sqlite3_vfs *vfs, const char *name, sqlite3_file *base, int flags, int *outFlags) {
    MergeFile *file = (MergeFile *)base;
    memset(file, 0, sizeof(MergeFile));
    file->real = (sqlite3_file *)((unsigned char *)file + mergeFileHeader);
    file->isWAL = (flags & SQLITE_OPEN_WAL) != 0;
    sqlite3_vfs *real = wrapped(vfs);
    int rc = real->xOpen(real, name, file->real, flags, outFlags);
    // SQLite calls xClose only on a file whose pMethods is set, so follow the wrapped VFS's lead.
    if (file->real->pMethods != NULL) {
        file->methods = mergeMethods;
        if (file->real->pMethods->iVersion < file->methods.iVersion) {
            file->methods.iVersion = file->real->pMethods->iVersion;
        }
        file->base.pMethods = &file->methods;
    } else {
        file->base.pMethods = NULL;
    }
    return rc;
}

static int mergeDelete(sqlite3_vfs *vfs, const char *name, int syncDirectory) {
    return wrapped(vfs)->xDelete(wrapped(vfs), name, syncDirectory);
}

static int mergeAccess(sqlite3_vfs *vfs, const char *name, int flags, int *result) {
    return wrapped(vfs)->xAccess(wrapped(vfs), name, flags, result);
}

static int mergeFullPathname(sqlite3_vfs *vfs, const char *name, int size, char *output) {
    return wrapped(vfs)->xFullPathname(wrapped(vfs), name, size, output);
}

static void *mergeDlOpen(sqlite3_vfs *vfs, const char *path) {
    return wrapped(vfs)->xDlOpen(wrapped(vfs), path);
}

static void mergeDlError(sqlite3_vfs *vfs, int size, char *message) {
    wrapped(vfs)->xDlError(wrapped(vfs), size, message);
}

static void (*mergeDlSym(sqlite3_vfs *vfs, void *library, const char *symbol))(void) {
    return wrapped(vfs)->xDlSym(wrapped(vfs), library, symbol);
}

static void mergeDlClose(sqlite3_vfs *vfs, void *library) {
    wrapped(vfs)->xDlClose(wrapped(vfs), library);
}

static int mergeRandomness(sqlite3_vfs *vfs, int size, char *output) {
    return wrapped(vfs)->xRandomness(wrapped(vfs), size, output);
}

static int mergeSleep(sqlite3_vfs *vfs, int microseconds) {
    return wrapped(vfs)->xSleep(wrapped(vfs), microseconds);
}

static int mergeCurrentTime(sqlite3_vfs *vfs, double *now) {
    return wrapped(vfs)->xCurrentTime(wrapped(vfs), now);
}

static int mergeGetLastError(sqlite3_vfs *vfs, int size, char *message) {
    return wrapped(vfs)->xGetLastError(wrapped(vfs), size, message);
}

static int mergeCurrentTimeInt64(sqlite3_vfs *vfs, sqlite3_int64 *now) {
    return wrapped(vfs)->xCurrentTimeInt64(wrapped(vfs), now);
}

static int mergeSetSystemCall(sqlite3_vfs *vfs, const char *name, sqlite3_syscall_ptr call) {
    return wrapped(vfs)->xSetSystemCall(wrapped(vfs), name, call);
}

static sqlite3_syscall_ptr mergeGetSystemCall(sqlite3_vfs *vfs, const char *name) {
    return wrapped(vfs)->xGetSystemCall(wrapped(vfs), name);
}

static const char *mergeNextSystemCall(sqlite3_vfs *vfs, const char *name) {
    return wrapped(vfs)->xNextSystemCall(wrapped(vfs), name);
}

// Fills `wrapper` in as a wrapper of the VFS named `realName` and registers it as `name`.
static int registerWrapper(sqlite3_vfs *wrapper, const char *name, const char *realName) {
    sqlite3_vfs *real = sqlite3_vfs_find(realName);
    if (real == NULL) return SQLITE_NOTFOUND;
    memset(wrapper, 0, sizeof(*wrapper));
    // Version 3 is the newest this code knows; the wrapped VFS's methods past its own version are NULL.
    wrapper->iVersion = real->iVersion < 3 ? real->iVersion : 3;
    wrapper->szOsFile = mergeFileHeader + real->szOsFile;
    wrapper->mxPathname = real->mxPathname;
    wrapper->zName = name;
    wrapper->pAppData = real;
    wrapper->xOpen = mergeOpen;
    wrapper->xDelete = mergeDelete;
    wrapper->xAccess = mergeAccess;
    wrapper->xFullPathname = mergeFullPathname;
    wrapper->xDlOpen = real->xDlOpen ? mergeDlOpen : NULL;
    wrapper->xDlError = real->xDlError ? mergeDlError : NULL;
    wrapper->xDlSym = real->xDlSym ? mergeDlSym : NULL;
    wrapper->xDlClose = real->xDlClose ? mergeDlClose : NULL;
    wrapper->xRandomness = mergeRandomness;
    wrapper->xSleep = mergeSleep;
    wrapper->xCurrentTime = mergeCurrentTime;
    wrapper->xGetLastError = real->xGetLastError ? mergeGetLastError : NULL;
    if (wrapper->iVersion >= 2) {
        wrapper->xCurrentTimeInt64 = real->xCurrentTimeInt64 ? mergeCurrentTimeInt64 : NULL;
    }
    if (wrapper->iVersion >= 3) {
        wrapper->xSetSystemCall = real->xSetSystemCall ? mergeSetSystemCall : NULL;
        wrapper->xGetSystemCall = real->xGetSystemCall ? mergeGetSystemCall : NULL;
        wrapper->xNextSystemCall = real->xNextSystemCall ? mergeNextSystemCall : NULL;
    }
    return sqlite3_vfs_register(wrapper, 0);
}

static sqlite3_vfs unixWrapper;
static sqlite3_vfs unixExclusiveWrapper;
static pthread_once_t registration = PTHREAD_ONCE_INIT;
static int registrationResult = SQLITE_ERROR;

static void registerWrappers(void) {
    int rc = sqlite3_initialize();
    if (rc == SQLITE_OK) rc = registerWrapper(&unixWrapper, STREAMD_WRITE_MERGE_UNIX_VFS, "unix");
    if (rc == SQLITE_OK) {
        rc = registerWrapper(&unixExclusiveWrapper, STREAMD_WRITE_MERGE_UNIX_EXCL_VFS, "unix-excl");
    }
    registrationResult = rc;
}

int streamd_write_merge_register(void) {
    // pthread_once publishes registrationResult to every caller that returns from it.
    pthread_once(&registration, registerWrappers);
    return registrationResult;
}
