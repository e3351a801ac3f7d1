// The methods of a file opened through a write-merging VFS (see WriteMergeVFS.c): a write of at
// most HELD_CAPACITY bytes to a WAL is held back until the next call on the file, which writes it
// together with its own bytes when it is a write that continues them, and before itself otherwise.

#include "MergeFile.h"

#include <string.h>

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

int streamd_merge_file_open(sqlite3_vfs *real, const char *name, sqlite3_file *base, int flags, int *outFlags) {
    MergeFile *file = (MergeFile *)base;
    memset(file, 0, sizeof(MergeFile));
    file->real = (sqlite3_file *)((unsigned char *)file + MERGE_FILE_HEADER);
    file->isWAL = (flags & SQLITE_OPEN_WAL) != 0;
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

