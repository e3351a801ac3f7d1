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
// Every other file, and every VFS-level method, passes straight through to the wrapped VFS, except
// that no side file (-wal, -journal, -shm) is opened through a symbolic link: see refusesSymlink.

#include "CSQLiteWriteMerge.h"

#include "MergeFile.h"

#include <errno.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

// The wrapped VFS, kept in the wrapper's pAppData.
static sqlite3_vfs *wrapped(sqlite3_vfs *vfs) { return (sqlite3_vfs *)vfs->pAppData; }

// Whether `path` is a symbolic link.
static int isSymlink(const char *path) {
    struct stat info;
    return lstat(path, &info) == 0 && S_ISLNK(info.st_mode);
}

// Whether opening `name` must be refused: a user who may write the database's directory could plant
// `<db>-wal`, `<db>-journal` or `<db>-shm` as a symlink to a file of the daemon's user, which SQLite
// would then write. SQLite's unix VFS opens its files with O_NOFOLLOW since 3.33 (and the -shm file in
// unixOpenSharedMemory likewise); this check keeps that true with an older SQLite too. It is an lstat
// before the open, so it narrows rather than closes the window there; O_NOFOLLOW closes it. The -shm
// file is opened by the unix VFS itself, not through xOpen, so it is checked when its database opens.
static int refusesSymlink(const char *name, int flags) {
    if (name == NULL) return 0;
    if (flags & (SQLITE_OPEN_WAL | SQLITE_OPEN_MAIN_JOURNAL | SQLITE_OPEN_SUPER_JOURNAL | SQLITE_OPEN_TEMP_JOURNAL)) {
        return isSymlink(name);
    }
    if (flags & SQLITE_OPEN_MAIN_DB) {
        char shm[4096];
        int length = snprintf(shm, sizeof shm, "%s-shm", name);
        return length > 0 && (size_t)length < sizeof shm && isSymlink(shm);
    }
    return 0;
}

static int mergeOpen(sqlite3_vfs *vfs, const char *name, sqlite3_file *base, int flags, int *outFlags) {
    if (refusesSymlink(name, flags)) {
        // pMethods stays NULL, so SQLite does not close a file that was never opened.
        base->pMethods = NULL;
        sqlite3_log(SQLITE_CANTOPEN, "streamd refuses to open %s: a symbolic link stands where a side file of the database belongs", name);
        return SQLITE_CANTOPEN;
    }
    return streamd_merge_file_open(wrapped(vfs), name, base, flags, outFlags);
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
    wrapper->szOsFile = MERGE_FILE_HEADER + real->szOsFile;
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
